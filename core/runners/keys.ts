import { randomBytes } from 'node:crypto';

/** Runner keys start with this, so the API tells them from the JWTs of users at a glance. */
export const RUNNER_KEY_PREFIX = 'btr_';

/** A new runner key: the prefix and 256 random bits, base64url. */
export function newRunnerKey(): string {
  return `${RUNNER_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isRunnerKey(token: string): boolean {
  return token.startsWith(RUNNER_KEY_PREFIX);
}
