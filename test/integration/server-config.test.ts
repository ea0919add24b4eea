import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV, REDACTED } from '../../core/index.js';
import { bearer, logIn, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freshPostgresDatabase, onPostgres } from '../helpers/engine.js';
import { freePort } from '../helpers/free-port.js';

let t: TestApp;
let admin: Session;
let user: Session;
let configPath: string;
const savedEnv = process.env[CONFIG_ENV];

beforeAll(async () => {
  configPath = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'benchtrack.json');
  t = await createTestApp({ server: { bind_address: `127.0.0.1:${await freePort()}` } }, { configPath });
  admin = await signUp(t, 'Admin User', 'admin@example.com');
  user = await signUp(t, 'Plain User', 'user@example.com');
});
afterAll(async () => {
  await t.close();
  if (savedEnv === undefined) delete process.env[CONFIG_ENV];
  else process.env[CONFIG_ENV] = savedEnv;
});

const url = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const current = async () =>
  (await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })).json();
const put = (payload: object, session = admin) =>
  t.app.inject({ method: 'PUT', url: '/v0/server/config', headers: bearer(session.token), payload });
/** The status of an authenticated call made with `token` (a session or an API token). */
const statusWith = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/v0/organizations', headers: bearer(token) })).statusCode;

async function apiToken(session: Session): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/users/${session.user.slug}/tokens`,
    headers: bearer(session.token),
    payload: { name: 'ci' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().token;
}

describe('server configuration', () => {
  it('shows the running configuration to administrators with secrets redacted', async () => {
    const config = await current();
    expect(config.security.secret_key).toBe(REDACTED);
    expect(JSON.stringify(config)).not.toContain('test-secret-key-0123456789abcdef');
    expect(
      (await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(user.token) }))
        .statusCode,
    ).toBe(403);
    expect((await put({ console: { url: 'http://x:3000' } }, user)).statusCode).toBe(403);
  });

  it('rejects an invalid document with 400 naming the key, and changes nothing', async () => {
    const before = await current();
    const response = await put({
      ...before,
      server: { ...before.server, bind_address: 'nowhere' },
      extra: true,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('server.bind_address: must be one IP address and port');
    expect(response.json().message).toContain('extra: is not a known key');
    expect(await current()).toEqual(before);
    expect(existsSync(configPath)).toBe(false);
  });

  it('saves and applies a valid document; redacted secrets keep their value', async () => {
    const before = await current();
    const response = await put({ ...before, console: { url: 'https://console.example.org' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().console.url).toBe('https://console.example.org');
    expect(response.json().security.secret_key).toBe(REDACTED);
    const saved = JSON.parse(readFileSync(configPath, 'utf8'));
    expect(saved.console.url).toBe('https://console.example.org');
    expect(saved.security.secret_key).toBe('test-secret-key-0123456789abcdef');
    expect(JSON.parse(process.env[CONFIG_ENV] as string)).toEqual(saved);
    expect((await t.app.inject({ method: 'GET', url: '/v0/server/config/console' })).json()).toEqual({
      url: 'https://console.example.org',
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/v0/organizations', headers: bearer(admin.token) }))
        .statusCode,
    ).toBe(200);
  });

  it('accepts the {"config": ...} wrapper and reports what needs a restart', async () => {
    const before = await current();
    const response = await put({
      config: { ...before, database: { file: join(t.dir, 'elsewhere.db') } },
      delay: 3,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-benchtrack-pending-restart']).toBe('database');
  });

  it('restarts the listener gracefully on a new bind address', async () => {
    const oldUrl = url();
    const port = await freePort();
    const before = await current();
    const response = await fetch(`${oldUrl}/v0/server/config`, {
      method: 'PUT',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...before, server: { ...before.server, bind_address: `127.0.0.1:${port}` } }),
    });
    expect(response.status).toBe(200);
    expect(url()).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url()}/v0/server/version`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${oldUrl}/v0/server/version`)).rejects.toThrow();
  });

  it('invalidates every token when the issuer changes', async () => {
    const staleApiToken = await apiToken(admin);
    expect(await statusWith(staleApiToken)).toBe(200);
    const before = await current();
    expect(
      (await put({ ...before, security: { ...before.security, issuer: 'https://new.example' } })).statusCode,
    ).toBe(200);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/v0/organizations',
      headers: bearer(admin.token),
    });
    expect(stale.statusCode).toBe(401);
    expect(await statusWith(staleApiToken)).toBe(401);
    const fresh: Session = await signUp(t, 'Later User', 'later@example.com');
    expect(
      (await t.app.inject({ method: 'GET', url: '/v0/organizations', headers: bearer(fresh.token) }))
        .statusCode,
    ).toBe(200);
    expect(await statusWith(await apiToken(fresh))).toBe(200);
  });

  it('invalidates every session and API token when the secret key changes', async () => {
    admin = await logIn(t, 'admin@example.com');
    const staleApiToken = await apiToken(admin);
    expect(await statusWith(admin.token)).toBe(200);
    expect(await statusWith(staleApiToken)).toBe(200);
    const before = await current();
    const response = await put({
      ...before,
      security: { ...before.security, secret_key: 'another-secret-key-fedcba9876543210' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().security.secret_key).toBe(REDACTED);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).security.secret_key).toBe(
      'another-secret-key-fedcba9876543210',
    );
    expect(await statusWith(admin.token)).toBe(401);
    expect(await statusWith(staleApiToken)).toBe(401);
    admin = await logIn(t, 'admin@example.com');
    expect(await statusWith(admin.token)).toBe(200);
    expect(await statusWith(await apiToken(admin))).toBe(200);
  });
});

describe('server.request_body_max_bytes through PUT /v0/server/config', () => {
  it('applies on the address the server listens on (200, not EADDRINUSE): the next larger body is refused', async () => {
    const port = await freePort();
    const path = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'benchtrack.json');
    const r = await createTestApp({ server: { bind_address: `127.0.0.1:${port}` } }, { configPath: path });
    try {
      const owner = await signUp(r, 'Owner User', 'owner@example.com');
      const before = (
        await r.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(owner.token) })
      ).json();
      const response = await r.app.inject({
        method: 'PUT',
        url: '/v0/server/config',
        headers: bearer(owner.token),
        payload: { ...before, server: { ...before.server, request_body_max_bytes: 2000 } },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-benchtrack-pending-restart']).toBeUndefined();
      expect((r.app.server.address() as AddressInfo).port).toBe(port);
      expect(JSON.parse(readFileSync(path, 'utf8')).server.request_body_max_bytes).toBe(2000);
      const login = (email: string) =>
        fetch(`http://127.0.0.1:${port}/v0/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
      const larger = await login(`${'a'.repeat(2100)}@example.com`);
      expect(larger.status).toBe(400);
      expect(await larger.json()).toMatchObject({
        error_code: 'payload_too_large',
        message: expect.stringContaining('server.request_body_max_bytes (2000 bytes)'),
      });
      // chunked, with no length declared: refused once it passes the limit
      const chunked = await fetch(`http://127.0.0.1:${port}/v0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([JSON.stringify({ email: `${'b'.repeat(2100)}@example.com` })]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(400);
      expect((await login('owner@example.com')).status).toBeLessThan(300);
    } finally {
      await r.close();
    }
  });
});

// read replicas are copies of a database server: database.replicas needs database.url, so PostgreSQL only
describe.runIf(onPostgres)('server configuration with read replicas (PostgreSQL)', () => {
  it('keeps the password of each database.replicas URL sent back redacted', async () => {
    const database = await freshPostgresDatabase();
    const path = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'benchtrack.json');
    // the primary itself stands in for a replica: what matters here is the URL, not the replication
    const r = await createTestApp(
      { database: { url: database.url, replicas: [database.url, database.url] } },
      { configPath: path },
    );
    try {
      const owner = await signUp(r, 'Owner User', 'owner@example.com');
      const before = (
        await r.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(owner.token) })
      ).json();
      expect(before.database.replicas).toEqual([redactedUrl(database.url), redactedUrl(database.url)]);
      const response = await r.app.inject({
        method: 'PUT',
        url: '/v0/server/config',
        headers: bearer(owner.token),
        payload: { ...before, console: { url: 'https://console.example.org' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      const saved = JSON.parse(readFileSync(path, 'utf8'));
      expect(saved.database.url).toBe(database.url);
      expect(saved.database.replicas).toEqual([database.url, database.url]);
    } finally {
      await r.close();
      await database.drop();
    }
  });
});

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = REDACTED;
  return parsed.href;
}
