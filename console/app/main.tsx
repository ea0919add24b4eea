import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Layout } from './components/layout.js';
import { onLinkClick, useLocation } from './router.js';
import { Routes } from './routes.js';
import { prefetchExplorer } from './perf/prefetch.js';
import { initSession, useSession } from './session.js';
import './styles.css';

function App() {
  const location = useLocation();
  const session = useSession();
  const first = useRef(true);
  // After a page change, focus moves to the content so keyboard and screen-reader users start there.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location.path]);
  return (
    <Layout>
      <Routes location={location} session={session} />
    </Layout>
  );
}

initSession();
prefetchExplorer(location.pathname, location.search);
document.addEventListener('click', onLinkClick);
render(<App />, document.getElementById('root')!);
