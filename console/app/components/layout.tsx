import type { ComponentChildren } from 'preact';
import { dismissNotice, useNotices } from '../notices.js';
import { useLocation } from '../router.js';
import { useSession } from '../session.js';

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const { path } = useLocation();
  const active = path === href || path.startsWith(`${href}/`);
  return (
    <a href={href} aria-current={active ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** Header, notices and the page; the skip link and the focusable main serve keyboard and screen-reader users. */
export function Layout({ children }: { children: ComponentChildren }) {
  const session = useSession();
  const notices = useNotices();
  const { href } = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={session ? '/console' : '/'}>
          <svg viewBox="0 0 16 16" width="20" height="20" aria-hidden="true">
            <path d="M1 13l4-5 3 3 6-8" fill="none" stroke="currentColor" stroke-width="2" />
          </svg>
          Benchtrack
        </a>
        <nav aria-label="Main">
          {session ? (
            <>
              <NavLink href="/console/projects">Projects</NavLink>
              <NavLink href="/console/organizations">Organizations</NavLink>
              {session.user.admin && <NavLink href="/console/runners">Runners</NavLink>}
              {session.user.admin && <NavLink href="/console/admin/stats">Server</NavLink>}
              <NavLink href={`/console/users/${session.user.slug}/tokens`}>API tokens</NavLink>
              <NavLink href={`/console/users/${session.user.slug}/settings`}>{session.user.name}</NavLink>
              <a href="/auth/logout">Log out</a>
            </>
          ) : (
            <>
              <NavLink href="/projects">Public projects</NavLink>
              <a href={`/auth/login?next=${encodeURIComponent(href)}`}>Log in</a>
              <a href="/auth/signup" class="button primary">
                Sign up
              </a>
            </>
          )}
        </nav>
      </header>
      <div class="notices" aria-live="polite">
        {notices.map((notice) => (
          <div
            key={notice.id}
            class={`notice ${notice.kind}`}
            role={notice.kind === 'error' ? 'alert' : 'status'}
          >
            <span>{notice.text}</span>
            <button
              type="button"
              class="link"
              aria-label="Dismiss message"
              onClick={() => dismissNotice(notice.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
