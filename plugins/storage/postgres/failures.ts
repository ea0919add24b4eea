import { BenchtrackError, UnavailableError } from '../../../kit/index.js';

/** SQLSTATEs after which a write transaction runs again: serialization failures, deadlocks, unique races. */
const RETRY = new Set(['40001', '40P01', '23505']);

/**
 * Whether a transaction that failed with `error` runs again: a serialization failure, a deadlock, or a unique
 * race (two processes creating one dimension or series): the next attempt sees what the other committed.
 */
export function retryable(error: unknown): boolean {
  return !(error instanceof BenchtrackError) && RETRY.has(sqlState(error));
}

/** The constraint and key a unique violation names (counting refusals of one key in a row); else undefined. */
export function uniqueKey(error: unknown): string | undefined {
  if (sqlState(error) !== '23505') return undefined;
  const { constraint_name: constraint, detail } = error as { constraint_name?: unknown; detail?: unknown };
  return `${String(constraint)}: ${String(detail)}`;
}

function sqlState(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** Whether `error` says the server cannot be reached or dropped the connection (not a statement's failure). */
export function connectionLost(error: unknown): boolean {
  if (error instanceof BenchtrackError) return false;
  const code = sqlState(error);
  return (
    /^(08|57P0)/.test(code) ||
    code === '53300' ||
    code.startsWith('CONNECT') ||
    code.startsWith('CONNECTION_') ||
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code)
  );
}

/** Whether a connection that was open is gone (a new one may well succeed), as opposed to one never opened. */
export function connectionDropped(error: unknown): boolean {
  return /^(57P01|57P02|CONNECTION_CLOSED|CONNECTION_DESTROYED|ECONNRESET|EPIPE)$/.test(sqlState(error));
}

/** What a caller gets while the database server cannot be reached. It never quotes the driver: the log has it. */
export function unavailable(cause: unknown): UnavailableError {
  return new UnavailableError(
    'the database server cannot be reached (connection refused or lost); the transaction in progress was rolled back; retry in a few seconds',
    { retry_after_seconds: 5 },
    { cause },
  );
}
