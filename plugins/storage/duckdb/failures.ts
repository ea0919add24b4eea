import { BenchtrackError, UnavailableError } from '../../../kit/index.js';

/**
 * What an engine error means for the database. `fatal`: DuckDB invalidated it (a checkpoint or WAL write failed)
 * until it is opened again. `disk_full`: one write failed for lack of space and was rolled back.
 */
export type Failure = 'fatal' | 'disk_full';

export function failureOf(error: unknown): Failure | undefined {
  // only the engine's own errors: ours may quote what a caller sent, which could read like these
  if (error instanceof BenchtrackError) return undefined;
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  // a fatal error's message quotes its cause, often "No space left on device": test for fatal first
  if (/database has been invalidated|^FATAL Error/m.test(message)) return 'fatal';
  if (/No space left on device|ENOSPC/.test(message)) return 'disk_full';
  return undefined;
}

/** Whether a failed COMMIT committed anyway: its checkpoint failed after the WAL made it durable. */
export function committedAnyway(error: unknown): boolean {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.includes('COMMIT succeeded and is durable');
}

/** Seconds a client is asked to wait (Retry-After) before trying again. */
const RETRY_AFTER_SECONDS: Readonly<Record<Failure, number>> = { fatal: 5, disk_full: 30 };

/** The error callers get while the database cannot serve; never quoting the engine (the log has the cause). */
export function unavailable(failure: Failure, cause?: unknown): UnavailableError {
  const message =
    failure === 'fatal'
      ? 'the database stopped after a storage failure (is its disk full?) and is being reopened; retry in a few seconds'
      : 'the disk holding the database is full; nothing of this request was written; retry once the operator has freed space';
  return new UnavailableError(message, { retry_after_seconds: RETRY_AFTER_SECONDS[failure] }, { cause });
}
