import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV, redactUrl } from '../../core/index.js';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';

// Attacks on PUT /v0/server/config, as a stolen administrator session or an operator's mistake would make them.
// Each refused case checks that nothing was saved (file and BENCHTRACK_CONFIG), nothing applied (the running
// configuration) and the listener did not move.

let t: TestApp;
let admin: Session;
let configDir: string;
let configPath: string;
const savedEnv = process.env[CONFIG_ENV];

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'benchtrack-config-'));
  configPath = join(configDir, 'benchtrack.json');
  t = await createTestApp({ server: { bind_address: `127.0.0.1:${await freePort()}` } }, { configPath });
  admin = await signUp(t, 'Admin User', 'admin@example.com');
});
afterAll(async () => {
  await t.close();
  if (savedEnv === undefined) delete process.env[CONFIG_ENV];
  else process.env[CONFIG_ENV] = savedEnv;
});

const port = () => (t.app.server.address() as AddressInfo).port;
const current = async () =>
  (await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })).json();
const put = (payload: object, query = '') =>
  t.app.inject({
    method: 'PUT',
    url: `/v0/server/config${query}`,
    headers: bearer(admin.token),
    payload,
  });

/** Everything a refused update must leave as it was. */
async function state() {
  return {
    file: existsSync(configPath) ? readFileSync(configPath, 'utf8') : undefined,
    env: process.env[CONFIG_ENV],
    running: await current(),
    port: port(),
  };
}

/** Sends `payload`, expects `status` with a message containing each of `says`, and that nothing changed. */
async function refused(payload: object, status: number, says: readonly string[], query = '') {
  const before = await state();
  const response = await put(payload, query);
  expect(response.statusCode, response.body).toBe(status);
  for (const text of says) expect(response.json().message).toContain(text);
  expect(await state()).toEqual(before);
  expect((await fetch(`http://127.0.0.1:${before.port}/v0/server/version`)).status).toBe(200);
}

/** The running document with `change` applied to a copy. */
async function edited(change: (doc: Record<string, Record<string, unknown>>) => void) {
  const doc = await current();
  change(doc);
  return doc;
}

