import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError, NotFoundError, packageInfo } from '../../core/index.js';
import { createShellTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let releaseSlow!: () => void;
const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
let slowStarted!: () => void;
const slowRunning = new Promise<void>((resolve) => (slowStarted = resolve));

beforeAll(async () => {
  t = await createShellTestApp(
    { server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 1024 } },
    (app) => {
      app.post(
        '/v0/test/echo',
        { schema: { body: z.object({ name: z.string().min(1), count: z.number().int() }) } },
        async (request) => request.body,
      );
      app.get('/v0/test/missing', async () => {
        throw new NotFoundError('project "secret-project" not found');
      });
      app.get('/v0/test/input', async () => {
        throw new InputError('user ada.lovelace@example.com already exists');
      });
      app.get('/v0/test/crash', async () => {
        throw new Error('database exploded');
      });
      app.get('/v0/test/slow', async () => {
        slowStarted();
        await slowGate;
        return { done: true };
      });
    },
  );
});
afterAll(() => t.close());

function expectCors(headers: Record<string, unknown>) {
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(String(headers['access-control-expose-headers']).split(', ')).toContain('X-Total-Count');
}

describe('server endpoints', () => {
  it('GET /v0/server/version', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/server/version' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: packageInfo().version });
    expect(response.headers['x-total-count']).toBe('1');
    expectCors(response.headers);
  });

  it('GET /v0/server/config/console', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/server/config/console' });
    expect(response.json()).toEqual({ url: 'http://localhost:3000' });
  });

  it('GET /v0/server/spec/bmf is the BMF JSON Schema the package ships', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/server/spec/bmf' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/schema\+json/);
    const shipped = JSON.parse(readFileSync(new URL('../../core/bmf.schema.json', import.meta.url), 'utf8'));
    expect(response.json()).toEqual(shipped);
    expect(shipped.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('GET /v0/server/spec lists every route with its schemas, including routes added later', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/server/spec' });
    expect(response.statusCode).toBe(200);
    const spec = response.json() as {
      openapi: string;
      info: { version: string };
      paths: Record<string, any>;
    };
    expect(spec.openapi).toBe('3.0.3');
    expect(spec.info.version).toBe(packageInfo().version);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/v0/server/version',
        '/v0/server/spec',
        '/v0/server/config/console',
        '/v0/test/echo',
      ]),
    );
    expect(spec.paths['/v0/test/echo'].post.requestBody.content['application/json'].schema.required).toEqual([
      'name',
      'count',
    ]);
    expect(
      spec.paths['/v0/server/version'].get.responses['200'].content['application/json'].schema.properties,
    ).toHaveProperty('version');
  });

  it('GET /v0/server/spec describes each path parameter once: one description and one schema wherever it appears', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/v0/server/spec' })).json() as {
      paths: Record<string, Record<string, { parameters?: Record<string, any>[] }>>;
    };
    const seen = new Map<string, Set<string>>();
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const { in: where, name, description, schema } of operation.parameters ?? []) {
          if (where !== 'path') continue;
          expect(description, `${method.toUpperCase()} ${path} {${name}} has no description`).toBeTruthy();
          const shapes = seen.get(name) ?? new Set<string>();
          shapes.add(JSON.stringify({ description, schema }));
          seen.set(name, shapes);
        }
      }
    }
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining(['organization', 'project', 'user', 'branch', 'alert']),
    );
    for (const [name, shapes] of seen) expect([...shapes], `{${name}}`).toHaveLength(1);
    expect(JSON.parse([...(seen.get('project') ?? [])][0] ?? '{}').description).toBe('Project UUID or slug');
  });

  it.each([
    '/v0/server/ping',
    '/v0/server/endpoint',
    '/v0/server/config/endpoint',
    '/v0/projects/p/alerts/stats',
    '/v0/projects/p/thresholds/stats',
  ])('removed path %s answers 404 with the error body', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    const body = response.json();
    expect(body).toEqual({
      request_id: expect.any(String),
      error_code: 'not_found',
      message: expect.stringContaining(url),
    });
    expect(response.headers['x-total-count']).toBe('0');
    expectCors(response.headers);
  });
});

describe('CORS', () => {
  it('answers a preflight for any path', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/v0/projects/x/reports',
      headers: { origin: 'http://console.example', 'access-control-request-method': 'POST' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
    expectCors(response.headers);
  });
});

describe('errors', () => {
  it('rejects a body over server.request_body_max_bytes with 400 and the error body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2000), count: 1 }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      request_id: expect.any(String),
      error_code: 'payload_too_large',
      message:
        'request body is larger than server.request_body_max_bytes (1024 bytes); send less per request',
    });
    expect(response.headers['x-total-count']).toBe('0');
    expectCors(response.headers);
  });

  it('accepts a body under the limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/test/echo',
      payload: { name: 'n', count: 2 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'n', count: 2 });
  });

  it('names the field and the rule of an invalid body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/test/echo',
      payload: { name: '', count: 1.5 },
    });
    expect(response.statusCode).toBe(400);
    const { message, error_code } = response.json();
    expect(error_code).toBe('invalid_input');
    expect(message).toContain('body.name: Too small');
    expect(message).toContain('body.count: Invalid input: expected int');
  });

  it('maps business errors by name and masks e-mail addresses', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/v0/test/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe('not_found');
    const input = await t.app.inject({ method: 'GET', url: '/v0/test/input' });
    expect(input.statusCode).toBe(400);
    expect(input.json().message).toBe('user a***********@e******.com already exists');
  });

  it('hides server faults behind the request id, and logs them with it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/test/crash' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.message).toBe(`internal error; report it with request id ${body.request_id}`);
    expect(body.message).not.toContain('exploded');
    const logged = t
      .logText()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'request failed');
    expect(logged).toMatchObject({
      level: 50,
      request_id: body.request_id,
      err: { message: 'database exploded' },
    });
  });
});

describe('graceful close', () => {
  it('finishes in-flight requests and refuses new connections', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const inFlight = new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/v0/test/slow' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.end();
    });
    await slowRunning;
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v0/server/version' }, (res) =>
        resolve(`status ${res.statusCode}`),
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    expect(refused).toBe('ECONNREFUSED');
    releaseSlow();
    expect(await inFlight).toEqual({ status: 200, body: '{"done":true}' });
    await closing;
  });
});
