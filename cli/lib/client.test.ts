import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, tokenSubject, versionWarning } from './client.js';
import { retryAfterMs } from './http.js';
import { readVersion } from './version.js';

describe('versionWarning', () => {
  it('is silent when the versions match and names both when they differ', () => {
    expect(versionWarning('0.1.0', '0.1.0', 'http://api')).toBeUndefined();
    expect(versionWarning('0.2.0', '0.1.0', 'http://api')).toBe(
      'the API at http://api is version 0.2.0 and this client 0.1.0; some commands may not work: install benchtrack@0.2.0 to match',
    );
    expect(versionWarning(undefined, '0.1.0', 'http://api')).toContain('is it a Benchtrack API?');
  });
});

describe('tokenSubject', () => {
  it('reads the user UUID from a JWT, and nothing from anything else', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'user-uuid', aud: 'api_key' })).toString('base64url');
    expect(tokenSubject(`header.${payload}.signature`)).toBe('user-uuid');
    expect(tokenSubject('not-a-jwt')).toBeUndefined();
    expect(tokenSubject(undefined)).toBeUndefined();
  });
});

/** A real HTTP server on 127.0.0.1 that answers the version check and lets `answer` handle the rest. */
interface TestServer {
  readonly url: string;
  /** How many requests reached each path (the version check beside each request included). */
  readonly seen: Map<string, number>;
}

let server: http.Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

async function serve(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const seen = new Map<string, number>();
  server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    if (path === '/v0/server/version') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ version: readVersion() }));
    } else answer(request, response);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen } satisfies TestServer;
}

function client(host: string, options: { attempts?: number; timeout?: number; maxRetryAfter?: number } = {}) {
  const warnings: string[] = [];
  const api = new ApiClient(
    {
      host,
      timeout: options.timeout ?? 5,
      attempts: options.attempts ?? 5,
      retryAfter: 0.01,
      maxRetryAfter: options.maxRetryAfter ?? 0.02,
    },
    (message) => warnings.push(message),
  );
  return { api, warnings };
}