describe('PUT /v0/server/config refuses, and changes nothing', () => {
  it('an empty document, which would drop the secret key and the database path', async () => {
    await refused({}, 400, [
      'security.secret_key',
      'every session and API token',
      'database.file',
      'confirm=security.secret_key',
    ]);
  });

  it('a document without the secret key, unless confirmed', async () => {
    const doc = await edited((d) => delete d.security?.secret_key);
    await refused(doc, 400, ['security.secret_key']);
    await refused(doc, 400, ['security.secret_key'], '?confirm=database');
  });

  it('a document without the database path, unless confirmed', async () => {
    const doc = await edited((d) => delete d.database);
    // the database the server runs on: its file, or its server's URL without the password
    const { file, url } = t.config.database;
    await refused(doc, 400, ['database.file', url === undefined ? file! : redactUrl(url)]);
  });

  it('a document holding only the secret key and the database, which would reset the listener and the log', async () => {
    const { security, database } = await current();
    await refused({ security, database }, 400, [
      'server.bind_address',
      `from "127.0.0.1:${port()}" to the default "0.0.0.0:61016"`,
      'logging.log',
      'confirm=server.bind_address',
    ]);
  });

  it('a section that leaves out one of its keys', async () => {
    const doc = await edited((d) => delete d.server?.bind_address);
    await refused(doc, 400, ['server.bind_address'], '?confirm=logging,server.tls');
  });

  it('an unknown confirmation', async () => {
    await refused(await current(), 400, ['confirm', 'security.secret_key, database'], '?confirm=everything');
  });

  it('a bind address already in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as AddressInfo).port;
    try {
      const doc = await edited((d) => (d.server = { ...d.server, bind_address: `127.0.0.1:${busy}` }));
      await refused(doc, 400, ['server.bind_address', `127.0.0.1:${busy}`, 'in use']);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a bind address that is not one of this machine', async () => {
    const doc = await edited((d) => (d.server = { ...d.server, bind_address: '192.0.2.1:61016' }));
    await refused(doc, 400, ['server.bind_address', '192.0.2.1:61016']);
  });

  it('TLS files that cannot be read', async () => {
    const doc = await edited(
      (d) =>
        (d.server = {
          ...d.server,
          bind_address: `127.0.0.1:${port()}`,
          tls: {
            type: 'as_file',
            cert_file: join(configDir, 'none.pem'),
            key_file: join(configDir, 'no.key'),
          },
        }),
    );
    await refused(doc, 400, ['server.tls.cert_file']);
  });

  it('TLS bytes that are not a certificate and key', async () => {
    const doc = await edited(
      (d) => (d.server = { ...d.server, tls: { type: 'as_bytes', certs: [1, 2, 3], key: [4, 5, 6] } }),
    );
    await refused(doc, 400, ['server.tls: cannot be used']);
  });

  it('a log file that exists with if_exists fail, which would stop the next start', async () => {
    const path = join(configDir, 'existing.log');
    writeFileSync(path, 'earlier lines\n');
    const doc = await edited(
      (d) => (d.logging = { ...d.logging, log: { mode: 'file', level: 'info', path, if_exists: 'fail' } }),
    );
    await refused(doc, 400, ['logging.log.if_exists', path]);
  });

  it('log files the next start could not open: a directory, a kernel file, a place no file can be created', async () => {
    const log = (path: string) =>
      edited(
        (d) =>
          (d.logging = { ...d.logging, log: { mode: 'file', level: 'info', path, if_exists: 'append' } }),
      );
    await refused(await log(configDir), 400, ['logging.log.path', configDir, 'is a directory']);
    await refused(await log('/proc/1/mem'), 400, ['logging.log.path', "kernel's interface"]);
    await refused(await log('/sys/benchtrack/api.log'), 400, ['logging.log.path', 'cannot be created']);
  });

  it('database files the next start could not open: a directory, below a file, a place no file can be created', async () => {
    const file = (path: string) => edited((d) => (d.database = { file: path }));
    await refused(await file(configDir), 400, ['database.file', configDir, 'is a directory']);
    const blocker = join(configDir, 'a-file');
    writeFileSync(blocker, '');
    await refused(await file(join(blocker, 'benchtrack.db')), 400, [
      'database.file',
      `${blocker} is not a directory`,
    ]);
    await refused(await file('/sys/benchtrack/benchtrack.db'), 400, ['database.file', 'cannot be created']);
  });

  it('a plugin path that climbs out of the configuration directory', async () => {
    const doc = await edited((d) => (d.plugins = ['../../../../etc/passwd'] as never));
    await refused(doc, 400, ['plugins[0]', 'outside', configDir]);
  });

  it('a plugin given as an absolute path elsewhere on disk', async () => {
    await refused(await edited((d) => (d.plugins = ['/etc/passwd'] as never)), 400, ['plugins[0]']);
    const url = await edited((d) => (d.plugins = [{ module: 'file:///etc/passwd' }] as never));
    await refused(url, 400, ['plugins[0]']);
  });

  it('a plugin module that cannot be loaded', async () => {
    await refused(await edited((d) => (d.plugins = ['benchtrack-no-such-plugin'] as never)), 400, [
      'plugins[0]',
      'cannot load',
    ]);
    writeFileSync(join(configDir, 'not-a-plugin.js'), 'export const nothing = 1;\n');
    await refused(await edited((d) => (d.plugins = ['./not-a-plugin.js'] as never)), 400, [
      'plugins[0]',
      'exports no plugin',
    ]);
  });

  it('a plugin that takes the id of a built-in', async () => {
    writeFileSync(
      join(configDir, 'impostor.js'),
      "export default { kind: 'adapter', id: 'json', apiVersion: 1, description: 'x', reads: 'x', parse: () => null };\n",
    );
    await refused(await edited((d) => (d.plugins = ['./impostor.js'] as never)), 400, [
      'plugins[0]',
      'already taken',
    ]);
  });
});

