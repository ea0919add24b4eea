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
 * Sends a request, retrying connection errors and 5xx answers with exponential backoff (reference: attempts,
 * retry-after doubling up to a cap). The last answer or error is returned or thrown.
 */
export async function send(request: HttpRequest, settings: HttpSettings): Promise<HttpResponse> {
  let wait = settings.retryAfterMs;
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    try {
      const response = await sendOnce(request, settings);
      if (response.status < 500 || !request.idempotent || attempt >= settings.attempts) return response;
      reason = `HTTP ${response.status}`;
    } catch (error) {
      const code = error instanceof ConnectionError ? error.code : '';
      const retryable =
        !request.signal?.aborted && !PERMANENT.test(code) && (request.idempotent || NOT_SENT.has(code));
      if (!retryable || attempt >= settings.attempts) throw error;
      reason = code || (error as Error).message;
    }
    settings.warn(
      `${request.method} ${request.url.pathname}: ${reason}; retrying in ${formatSeconds(wait)} (attempt ${attempt + 1} of ${settings.attempts})`,
    );
    await sleep(wait);
    wait = Math.min(wait * 2, settings.maxRetryAfterMs);
  }
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
