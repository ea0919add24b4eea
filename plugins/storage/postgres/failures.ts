import { BenchtrackError, UnavailableError } from '../../../kit/index.js';

/** SQLSTATEs after which a write transaction runs again: serialization failures, deadlocks, unique races. */
const RETRY = new Set(['40001', '40P01', '23505']);

/**
 * Whether a transaction that failed with `error` should run again. Under SERIALIZABLE, PostgreSQL aborts one of
 * two transactions that could not have run one after the other (40001), and a unique index stops the second of
 * two concurrent inserts of one key (23505: two processes creating the same dimension or series, or reusing an
 * idempotency key): the next attempt sees what the other committed and takes the path for an existing row.
 */
export function retryable(error: unknown): boolean {
  return !(error instanceof BenchtrackError) && RETRY.has(sqlState(error) ?? '');
}

/**
 * The constraint and key a unique violation names ("Key (project_id, name)=(1, alpha) already exists."), for
 * counting how often in a row one transaction is refused the same key; `undefined` for any other error.
 */
export function uniqueKey(error: unknown): string | undefined {
  if (sqlState(error) !== '23505') return undefined;
  const { constraint_name: constraint, detail } = error as { constraint_name?: unknown; detail?: unknown };
  return `${String(constraint)}: ${String(detail)}`;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether `error` says the database server cannot be reached or dropped the connection (refused, reset, timed
 * out, shut down, backend terminated), as opposed to a statement that failed.
 */
export function connectionLost(error: unknown): boolean {
  if (error instanceof BenchtrackError) return false;
  const code = sqlState(error);
  if (code === undefined) return false;
  return (
    /^(08|57P0)/.test(code) ||
    code === '53300' ||
    code.startsWith('CONNECT') ||
    code.startsWith('CONNECTION_') ||
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code)
  );
}

/**
 * Whether `error` says a connection that was open is gone (backend terminated, server shut it, socket reset), as
 * opposed to one that could not be opened: a new connection may well succeed.
 */
export function connectionDropped(error: unknown): boolean {
  const code = sqlState(error);
  return (
    connectionLost(error) &&
    /^(57P01|57P02|CONNECTION_CLOSED|CONNECTION_DESTROYED|ECONNRESET|EPIPE)$/.test(code ?? '')
  );
}

/** Seconds a client is asked to wait (Retry-After) while the database server cannot be reached. */
export const RETRY_AFTER_SECONDS = 5;

/** What a caller gets while the database server cannot be reached. It never quotes the driver: the log has it. */
export function unavailable(cause: unknown): UnavailableError {
  return new UnavailableError(
    'the database server cannot be reached (connection refused or lost); the transaction in progress was rolled back; retry in a few seconds',
    { retry_after_seconds: RETRY_AFTER_SECONDS },
    { cause },
  );
}
