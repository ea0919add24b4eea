import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { ApiError } from '../api/client.js';

/** Loading, error and empty states, the same on every page. */

export function ErrorMessage({ error }: { error: Error | string | undefined | null }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 404) {
    const named = /^(\w+) "([^"]+)" not found/.exec(error.message);
    return (
      <div class="error" role="alert">
        <strong>Not found.</strong> {named ? `There is no ${named[1]} “${named[2]}” here` : error.message}: it
        may have been deleted or renamed, it may be private, or the link may be wrong.
      </div>
    );
  }
  return (
    <div class="error" role="alert">
      {typeof error === 'string' ? error : error.message}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <div class="muted">{children}</div>}
    </div>
  );
}

let scope = '';

/**
 * Names what the pages rendered next belong to (a project), after their own titles: the router clears it on every
 * page, the project frame sets it as it renders, before its page does.
 */
export function setTitleScope(name: string): void {
  scope = name;
}

/** The page's title, in the tab as well (several console tabs are common): `Alerts · my-project · Benchtrack`. */
export function useTitle(title: string): void {
  const within = scope;
  useEffect(() => {
    document.title = [title, within, 'Benchtrack'].filter(Boolean).join(' · ');
  }, [title, within]);
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  useTitle(title);
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children && <div class="actions">{children}</div>}
    </div>
  );
}
