import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';

/** How requests are sent: TLS trust, timeout and the retry policy. */
export interface HttpSettings {
  readonly timeoutMs: number;
  readonly insecure: boolean;
  readonly nativeTls: boolean;
  readonly attempts: number;
  readonly retryAfterMs: number;
  readonly maxRetryAfterMs: number;
  /** Where retry notices go (stderr in the CLI). */
  readonly warn: (message: string) => void;
}

export interface HttpRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /**
   * May the request be repeated after it may have reached the server? True for GET, PUT, PATCH, DELETE and
   * for POSTs made idempotent by a key; other POSTs are retried only when the connection was never made.
   */
  readonly idempotent: boolean;
  /** Aborts the request; an aborted request is never retried. */
  readonly signal?: AbortSignal | undefined;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A request that failed without an HTTP response (refused, reset, timed out, TLS). */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The request was certainly not received: safe to retry even when not idempotent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** TLS failures do not heal by waiting. */
const PERMANENT = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|EPROTO|ERR_SSL/;

/**
 * Sends a request, retrying connection errors, 5xx and 429 answers with exponential backoff (reference: attempts,
 * retry-after doubling up to a cap). A 429 or 503 that carries Retry-After is retried after the wait it asks for
 * instead; a wait longer than the cap ends the retries at once with that answer, since asking sooner is refused
 * again. A 429 says the server did nothing, so it is retried for every request; 5xx only for idempotent ones.
 * The last answer or error is returned or thrown.
 */
export async function send(request: HttpRequest, settings: HttpSettings): Promise<HttpResponse> {
  let wait = settings.retryAfterMs;
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    let pause = wait;
    try {
      const response = await sendOnce(request, settings);
      const { status } = response;
      const retryable = status === 429 || (status >= 500 && request.idempotent);
      if (!retryable || attempt >= settings.attempts) return response;
      const told = retryAfterMs(response);
      if (told === undefined) reason = `HTTP ${status}`;
      else if (told > settings.maxRetryAfterMs) return response;
      else {
        pause = told;
        reason = `HTTP ${status}, Retry-After ${formatSeconds(told)}`;
      }
    } catch (error) {
      const code = error instanceof ConnectionError ? error.code : '';
      const retryable =
        !request.signal?.aborted && !PERMANENT.test(code) && (request.idempotent || NOT_SENT.has(code));
      if (!retryable || attempt >= settings.attempts) throw error;
      reason = code || (error as Error).message;
    }
    settings.warn(
      `${request.method} ${request.url.pathname}: ${reason}; retrying in ${formatSeconds(pause)} (attempt ${attempt + 1} of ${settings.attempts})`,
    );
    await sleep(pause);
    wait = Math.min(wait * 2, settings.maxRetryAfterMs);
  }
}

/**
 * The wait a 429 or 503 answer asks for in its Retry-After header (RFC 9110 10.2.3: seconds, or an HTTP date),
 * in milliseconds; undefined for other answers and for a header that is neither.
 */
export function retryAfterMs(response: HttpResponse, now = Date.now()): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const header = response.headers['retry-after']?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  // every HTTP date form begins with the day's name
  const date = /^[a-z]{3}/i.test(header) ? Date.parse(header) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

function sendOnce(request: HttpRequest, settings: HttpSettings): Promise<HttpResponse> {
  const secure = request.url.protocol === 'https:';
  const options: https.RequestOptions = {
    method: request.method,
    ...(request.signal ? { signal: request.signal } : {}),
    headers: {
      ...request.headers,
      ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
    },
    ...(secure
      ? {
          rejectUnauthorized: !settings.insecure,
          ...(settings.nativeTls ? { ca: trustedCertificates() } : {}),
        }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(request.url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', (error) => reject(connectionError(error)));
    });
    req.setTimeout(settings.timeoutMs, () =>
      req.destroy(new ConnectionError(`no answer within ${formatSeconds(settings.timeoutMs)}`, 'ETIMEDOUT')),
    );
    req.on('error', (error) => reject(connectionError(error)));
    req.end(request.body);
  });
}

function connectionError(error: Error): ConnectionError {
  if (error instanceof ConnectionError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'ECONNECTION';
  return new ConnectionError(error.message || code, code);
}

let trusted: string[] | undefined;

/** Node's bundled roots plus the operating system's (`--native-tls`), read once. */
function trustedCertificates(): string[] {
  trusted ??= [...tls.rootCertificates, ...tls.getCACertificates('system')];
  return trusted;
}
