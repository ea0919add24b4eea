import { config } from '../config.js';
import { expire, getSession } from '../session.js';
import { readableValidation } from './readable.js';

/** An API failure carrying the API's own message (`{request_id, error_code, message}`); validation errors as sentences. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ApiResponse<T> {
  readonly data: T;
  /** X-Total-Count: the full count of a list. */
  readonly total: number;
}

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function apiUrl(path: string, query?: Query): string {
  return `${config.apiUrl}/v0${path}${queryString(query)}`;
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { message?: string; error_code?: string; request_id?: string };
    const message =
      body.error_code === 'invalid_input' && body.message ? readableValidation(body.message) : body.message;
    if (message) return new ApiError(message, response.status, body.error_code, body.request_id);
  } catch {
    // Not the API's JSON (a proxy's page, say): the status line is the best there is.
  }
  return new ApiError(`${response.status} ${response.statusText || 'error'} from the API`, response.status);
}

export interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Send the request without the session (public views, and auth endpoints). */
  readonly anonymous?: boolean;
  /** The answer's bytes as they came (an Arrow stream), not parsed as JSON. */
  readonly bytes?: boolean;
}

const prefetched = new Map<string, { token: string | undefined; response: Promise<Response> }>();

/**
 * Starts a GET before the page that needs it is mounted (the explorer's perf query, at page load, instead of
 * after the project's own requests); the page's identical request then takes this response.
 */
export function prefetch(path: string, query: Query): void {
  const url = apiUrl(path, query);
  const token = getSession()?.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = fetch(url, { headers });
  response.catch(() => undefined);
  prefetched.set(url, { token, response });
  // An answer nobody took within a minute is stale.
  setTimeout(() => prefetched.get(url)?.response === response && prefetched.delete(url), 60_000);
}

function takePrefetched(url: string, token: string | undefined): Promise<Response> | undefined {
  const entry = prefetched.get(url);
  if (!entry || entry.token !== token) return undefined;
  prefetched.delete(url);
  return entry.response;
}

export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const session = options.anonymous ? null : getSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (session) headers.authorization = `Bearer ${session.token}`;
  let response: Response;
  const url = apiUrl(path, options.query);
  const early = method === 'GET' && !options.anonymous ? takePrefetched(url, session?.token) : undefined;
  try {
    response = await (early ??
      fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(`Cannot reach the API at ${config.apiUrl}: is it running?`, 0);
  }
  if (!response.ok) {
    const error = await errorOf(response);
    // The API no longer accepts this session (expired, revoked, or the issuer changed).
    if (response.status === 401 && session) expire('Your session is no longer valid; log in again.');
    throw error;
  }
  const total = Number(response.headers.get('x-total-count') ?? '0');
  if (response.status === 204) return { data: undefined as T, total };
  if (options.bytes) return { data: new Uint8Array(await response.arrayBuffer()) as T, total };
  return { data: (await response.json()) as T, total };
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>('GET', path, { query, signal }).then((r) => r.data),
  bytes: (path: string, query?: Query, signal?: AbortSignal) =>
    request<Uint8Array>('GET', path, { query, signal, bytes: true }).then((r) => r.data),
  list: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T[]>('GET', path, { query, signal }),
  post: <T>(path: string, body: unknown) => request<T>('POST', path, { body }).then((r) => r.data),
  /** Sign-up, login and confirmation: without the session, so a refused link never ends the current one. */
  postAnonymous: <T>(path: string, body: unknown) =>
    request<T>('POST', path, { body, anonymous: true }).then((r) => r.data),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }).then((r) => r.data),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }).then((r) => r.data),
  delete: (path: string) => request<void>('DELETE', path).then(() => undefined),
};

/** Every page of a list (per_page 255, the API's maximum), for pickers that select all matching. */
export async function listAll<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const { data, total } = await request<T[]>('GET', path, {
      query: { ...query, per_page: 255, page },
      signal,
    });
    items.push(...data);
    if (data.length < 255 || items.length >= total) return items;
  }
}

export function segment(value: string): string {
  return encodeURIComponent(value);
}
