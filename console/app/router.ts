import { useEffect, useState } from 'preact/hooks';

/** A few dozen lines of history-API routing: the console's URLs are its state, so routing stays explicit. */

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

addEventListener('popstate', notify);

export interface Location {
  readonly path: string;
  readonly query: URLSearchParams;
  /** Path and query, as a link would hold them. */
  readonly href: string;
}

function current(): Location {
  return {
    path: location.pathname,
    query: new URLSearchParams(location.search),
    href: location.pathname + location.search,
  };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

/** Replaces the query string (selection changes in the explorer) without a new history entry per click. */
export function setQuery(query: URLSearchParams, options: { push?: boolean } = {}): void {
  // Commas stay readable: the perf lists are comma-separated UUIDs, and a shared link should look like one.
  const text = query.toString().replace(/%2C/gi, ',');
  navigate(location.pathname + (text ? `?${text}` : ''), { replace: !options.push });
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const listener = () =>
      setLocation((previous) =>
        previous.href === window.location.pathname + window.location.search ? previous : current(),
      );
    listeners.add(listener);
    // Children's effects run first: a redirect may have navigated before this component subscribed.
    listener();
    return () => void listeners.delete(listener);
  }, []);
  return location;
}

/** `/console/projects/:project/reports/:report` against a path: the parameters, or null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    const value = have[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/** Plain left clicks on same-origin links route in the page; others (new tab, download) stay the browser's. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
