import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV, createLogger, parseConfigDocument, REDACTED } from '../../core/index.js';
import { bearer, createProject, lastLinkTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { startLocalS3 } from '../helpers/s3.js';
import { PG_PASSWORD, startPostgres, type LocalPostgres } from '../helpers/postgres.js';

// Secrets in logs: redacted where they stand as a whole token or under a secret's key, and nowhere else (a
// short secret must not turn every matching letter of every line into ************). Secrets too short to be
// redacted safely are refused, at start-up and through PUT /v0/server/config (400, nothing saved).

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function logTo(secrets: () => readonly string[]) {
  const path = join(dir, `log-${++n}.log`);
  const logger = createLogger({
    name: 'n',
    log: { mode: 'file', level: 'info', path, if_exists: 'truncate' },
    secrets,
  });
  return { logger, text: () => readFileSync(path, 'utf8') };
}

describe('log redaction', () => {
  it('leaves text alone where a short secret is only part of a word', () => {
    const { logger, text } = logTo(() => ['s', 'ocalhost']);
    const link = 'http://localhost:3000/auth/confirm?token=eyJhbGciOiJIUzI1NiJ9.sss.sig';
    logger.info({ mail: { to: 'sam@example.com', link } }, 'sessions: e-mail written to the log');
    const line = JSON.parse(text()) as { msg: string; mail: { to: string; link: string } };
    expect(line.msg).toBe('sessions: e-mail written to the log');
    expect(line.mail).toEqual({ to: 'sam@example.com', link });
    expect(text()).not.toContain(REDACTED);
  });

  it('redacts a secret that stands as a whole token, raw or JSON-escaped', () => {
    const secret = 'pa55-"quoted"-W0rd';
    const { logger, text } = logTo(() => [secret]);
    logger.info(`connecting to postgres://user:${secret}@db:5432 with ${secret}.`);
    logger.info({ detail: { value: secret, list: [secret] } }, 'fields');
    expect(text()).not.toContain('pa55');
    expect(text().split(REDACTED).length - 1).toBe(4);
    expect(text()).toContain(`postgres://user:${REDACTED}@db:5432 with ${REDACTED}.`);
  });

  it('censors the value of a secret key at any depth, whatever the value', () => {
    const { logger, text } = logTo(() => []);
    logger.info(
      {
        a: { b: { c: { secret_access_key: 'x', password: 'y', client_secret: 'z', keep: 'me' } } },
        list: [{ account_key: 'w' }],
        headers: { Authorization: 'Bearer t' },
      },
      'deep',
    );
    const line = JSON.parse(text());
    expect(line.a.b.c).toEqual({
      secret_access_key: REDACTED,
      password: REDACTED,
      client_secret: REDACTED,
      keep: 'me',
    });
    expect(line.list).toEqual([{ account_key: REDACTED }]);
    expect(line.headers).toEqual({ Authorization: REDACTED });
    logger.child({ token: 'bound-token' }).info('child');
    expect(text()).not.toContain('bound-token');
  });

  it('follows the secrets of the running configuration, not those of the start', () => {
    let secrets: readonly string[] = ['first-secret-value'];
    const { logger, text } = logTo(() => secrets);
    secrets = ['second-secret-value'];
    logger.info('first-secret-value second-secret-value');
    expect(JSON.parse(text()).msg).toBe(`first-secret-value ${REDACTED}`);
  });
});

describe('secrets shorter than 8 characters are refused', () => {
  it.each([
    [
      { smtp: { hostname: 'h', username: 'u', secret: 's', from_name: 'B', from_email: 'b@example.com' } },
      'smtp.secret',
    ],
    [
      {
        database: {
          data_store: { service: 'cloud_s3', access_key_id: 'a', secret_access_key: 's', access_point: 'p' },
        },
      },
      'database.data_store.secret_access_key',
    ],
    [{ plus: { codehost: { client_id: 'c', client_secret: 'short' } } }, 'plus.codehost.client_secret'],
    [
      {
        plus: { disaster_recovery: { replicas: [{ scheme: 'sftp', host: 'h', user: 'u', password: 'pw' }] } },
      },
      'plus.disaster_recovery.replicas[0].password',
    ],
  ])('at start-up: %j names %s', (document, path) => {
    expect(() => parseConfigDocument(document, { kind: 'default', description: 'test' })).toThrow(
      `${path}: must be at least 8 characters long`,
    );
  });
});

describe('a running server', () => {
  let t: TestApp;
  let admin: Session;
  let configPath: string;
  const savedEnv = process.env[CONFIG_ENV];
  beforeAll(async () => {
    configPath = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'benchtrack.json');
    t = await createTestApp(
      {
        database: {
          file: join(dir, 'redaction.db'),
          data_store: {
            service: 'cloud_s3',
            access_key_id: 'AKIAEXAMPLE',
            secret_access_key: 'ocalhost',
            access_point: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/backups',
          },
        },
      },
      { configPath },
    );
    admin = await signUp(t, 'Admin User', 'admin@example.com');
  });
  afterAll(async () => {
    await t.close();
    if (savedEnv === undefined) delete process.env[CONFIG_ENV];
    else process.env[CONFIG_ENV] = savedEnv;
  });

  it('logs e-mail links intact when a secret is part of the host name', () => {
    expect(lastLinkTo(t, 'admin@example.com').origin).toBe('http://localhost:3000');
    expect(t.logText()).not.toContain(REDACTED);
  });

  it('refuses a short secret through PUT /v0/server/config with 400, saving nothing', async () => {
    const get = async () =>
      (await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })).json();
    const before = await get();
    const response = await t.app.inject({
      method: 'PUT',
      url: '/v0/server/config',
      headers: bearer(admin.token),
      payload: {
        ...before,
        smtp: { hostname: 'h', username: 'u', secret: 's', from_name: 'B', from_email: 'b@example.com' },
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain('smtp.secret: must be at least 8 characters long');
    expect(await get()).toEqual(before);
    expect(existsSync(configPath)).toBe(false);
    expect(process.env[CONFIG_ENV]).toBe(savedEnv);
  });

  it('redacts a secret set through PUT /v0/server/config from then on', async () => {
    const before = (
      await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })
    ).json();
    const secret = 'new-Smtp-secret-42';
    const response = await t.app.inject({
      method: 'PUT',
      url: '/v0/server/config',
      headers: bearer(admin.token),
      payload: {
        ...before,
        smtp: { hostname: '127.0.0.1', username: 'u', secret, from_name: 'B', from_email: 'b@example.com' },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    t.logger.warn(`relay refused the login for u with ${secret}`);
    expect(t.logText()).not.toContain(secret);
    expect(t.logText()).toContain(`relay refused the login for u with ${REDACTED}`);
  });
});

describe('a running server on PostgreSQL', () => {
  let cluster: LocalPostgres;
  let t: TestApp;
  let admin: Session;
  let configPath: string;
  let url: string;
  const savedEnv = process.env[CONFIG_ENV];
  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase('redaction');
    configPath = join(mkdtempSync(join(tmpdir(), 'benchtrack-config-')), 'benchtrack.json');
    t = await createTestApp({ database: { url } }, { configPath });
    admin = await signUp(t, 'Admin User', 'admin@example.com');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
    if (savedEnv === undefined) delete process.env[CONFIG_ENV];
    else process.env[CONFIG_ENV] = savedEnv;
  }, 120_000);
  const getConfig = async () =>
    (await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })).json();

  it('shows database.url with its password redacted, host, port and database intact', async () => {
    const shown = (await getConfig()).database.url as string;
    expect(shown).toBe(url.replace(`:${PG_PASSWORD}@`, `:${REDACTED}@`));
    expect(shown).not.toContain(PG_PASSWORD);
  });

  it('redacts the password wherever a log line quotes the URL', () => {
    t.logger.error({ detail: `connecting to ${url}` }, `lost ${url}`);
    expect(t.logText()).toContain(`:${REDACTED}@127.0.0.1`);
    expect(t.logText()).not.toContain(PG_PASSWORD);
  });

  it('keeps the password when PUT /v0/server/config sends the redacted URL back', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/v0/server/config',
      headers: bearer(admin.token),
      payload: await getConfig(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).database.url).toBe(url);
    expect((await getConfig()).database.url).not.toContain(PG_PASSWORD);
  });
});