describe('ApiClient retries', () => {
  it('retries 5xx answers with backoff and returns the answer that succeeds', async () => {
    let failures = 2;
    const { url, seen } = await serve((_, response) => {
      response.statusCode = failures-- > 0 ? 503 : 200;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(response.statusCode === 200 ? { ok: true } : { message: 'busy' }));
    });
    const { api, warnings } = client(url);
    const { raw } = await api.get('/v0/projects');
    expect(raw).toEqual({ ok: true });
    expect(seen.get('/v0/projects')).toBe(3);
    expect(warnings).toEqual([
      'GET /v0/projects: HTTP 503; retrying in 0.01 s (attempt 2 of 5)',
      'GET /v0/projects: HTTP 503; retrying in 0.02 s (attempt 3 of 5)',
    ]);
  });

  it('gives up after the configured attempts and reports the last status', async () => {
    const { url, seen } = await serve((_, response) => {
      response.statusCode = 500;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ message: 'database is locked', request_id: 'req-1' }));
    });
    const { api, warnings } = client(url, { attempts: 3 });
    const error = await api.get('/v0/projects').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'ApiError', status: 500, code: 'API_ERROR' });
    expect((error as Error).message).toBe(
      'GET /v0/projects failed (500): database is locked\n  hint: the server failed; its log has the details (request id req-1)',
    );
    expect(seen.get('/v0/projects')).toBe(3);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('GET /v0/projects: HTTP 500; retrying in 0.02 s (attempt 3 of 3)');
  });

  it('does not repeat a POST that may have reached the server after a 5xx', async () => {
    const { url, seen } = await serve((_, response) => {
      response.statusCode = 503;
      response.end();
    });
    const { api, warnings } = client(url, { attempts: 3 });
    await expect(api.post('/v0/projects', { body: { name: 'p' } })).rejects.toMatchObject({ status: 503 });
    expect(seen.get('/v0/projects')).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('stops waiting after the timeout and says so', async () => {
    const { url, seen } = await serve(() => {
      // Never answers.
    });
    const { api } = client(url, { attempts: 1, timeout: 0.5 });
    const started = performance.now();
    const error = await api.get('/v0/projects').then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    const elapsed = performance.now() - started;
    expect(error?.code).toBe('ETIMEDOUT');
    expect(error?.message).toBe(
      `cannot reach the API at ${url}: no answer within 0.5 s\n  hint: the server is slow or unreachable: raise --timeout, or check --host`,
    );
    expect(seen.get('/v0/projects')).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('ApiClient and Retry-After', () => {
  /** Answers `status` with Retry-After `wait` to the first `refusals` requests of a path, then 201. */
  const throttled = (status: number, wait: string, refusals = 1) => {
    const times: number[] = [];
    return {
      times,
      answer(request: http.IncomingMessage, response: http.ServerResponse) {
        times.push(performance.now());
        request.resume();
        response.setHeader('content-type', 'application/json');
        if (times.length <= refusals) {
          response.statusCode = status;
          response.setHeader('retry-after', wait);
          response.end(JSON.stringify({ message: 'too many requests: try again later' }));
        } else {
          response.statusCode = 201;
          response.end(JSON.stringify({ ok: true }));
        }
      },
    };
  };

  it('waits as a 429 tells, not its own backoff, and repeats even a POST (the server did nothing)', async () => {
    const server = throttled(429, '1');
    const { url, seen } = await serve(server.answer);
    const { api, warnings } = client(url, { maxRetryAfter: 5 });
    const { raw } = await api.post('/v0/projects', { body: { name: 'p' } });
    expect(raw).toEqual({ ok: true });
    expect(seen.get('/v0/projects')).toBe(2);
    expect(warnings).toEqual([
      'POST /v0/projects: HTTP 429, Retry-After 1 s; retrying in 1 s (attempt 2 of 5)',
    ]);
    const [first, second] = server.times as [number, number];
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('waits as a 503 tells, given as an HTTP date', async () => {
    const server = throttled(503, new Date(Date.now() + 2000).toUTCString());
    const { url, seen } = await serve(server.answer);
    const { api, warnings } = client(url, { maxRetryAfter: 5 });
    expect((await api.get('/v0/projects')).raw).toEqual({ ok: true });
    expect(seen.get('/v0/projects')).toBe(2);
    expect(warnings[0]).toMatch(/^GET \/v0\/projects: HTTP 503, Retry-After \d(\.\d+)? s; retrying in /);
    const [first, second] = server.times as [number, number];
    // the date has whole seconds: at least one second away, at most two
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('stops at once, with the wait in its advice, when the server asks for more than --max-retry-after', async () => {
    const server = throttled(429, '60');
    const { url, seen } = await serve(server.answer);
    const { api, warnings } = client(url, { maxRetryAfter: 5 });
    const started = performance.now();
    const error = await api.get('/v0/projects').then(
      () => undefined,
      (e: unknown) => e as Error & { status?: number },
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error?.status).toBe(429);
    expect(error?.message).toBe(
      'GET /v0/projects failed (429): too many requests: try again later\n  hint: the server asks to wait 60 s (Retry-After): try again then, or let this client wait that long with --max-retry-after 60',
    );
    expect(seen.get('/v0/projects')).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('stays within --attempts however often the server asks to wait', async () => {
    const server = throttled(429, '0', 10);
    const { url, seen } = await serve(server.answer);
    const { api, warnings } = client(url, { attempts: 3, maxRetryAfter: 5 });
    await expect(api.post('/v0/projects', { body: {} })).rejects.toMatchObject({ status: 429 });
    expect(seen.get('/v0/projects')).toBe(3);
    expect(warnings).toEqual([
      'POST /v0/projects: HTTP 429, Retry-After 0 s; retrying in 0 s (attempt 2 of 3)',
      'POST /v0/projects: HTTP 429, Retry-After 0 s; retrying in 0 s (attempt 3 of 3)',
    ]);
  });
});

describe('retryAfterMs', () => {
  const answer = (status: number, header?: string) => ({
    status,
    headers: header === undefined ? {} : { 'retry-after': header },
    body: Buffer.alloc(0),
  });

  it('reads seconds and HTTP dates of 429 and 503 answers, and nothing else', () => {
    const now = Date.parse('2026-11-29T04:00:00Z');
    expect(retryAfterMs(answer(429, '7'), now)).toBe(7000);
    expect(retryAfterMs(answer(503, 'Sun, 29 Nov 2026 04:00:30 GMT'), now)).toBe(30_000);
    expect(retryAfterMs(answer(503, 'Sun, 29 Nov 2026 03:59:00 GMT'), now)).toBe(0);
    expect(retryAfterMs(answer(429), now)).toBeUndefined();
    expect(retryAfterMs(answer(429, 'soon'), now)).toBeUndefined();
    expect(retryAfterMs(answer(429, '-5'), now)).toBeUndefined();
    expect(retryAfterMs(answer(500, '7'), now)).toBeUndefined();
  });
});