describe('PUT /v0/server/config applies what is safe', () => {
  it('a plugin inside the configuration directory is loaded, checked and saved', async () => {
    copyFileSync(
      join(import.meta.dirname, '..', 'fixtures', 'plugins', 'custom-adapter.js'),
      join(configDir, 'csv.js'),
    );
    const response = await put(await edited((d) => (d.plugins = ['./csv.js'] as never)));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-benchtrack-pending-restart']).toBe('plugins');
    expect(JSON.parse(readFileSync(configPath, 'utf8')).plugins).toEqual(['./csv.js']);
  });

  it('dropping the secret key or the database path when confirmed', async () => {
    const doc = await edited((d) => {
      delete d.security?.secret_key;
      delete d.database;
    });
    const response = await put(doc, '?confirm=security.secret_key,database');
    expect(response.statusCode, response.body).toBe(200);
    const saved = JSON.parse(readFileSync(configPath, 'utf8'));
    expect(saved.security.secret_key).toBeUndefined();
    expect(saved.database).toBeUndefined();
    // The running server keeps its key until the next start: the session still works.
    expect((await current()).security.secret_key).toBe('************');
  });

  it('leaving out a section that has settings when confirmed, naming the section', async () => {
    const doc = await edited((d) => delete d.logging);
    const response = await put(doc, '?confirm=logging');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-benchtrack-pending-restart']).toBe('logging');
    expect(JSON.parse(readFileSync(configPath, 'utf8')).logging).toBeUndefined();
  });

  it('a new bind address: saved only once the new listener is up', async () => {
    const before = port();
    const next = await freePort();
    const response = await put(
      await edited((d) => (d.server = { ...d.server, bind_address: `127.0.0.1:${next}` })),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(port()).toBe(next);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).server.bind_address).toBe(`127.0.0.1:${next}`);
    expect(before).not.toBe(next);
  });
});

describe('concurrent PUT /v0/server/config', () => {
  it('apply one after the other: the running configuration names the port that listens', async () => {
    const doc = await current();
    const next = await freePort();
    // The first update lists a plugin that, once it starts loading, waits up to 1 s for the saved configuration to
    // name the second update's port; the second update moves the listener. Applied side by side, the first update
    // was checked against the configuration from before the move and saved the old port after the listener had
    // moved. One after the other, the move waits for the first update (whose plugin gives up waiting after 1 s)
    // and is checked against what it saved.
    const loading = join(configDir, 'slow-loading');
    writeFileSync(
      join(configDir, 'slow.js'),
      `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(loading)}, '');
const saved = ${JSON.stringify(configPath)};
const deadline = Date.now() + 1000;
while (Date.now() < deadline && !(existsSync(saved) && readFileSync(saved, 'utf8').includes('127.0.0.1:${next}')))
  await new Promise((resolve) => setTimeout(resolve, 10));
export default { kind: 'adapter', id: 'slow', apiVersion: 1, description: 'x', reads: 'x', parse: () => null };
`,
    );
    const renaming = put({ ...doc, console: { url: 'https://console.example.org' }, plugins: ['./slow.js'] });
    await eventually(() => expect(existsSync(loading)).toBe(true));
    const moved = await put({ ...doc, server: { ...doc.server, bind_address: `127.0.0.1:${next}` } });
    const renamed = await renaming;
    expect(moved.statusCode, moved.body).toBe(200);
    expect(renamed.statusCode, renamed.body).toBe(200);
    const running = await current();
    expect(running.server.bind_address).toBe(`127.0.0.1:${next}`);
    expect(port()).toBe(next);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).server.bind_address).toBe(
      running.server.bind_address,
    );
  });
});

describe('PUT /v0/server/config when the document cannot be saved', () => {
  it('answers 503, closes the new listener and keeps the old one and the running configuration', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'a-file');
    writeFileSync(blocker, '');
    const u = await createTestApp(
      { server: { bind_address: `127.0.0.1:${await freePort()}` } },
      { configPath: join(blocker, 'benchtrack.json') },
    );
    try {
      const owner = await signUp(u, 'Admin User', 'admin@example.com');
      const get = async () =>
        (
          await u.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(owner.token) })
        ).json();
      const before = await get();
      const oldPort = (u.app.server.address() as AddressInfo).port;
      const next = await freePort();
      const envBefore = process.env[CONFIG_ENV];
      const response = await u.app.inject({
        method: 'PUT',
        url: '/v0/server/config',
        headers: bearer(owner.token),
        payload: { ...before, server: { ...before.server, bind_address: `127.0.0.1:${next}` } },
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json().message).toContain(join(blocker, 'benchtrack.json'));
      expect(await get()).toEqual(before);
      expect(process.env[CONFIG_ENV]).toBe(envBefore);
      expect((u.app.server.address() as AddressInfo).port).toBe(oldPort);
      expect((await fetch(`http://127.0.0.1:${oldPort}/v0/server/version`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${next}/v0/server/version`)).rejects.toThrow();
    } finally {
      await u.close();
    }
  });
});
