/**
 * What the confirm page needs after a sign-up or login: the address (to resend the link) and where to go next.
 * sessionStorage: the link is usually opened in the same browser, and nothing here is secret.
 */
const EMAIL = 'benchtrack.pending-email';
const NEXT = 'benchtrack.next';

export function rememberPending(email: string, next: string | null): void {
  sessionStorage.setItem(EMAIL, email);
  if (next) sessionStorage.setItem(NEXT, next);
}

export function pendingEmail(): string {
  return sessionStorage.getItem(EMAIL) ?? '';
}

/** Where to go after confirming: a console path remembered at login, else the projects. */
export function takeNext(): string {
  const next = sessionStorage.getItem(NEXT);
  sessionStorage.removeItem(NEXT);
  sessionStorage.removeItem(EMAIL);
  // Public pages send a visitor who logs in to the console's own view.
  if (next === '/' || next === '/projects') return '/console/projects';
  const safe = next && next.startsWith('/') && !next.startsWith('//');
  return safe && (!next.startsWith('/auth/') || next.startsWith('/auth/invite')) ? next : '/console/projects';
}
