import type { LiveConfig } from '../accounts/tokens.js';
import { durationMs } from '../replication/duration.js';

/** `runners.heartbeat_timeout` as it is now, in milliseconds. */
export function heartbeatTimeoutMs(config: LiveConfig): number {
  return durationMs(config.current.runners.heartbeat_timeout);
}

/** How often a runner sends heartbeats: three within the timeout, so one lost request does not cost the lease. */
export function heartbeatIntervalMs(timeoutMs: number): number {
  return Math.min(Math.max(Math.floor(timeoutMs / 3), 250), 20_000);
}

/**
 * The longest a claim waits for a job: half the timeout, so a waiting runner shows as seen (`idle`) throughout.
 */
export function claimWaitMs(requestedSeconds: number, timeoutMs: number): number {
  return Math.min(requestedSeconds * 1000, Math.floor(timeoutMs / 2));
}
