/**
 * Reports an error on stderr as `benchtrack: <message>` and returns the exit code (1 for every error, as the
 * reference CLI does). Errors raised on purpose (core's errors and Node's system errors carry a `code`, usage
 * errors are ours) have messages written for users; anything else is a bug, so its stack is shown.
 */
export function failure(error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  const expected =
    error instanceof UsageError ||
    (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string');
  const text = expected || !(error instanceof Error) ? message : (error.stack ?? message);
  process.stderr.write(`benchtrack: ${text}\n`);
  return 1;
}

/** A mistake in how the command was called (missing input, unreadable file). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
