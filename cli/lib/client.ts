import type { z } from 'zod';
import { formatPath } from '../../core/issues.js';
import { apiError, connectionAdvice } from './api-error.js';
import type { BackendOptions } from './backend-options.js';
import { ConnectionError, retryAfterMs, send, type HttpSettings } from './http.js';
import { unknownFields } from './strict.js';
import { readVersion } from './version.js';

/** console.url when the API does not tell it. */
export const DEFAULT_CONSOLE_URL = 'http://localhost:3000';

export type Query = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

export interface RequestOptions<S extends z.ZodType> {
  readonly query?: Query | undefined;
  readonly body?: unknown;
  /** The response schema (from core/schemas); none for empty or opaque answers. */
  readonly schema?: S | undefined;
  /** A POST that the server deduplicates (idempotency key) may be retried like a GET. */
  readonly idempotent?: boolean | undefined;
  /** Answer with bytes (images) instead of parsing JSON. */
  readonly binary?: boolean | undefined;
  /** One attempt only (the version check: the request beside it does the retrying and reports). */
  readonly once?: boolean | undefined;
  /** Gives up the request (a runner's long poll when the runner stops). */
  readonly signal?: AbortSignal | undefined;
}

export interface ApiResponse<T> {
  /** The parsed answer (unknown fields removed). */
  readonly data: T;
  /** The answer as the server sent it: what the CLI prints, so nothing is lost in relaxed mode. */
  readonly raw: unknown;
  readonly bytes: Buffer;
  /** `X-Total-Count`: the full size of a list before pagination. */
  readonly total: number | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The typed HTTP client of the CLI. Responses are parsed with core's zod schemas: relaxed by default (fields
 * this client does not know are ignored), `--strict` makes them an error. The first request also checks the
 * server's API version, concurrently, and warns once on a mismatch (spec, Versioning).
 */
export class ApiClient {
  readonly host: URL;
  #versionCheck: Promise<void> | undefined;

  constructor(
    readonly options: BackendOptions,
    private readonly warn: (message: string) => void = (m) =>
      process.stderr.write(`benchtrack: warning: ${m}\n`),
  ) {
    this.host = parseHost(options.host);
  }

  get http(): HttpSettings {
    return {
      timeoutMs: this.options.timeout * 1000,
      insecure: this.options.insecureHost === true,
      nativeTls: this.options.nativeTls === true,
      attempts: this.options.attempts,
      retryAfterMs: this.options.retryAfter * 1000,
      maxRetryAfterMs: this.options.maxRetryAfter * 1000,
      warn: this.warn,
    };
  }

  get<S extends z.ZodType>(path: string, options: RequestOptions<S> = {}) {
    return this.request('GET', path, options);
  }
  post<S extends z.ZodType>(path: string, options: RequestOptions<S> = {}) {
    return this.request('POST', path, options);
  }
  patch<S extends z.ZodType>(path: string, options: RequestOptions<S> = {}) {
    return this.request('PATCH', path, options);
  }
  put<S extends z.ZodType>(path: string, options: RequestOptions<S> = {}) {
    return this.request('PUT', path, options);
  }
  delete<S extends z.ZodType>(path: string, options: RequestOptions<S> = {}) {
    return this.request('DELETE', path, options);
  }

