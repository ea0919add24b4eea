import type { ConnectionError } from './http.js';

/** An error answer of the API, with the advice a user needs to act on it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code = 'API_ERROR';

  constructor(
    readonly status: number,
    message: string,
    readonly requestId?: string,
    /** The API's own message, without the request and the advice. */
    readonly detail: string = message,
  ) {
    super(message);
  }
}

/** What to do about an HTTP status, appended to the API's own message. */
function adviceFor(status: number, requestId: string | undefined, retryAfterMs: number | undefined): string {
  if (retryAfterMs !== undefined) {
    const seconds = Math.ceil(retryAfterMs / 1000);
    return `the server asks to wait ${seconds} s (Retry-After): try again then, or let this client wait that long with --max-retry-after ${seconds}`;
  }
  if (status === 401 || status === 400)
    return status === 401
      ? 'pass a valid API token with --token or BENCHTRACK_API_TOKEN (create one with `benchtrack token create` or in the console)'
      : 'check the arguments (--help shows them and examples)';
  if (status === 403) return 'the token is valid but lacks the permission: ask an organization leader';
  if (status === 404)
    return 'check the UUID, slug or name; a private resource, or one your token may read but not change, answers 404 too';
  if (status === 409) return 'pick another name or slug, or update the existing resource';
  if (status === 413)
    return 'send less at once (the limit is the server setting server.request_body_max_bytes)';
  if (status === 429) return 'too many requests: wait a little and try again';
  if (status >= 500)
    return `the server failed; its log has the details${requestId ? ` (request id ${requestId})` : ''}`;
  return '';
}

/**
 * Turns an error answer into an {@link ApiError} naming the request, the API's message and what to do;
 * `retryAfterMs` is the wait a 429 or 503 asked for, which the advice repeats.
 */
export function apiError(
  method: string,
  path: string,
  status: number,
  body: string,
  retryAfterMs?: number,
): ApiError {
  let message = body.trim().slice(0, 500) || `HTTP ${status}`;
  let requestId: string | undefined;
  try {
    const json = JSON.parse(body) as { message?: unknown; request_id?: unknown };
    if (typeof json.message === 'string') message = json.message;
    if (typeof json.request_id === 'string') requestId = json.request_id;
  } catch {
    // Not JSON (a proxy's error page): its text is the message.
  }
  const advice = adviceFor(status, requestId, retryAfterMs);
  return new ApiError(
    status,
    `${method} ${path} failed (${status}): ${message}${advice ? `\n  hint: ${advice}` : ''}`,
    requestId,
    message,
  );
}

/** Explains a failed connection: where the client tried to go and how to point it elsewhere. */
export function connectionAdvice(error: ConnectionError, host: string): Error {
  const tlsProblem = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|EPROTO|ERR_SSL/.test(error.code);
  const hint = tlsProblem
    ? 'the TLS certificate is not trusted: use --native-tls for a certificate of your system store, or --insecure-host for a test server'
    : error.code === 'ETIMEDOUT'
      ? 'the server is slow or unreachable: raise --timeout, or check --host'
      : 'start a local server with `benchtrack up`, or point --host (BENCHTRACK_HOST) at your server';
  return Object.assign(new Error(`cannot reach the API at ${host}: ${error.message}\n  hint: ${hint}`), {
    code: error.code,
  });
}
