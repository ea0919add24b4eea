import { useEffect, useState } from 'preact/hooks';
import type { AuthUserJson, UserJson } from './api/types.js';
import { notify } from './notices.js';

/** The console session: the API's session JWT and its user, kept in localStorage so every tab shares it. */
export interface Session {
  readonly token: string;
  readonly user: UserJson;
  /** RFC 3339; the console logs out by itself at this moment (spec: Authentication 3). */
  readonly expiration: string;
}

const KEY = 'benchtrack.session';
const listeners = new Set<(session: Session | null) => void>();
let current: Session | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
// setTimeout cannot wait longer than 2^31-1 ms (about 24.8 days; sessions last 30): wait in steps.
const LONGEST_WAIT = 2_147_483_647;

function publish(): void {
  for (const listener of listeners) listener(current);
}

function schedule(): void {
  clearTimeout(timer);
  if (!current) return;
  const left = Date.parse(current.expiration) - Date.now();
  if (left <= 0) {
    expire();
    return;
  }
  timer = setTimeout(schedule, Math.min(left, LONGEST_WAIT));
}

function read(): Session | null {
  try {
    const text = localStorage.getItem(KEY);
    const parsed = text ? (JSON.parse(text) as Session) : null;
    return parsed?.token && parsed.user && parsed.expiration ? parsed : null;
  } catch {
    return null;
  }
}

function write(session: Session | null): void {
  current = session;
  try {
    if (session) localStorage.setItem(KEY, JSON.stringify(session));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage may be disabled (private mode): the session then lasts as long as the page.
  }
  schedule();
  publish();
}

export function getSession(): Session | null {
  return current;
}

export function startSession(auth: AuthUserJson): void {
  write({ token: auth.token, user: auth.user, expiration: auth.expiration });
}

export function updateSessionUser(user: UserJson): void {
  if (current) write({ ...current, user });
}

export function logout(message = 'You are logged out.'): void {
  if (!current) return;
  write(null);
  notify(message);
}

/** The session ended on its own (expiry, or the API no longer accepts the token). */
export function expire(message = 'Your session expired; log in again.'): void {
  if (!current) return;
  write(null);
  notify(message, 'error');
}

export function useSession(): Session | null {
  const [session, setSession] = useState(current);
  useEffect(() => {
    listeners.add(setSession);
    return () => void listeners.delete(setSession);
  }, []);
  return session;
}

/** Reads the stored session and keeps it in step with other tabs and with sleeping timers. */
export function initSession(): void {
  current = read();
  schedule();
  addEventListener('storage', (event) => {
    if (event.key !== KEY) return;
    const next = read();
    // Another tab ended the session: by its expiry (all tabs' timers race), or by logging out.
    if (!next && current) {
      if (Date.parse(current.expiration) <= Date.now())
        notify('Your session expired; log in again.', 'error');
      else notify('You are logged out.');
    }
    current = next;
    schedule();
    publish();
  });
  // Timers of background tabs and sleeping laptops run late: check again when the page is seen.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') schedule();
  });
  addEventListener('focus', schedule);
}
