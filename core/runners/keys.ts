import { randomBytes } from 'node:crypto';

/** Runner keys start with this, so the API tells them from the JWTs of users at a glance. */
export const RUNNER_KEY_PREFIX = 'btr_';

const KEY = /^btr_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/;

/**
 * A new key of a runner: the prefix, the runner's UUID (so that `runner up --key` alone tells the agent which
 * runner it is) and 256 random bits, base64url. Only the random part is a secret; the key is stored hashed.
 */
export function newRunnerKey(runnerUuid: string): string {
  return `${RUNNER_KEY_PREFIX}${runnerUuid.replaceAll('-', '')}_${randomBytes(32).toString('base64url')}`;
}

export function isRunnerKey(token: string): boolean {
  return token.startsWith(RUNNER_KEY_PREFIX);
}

/** The UUID of the runner a key names, or undefined when the text is no runner key. */
export function runnerOfKey(key: string): string | undefined {
  const hex = KEY.exec(key.trim())?.[1];
  return (
    hex && `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  );
}