describe('replicas that fail', () => {
  const secrets = {
    s3: 'wrong-s3-secret-key-0006',
    sftp: 'wrong-sftp-password-0007',
    abs: Buffer.from('wrong-azure-account-key-0008').toString('base64'),
  };
  // nothing listens on port 9 (discard) of 127.0.0.1 here: connections are refused at once
  const closed = 'http://127.0.0.1:9';

  it('retry with backoff, never block ingest, show their last error to the admin, and never show a credential', async () => {
    const s3 = await startLocalS3(['replicas']);
    const common = { sync_interval: '100ms' };
    const t = await createTestApp({
      database: { file: join(dir, 'failing-replicas.db') },
      plus: {
        disaster_recovery: {
          replicas: [
            {
              scheme: 's3',
              bucket: 'replicas',
              endpoint: s3.endpoint,
              // s3rver checks the key id, not the signature
              access_key_id: 'UNKNOWNKEYID',
              secret_access_key: secrets.s3,
              ...common,
            },
            { scheme: 'sftp', host: '127.0.0.1', port: 9, user: 'u', password: secrets.sftp, ...common },
            {
              scheme: 'abs',
              account_name: 'acct',
              account_key: secrets.abs,
              bucket: 'replicas',
              endpoint: `${closed}/acct`,
              ...common,
            },
          ],
        },
      },
    });
    try {
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      await createProject(t, admin, 'admin-user', { name: 'Failing' });
      const started = performance.now();
      const run = await t.app.inject({
        method: 'POST',
        url: '/v0/run',
        headers: bearer(admin.token),
        payload: {
          project: 'failing',
          start_time: new Date().toISOString(),
          end_time: new Date().toISOString(),
          results: [JSON.stringify({ parse: { latency: { value: 1 } } })],
          settings: { adapter: 'json' },
        },
      });
      expect(run.statusCode, run.body).toBe(201);
      expect(performance.now() - started).toBeLessThan(5_000);
      const replicas = await eventually(async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: '/v0/server/backup',
          headers: bearer(admin.token),
        });
        const status = response.json().replicas as { consecutive_failures: number }[];
        for (const replica of status) expect(replica.consecutive_failures).toBeGreaterThanOrEqual(3);
        return response;
      }, 15_000);
      const body = replicas.body;
      for (const replica of replicas.json().replicas)
        expect(replica).toMatchObject({ last_sync: null, last_error: expect.any(String) });
      const retries = t
        .logText()
        .split('\n')
        .filter((line) => line.includes('replica sync failed: retrying'))
        .map((line) => JSON.parse(line) as { replica: number; retry_ms: number });
      const s3Retries = retries.filter((line) => line.replica === 0).map((line) => line.retry_ms);
      expect(s3Retries.slice(0, 3)).toEqual([200, 400, 800]);
      const config = (
        await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })
      ).body;
      for (const secret of Object.values(secrets)) {
        expect(body).not.toContain(secret);
        expect(config).not.toContain(secret);
        expect(t.logText()).not.toContain(secret);
      }
      expect(config).toContain(REDACTED);
    } finally {
      await t.close();
      await s3.close();
    }
  }, 60_000);
});