  /** One API call (after the version check): the error answers become {@link ApiError}s with advice. */
  async request<S extends z.ZodType>(
    method: string,
    path: string,
    options: RequestOptions<S> = {},
  ): Promise<ApiResponse<z.output<S>>> {
    const [response] = await Promise.all([this.#send(method, path, options), this.checkVersion()]);
    return response;
  }

  /** Where the web console is (`console.url`), for links; the default console when the API does not say. */
  async consoleUrl(): Promise<string> {
    try {
      const { raw } = await this.get('/v0/server/config/console');
      return (raw as { url?: unknown }).url?.toString() ?? DEFAULT_CONSOLE_URL;
    } catch {
      return DEFAULT_CONSOLE_URL;
    }
  }

  /** Warns when the server's API version differs from this client's; at most once per process. */
  checkVersion(): Promise<void> {
    this.#versionCheck ??= this.#send('GET', '/v0/server/version', { once: true }).then(
      ({ raw }) => {
        const warning = versionWarning(
          (raw as { version?: unknown } | null)?.version,
          readVersion(),
          this.host.origin,
        );
        if (warning) this.warn(warning);
      },
      // The request itself reports an unreachable server; a version check that fails alone is only noted.
      (error: unknown) => {
        if (!(error instanceof Error && 'code' in error))
          this.warn(`could not check the API version: ${String(error)}`);
      },
    );
    return this.#versionCheck;
  }

  async #send<S extends z.ZodType>(
    method: string,
    path: string,
    options: RequestOptions<S>,
  ): Promise<ApiResponse<z.output<S>>> {
    const url = new URL(
      path.replace(/^\//, ''),
      this.host.href.endsWith('/') ? this.host : `${this.host.href}/`,
    );
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      accept: options.binary ? '*/*' : 'application/json',
      'user-agent': `benchtrack/${readVersion()}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(this.options.token ? { authorization: `Bearer ${this.options.token.trim()}` } : {}),
    };
    let response;
    try {
      response = await send(
        {
          method,
          url,
          headers,
          body,
          idempotent: method !== 'POST' || options.idempotent === true,
          signal: options.signal,
        },
        options.once ? { ...this.http, attempts: 1 } : this.http,
      );
    } catch (error) {
      throw error instanceof ConnectionError ? connectionAdvice(error, this.host.origin) : error;
    }
    const text = options.binary ? '' : response.body.toString('utf8');
    if (response.status >= 400)
      throw apiError(
        method,
        url.pathname,
        response.status,
        response.body.toString('utf8'),
        retryAfterMs(response),
      );
    const raw = options.binary || text === '' ? undefined : parseJson(text, method, url.pathname);
    const total = response.headers['x-total-count'];
    return {
      data: (options.schema
        ? this.#parse(options.schema, raw, `${method} ${url.pathname}`)
        : raw) as z.output<S>,
      raw,
      bytes: response.body,
      total: total === undefined ? undefined : Number(total),
      headers: response.headers,
    };
  }

  #parse<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.output<S> {
    const result = schema.safeParse(raw);
    const mismatch = (problems: string[]) =>
      Object.assign(
        new Error(
          `the answer of ${what} is not what this client (version ${readVersion()}) expects:\n  ${problems.slice(0, 10).join('\n  ')}\n  hint: use a client of the server's version (\`benchtrack server version\`)${this.options.strict ? ', or drop --strict' : ''}`,
        ),
        { code: 'RESPONSE_MISMATCH' },
      );
    if (!result.success) {
      throw mismatch(
        result.error.issues.map((issue) => `${formatPath(issue.path) || '(root)'}: ${issue.message}`),
      );
    }
    if (this.options.strict) {
      const unknown = unknownFields(raw, result.data);
      if (unknown.length > 0) throw mismatch(unknown.map((path) => `${path}: unknown field (--strict)`));
    }
    return result.data;
  }
}

function parseJson(text: string, method: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw Object.assign(
      new Error(`${method} ${path} answered with something that is not JSON: ${text.slice(0, 200)}`),
      {
        code: 'RESPONSE_MISMATCH',
      },
    );
  }
}

function parseHost(host: string): URL {
  try {
    const url = new URL(host);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url;
  } catch {
    throw Object.assign(new Error(`--host must be an http:// or https:// URL, got "${host}"`), {
      code: 'USAGE',
    });
  }
}

/** The user UUID a JWT was issued to (its `sub`), read without verification: the server verifies. */
export function tokenSubject(token: string | undefined): string | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The warning for a server whose API version is not this client's (spec, Versioning: the client checks it on
 * every command that uses the API), or undefined when they match.
 */
export function versionWarning(server: unknown, client: string, origin: string): string | undefined {
  if (typeof server !== 'string')
    return `could not read the API version at ${origin}: is it a Benchtrack API?`;
  if (server === client) return undefined;
  return `the API at ${origin} is version ${server} and this client ${client}; some commands may not work: install benchtrack@${server} to match`;
}
