import { REDACTED } from './config/redact.js';

/** Keys whose values are credentials, censored at any depth of a logged object (compared in lower case). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'password',
  'secret',
  'token',
  'secret_key',
  'client_secret',
  'secret_access_key',
  'account_key',
]);

/** Deeper than any object we log; the limit also ends a cycle. */
const MAX_DEPTH = 10;

/**
 * A copy of a logged object with the value of every secret key replaced by `************`, at any depth of
 * plain objects and arrays. Other objects (errors, buffers) are left to their serializers. Nothing is copied
 * when there is nothing to censor.
 */
export function censorSecretKeys<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const next = censorSecretKeys(item, depth + 1);
      if (next !== item) (copy ??= [...value])[index] = next;
    });
    return (copy ?? value) as T;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    const next =
      SECRET_KEYS.has(key.toLowerCase()) && item !== undefined && item !== null
        ? REDACTED
        : censorSecretKeys(item, depth + 1);
    if (next !== item) (copy ??= { ...record })[key] = next;
  }
  return (copy ?? value) as T;
}

const WORD = /[\p{L}\p{N}_]/u;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pattern of one secret as a whole token: where the secret begins (ends) with a letter, digit or `_`, the
 * character before (after) it must not be one, so `s` matches in `key=s&` but not in `sessions`.
 */
function tokenPattern(secret: string): string {
  const before = WORD.test(secret.slice(0, 1)) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = WORD.test(secret.slice(-1)) ? '(?![\\p{L}\\p{N}_])' : '';
  return `${before}${escapeRegExp(secret)}${after}`;
}

/**
 * Replaces each secret (raw and JSON-escaped) where it stands as a whole token in a serialized log line. The
 * secrets are read for every line, so a secret changed at run time is redacted from then on; the pattern is
 * rebuilt only when they change.
 */
export function secretScrubber(secrets: () => readonly string[]): (line: string) => string {
  let key: string | undefined;
  let pattern: RegExp | undefined;
  return (line) => {
    const current = secrets();
    const currentKey = current.join('\u0000');
    if (currentKey !== key) {
      key = currentKey;
      const needles = [...new Set(current.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))]
        .filter((s) => s.length > 0)
        .sort((a, b) => b.length - a.length);
      pattern = needles.length > 0 ? new RegExp(needles.map(tokenPattern).join('|'), 'gu') : undefined;
    }
    return pattern ? line.replace(pattern, REDACTED) : line;
  };
}
