import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../core/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { freePort } from '../helpers/free-port.js';
import { PG_PASSWORD, PG_USER, startPostgres, type LocalPostgres } from '../helpers/postgres.js';
import { runServerProcess } from '../helpers/process.js';

// PostgreSQL that cannot be reached: at start (the process exits 1 naming database.url, never the password), and
// while the server runs (503 with Retry-After, health says so, the pool reconnects by itself). The file starts a
// cluster of its own, so it runs once, in the integration-postgres project.

let cluster: LocalPostgres;
beforeAll(async () => {
  if (onPostgres) cluster = await startPostgres();
}, 120_000);
afterAll(() => cluster?.stop(), 120_000);

const document = (url: string) => ({
  security: { secret_key: 'test-secret-key-0123456789abcdef' },
  server: { bind_address: '127.0.0.1:0' },
  database: { url },
});

describe.runIf(onPostgres)('benchtrack-api with PostgreSQL unreachable at start', () => {
  it.each([
    ['nothing listens on the port', async () => `127.0.0.1:${await freePort()}/benchtrack`],
    ['the database does not exist', async () => `127.0.0.1:${cluster.port}/missing`],
  ])('exits 1 naming database.url, without the password, when %s', async (_case, where) => {
    const url = `postgres://${PG_USER}:${PG_PASSWORD}@${await where()}`;
    const result = await runServerProcess({ BENCHTRACK_CONFIG: JSON.stringify(document(url)) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'benchtrack-api: cannot connect to the PostgreSQL database of database.url',
    );
    expect(result.stderr).toContain(`postgres://${PG_USER}@${url.split('@')[1]}`);
    expect(result.stderr).toContain('check database.url');
    expect(result.stdout + result.stderr).not.toContain(PG_PASSWORD);
    expect(result.stderr).not.toContain('Server listening');
  });
});

describe.runIf(onPostgres)('benchtrack-api with a read replica unreachable at start', () => {
  it('exits 1 naming database.replicas[1], without either password', async () => {
    // the first replica is the primary itself (any server that answers); the second does not listen
    const primary = await cluster.createDatabase('replicated');
    const secret = 'replica-password-0016';
    const bad = `postgres://${PG_USER}:${secret}@127.0.0.1:${await freePort()}/benchtrack`;
    const result = await runServerProcess({
      BENCHTRACK_CONFIG: JSON.stringify({
        ...document(primary),
        database: { url: primary, replicas: [primary, bad] },
      }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'benchtrack-api: cannot connect to the PostgreSQL database of database.replicas[1]',
    );
    expect(result.stderr).toContain(`postgres://${PG_USER}@${bad.split('@')[1]}`);
    expect(result.stderr).toContain('check database.replicas[1]');
    expect(result.stderr).not.toContain('database.url');
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stdout + result.stderr).not.toContain(PG_PASSWORD);
    expect(result.stderr).not.toContain('Server listening');
  });
});

describe.runIf(onPostgres)('benchtrack-api with plus.disaster_recovery on PostgreSQL', () => {
  it('exits 1 pointing to the database server own replication, without a replica secret', async () => {
    const secret = 'replica-password-0005';
    const url = await cluster.createDatabase('no-replication');
    const result = await runServerProcess({
      BENCHTRACK_CONFIG: JSON.stringify({
        ...document(url),
        plus: {
          disaster_recovery: { replicas: [{ scheme: 'sftp', host: 'h', user: 'u', password: secret }] },
        },
      }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plus.disaster_recovery: replicates the embedded database only');
    expect(result.stderr).toContain('Scaling out');
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stderr).not.toContain('Server listening');
  });
});

describe.runIf(onPostgres)('a running server when PostgreSQL goes away', () => {
  let t: TestApp;
  beforeAll(async () => {
    // a connection that does not open fails its call after 5 s instead of the default 10: a stall is a 503, not a
    // hang, and a connection slow to open on a loaded machine still opens
    t = await createTestApp(document(await cluster.createDatabase('faults')), {
      storage: { connect_timeout_seconds: 5 },
    });
  }, 120_000);
  afterAll(() => t?.close(), 120_000);
  const projects = () => t.app.inject({ method: 'GET', url: '/v0/projects' });
  const health = () => t.app.inject({ method: 'GET', url: '/v0/server/health' });

  it('answers every read after its backends are terminated, on new connections', async () => {
    // Rounds with several pooled connections open, then every backend terminated. A read on a connection the
    // server dropped runs again on another (a pool may hold several dead idle connections, and a backend may still
    // answer BEGIN while it goes away), so every read is answered. The connections the driver opens again send
    // their startup at once: postgres.js 3.4.9 could keep the write it had buffered for the dead socket, and with
    // it the new connection's startup, unsent, until the connect timeout failed the call (patched; docs/storage.md).
    const served = async () => {
      const response = await projects();
      expect(response.statusCode, response.body).toBe(200);
    };
    for (let round = 0; round < 10; round++) {
      await Promise.all([served(), served(), served(), served()]);
      await cluster.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'faults' AND pid <> pg_backend_pid()`,
      );
      await served();
    }
    expect((await health()).json().database.status).toBe('ok');
  });

  it('answers 503 with Retry-After when the server is down, and health names the database', async () => {
    await cluster.kill();
    const response = await projects();
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json().message).toContain('the database server cannot be reached');
    const checked = await health();
    expect(checked.statusCode).toBe(503);
    expect(checked.json().message).toBe('database: unavailable');
    expect(checked.json().database.status).toBe('unavailable');
    expect(t.logText()).toContain('database server unreachable');
    expect(t.logText()).not.toContain(PG_PASSWORD);
    expect(t.logText()).not.toContain(REDACTED + REDACTED);
  });
});
