import { prefetchExplorer } from './perf/prefetch.js';
import { initSession } from './session.js';
import './styles.css';

// The entry is small on purpose: the explorer's perf query leaves as soon as it runs, while the browser still
// loads and compiles the app (most of the code), instead of after it.
initSession();
prefetchExplorer(location.pathname, location.search);
const root = document.getElementById('root')!;
import('./app.js').then(
  (app) => app.start(root),
  () => {
    root.textContent = 'The console could not be loaded: reload the page.';
  },
);
