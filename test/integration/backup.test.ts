import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { API_PROGRAM, REPO_ROOT } from '../helpers/process.js';
import { projectAnswers, seedHistory, submitRun } from '../helpers/runs.js';
import { S3_ACCESS_KEY_ID, S3_SECRET, startLocalS3, type LocalS3 } from '../helpers/s3.js';

const ACCESS_POINT = 'arn:aws:s3:us-east-1:123456789012:accesspoint/backups/nightly';
const NAME = /^backup-benchtrack-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.db(\.gz)?$/;

let s3: LocalS3;
let t: TestApp;
let admin: Session;
let other: Session;
let api: string;

const dataStore = (endpoint: string, secret = S3_SECRET) => ({
  service: 'cloud_s3' as const,
  access_key_id: S3_ACCESS_KEY_ID,
  secret_access_key: secret,
  access_point: ACCESS_POINT,
  endpoint,
});

beforeAll(async () => {
  s3 = await startLocalS3(['backups']);
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-backup-'));
  t = await createTestApp({
    database: { file: join(dir, 'benchtrack.db'), data_store: dataStore(s3.endpoint) },
  });
  admin = await signUp(t, 'Admin User', 'admin@example.com');
  other = await signUp(t, 'Other User', 'other@example.com');
  api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await createProject(t, admin, 'admin-user', { name: 'Backed Up' });
  await seedHistory(api, admin.token, 'backed-up', { benchmarks: ['parse', 'sort'], jump: 'sort' });
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(dirname(t.config.database.file!), { recursive: true, force: true });
});

const backup = (payload: unknown, session = admin) =>
  t.app.inject({
    method: 'POST',
    url: '/v0/server/backup',
    headers: bearer(session.token),
    payload: payload as object,
  });
const backupFiles = () =>
  readdirSync(dirname(t.config.database.file!)).filter((f) => f.startsWith('backup-'));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** `benchtrack-api restore ...` as a process, configured to rebuild `target`. */
async function restore(target: string, args: readonly string[]) {
  const config = {
    security: { secret_key: 'test-secret-key-0123456789abcdef' },
    database: { file: target, data_store: dataStore(s3.endpoint) },
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [API_PROGRAM, 'restore', ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, BENCHTRACK_CONFIG: JSON.stringify(config) } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// A test app that names no database file runs on PostgreSQL in the integration-postgres project.
describe.runIf(onPostgres)('POST /v0/server/backup on PostgreSQL', () => {
  it('answers 400 pointing to the database server own tools', async () => {
    const pg = await createTestApp({});
    try {
      const root = await signUp(pg, 'Admin User', 'admin@example.com');
      const response = await pg.app.inject({
        method: 'POST',
        url: '/v0/server/backup',
        headers: bearer(root.token),
        payload: { compress: true },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(
        'this storage engine cannot make backups: back the database server up with its own tools (pg_dump, base backups)',
      );
    } finally {
      await pg.close();
    }
  });
});

// Backup and restore of the embedded engine's file (POST /v0/server/backup, benchtrack-api restore); PostgreSQL
// users back up with PostgreSQL's own tools, and its storage has no `backup`.
describe.skipIf(onPostgres)('POST /v0/server/backup', () => {
  it('is for server administrators only', async () => {
    const response = await backup({}, other);
    expect([403, 404]).toContain(response.statusCode);
    expect(backupFiles()).toEqual([]);
  });

  it.each([
    [{ compress: 'yes' }, 'compress: must be true or false'],
    [
      { data_store: 'gcs' },
      'data_store: must be cloud_s3, the service of database.data_store (aws_s3 is accepted as an alias)',
    ],
    [{ remove: true }, 'remove: deletes the local copy after a push, so it needs data_store as well'],
    [{ rm: true, compress: true }, 'remove: deletes the local copy after a push'],
    [{ verbose: true }, 'verbose'],
  ])('refuses %j with 400 naming the field, and makes nothing', async (payload, message) => {
    const response = await backup(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
    expect(backupFiles()).toEqual([]);
  });

  it('takes a consistent snapshot while ingest goes on, with every report whole', async () => {
    let ingesting = true;
    let submitted = 0;
    const ingest = (async () => {
      for (let i = 0; ingesting; i++) {
        await submitRun(api, admin.token, {
          project: 'backed-up',
          branch: 'busy',
          start: new Date(Date.UTC(2026, 1, 1, 0, i)),
          results: { parse: { latency: { value: 100 + i } }, sort: { latency: { value: 200 + i } } },
        });
        submitted++;
      }
    })();
    while (submitted < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    const response = await backup({});
    ingesting = false;
    await ingest;
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json();
    expect(made.name).toMatch(NAME);
    expect(made).toMatchObject({
      compressed: false,
      pushed_to: null,
      file: join(dirname(t.config.database.file!), made.name),
    });
    expect(statSync(made.file).size).toBe(made.size);
    expect(sha256(made.file)).toBe(made.sha256);

    const target = join(t.dir, 'restored-busy', 'benchtrack.db');
    const restored = await restore(target, [made.file]);
    expect(restored.code, restored.stderr).toBe(0);
    const copy = await createTestApp({ database: { file: target } });
    try {
      const reports = (await projectAnswers(copy, admin.token, 'backed-up')).reports as {
        results: unknown[][];
      }[];
      const busy = reports.length - 13;
      expect(busy).toBeGreaterThanOrEqual(3);
      expect(busy).toBeLessThanOrEqual(submitted);
      for (const report of reports) expect(report.results.flat()).toHaveLength(2);
    } finally {
      await copy.close();
    }
  }, 60_000);

  it('compresses, pushes to the data store with a verified checksum, removes the local copy, and restores from S3 with the same answers', async () => {
    const before = await projectAnswers(t, admin.token, 'backed-up');
    const response = await backup({ compress: true, data_store: 'aws_s3', remove: true });
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json();
    expect(made.name).toMatch(NAME);
    expect(made.name.endsWith('.db.gz')).toBe(true);
    expect(made).toMatchObject({
      compressed: true,
      file: null,
      pushed_to: `s3://backups/nightly/${made.name}`,
    });
    expect(existsSync(join(dirname(t.config.database.file!), made.name))).toBe(false);
    const object = join(s3.directory, 'backups', 'nightly', `${made.name}._S3rver_object`);
    const stored = readFileSync(object);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(made.sha256);
    expect(gunzipSync(stored).subarray(0, 16).toString('latin1')).toContain('DUCK');

    const target = join(t.dir, 'restored-s3', 'benchtrack.db');
    const restored = await restore(target, [made.pushed_to, '--sha256', made.sha256]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ target, sha256: made.sha256 });

    const refused = await restore(target, [made.pushed_to]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`database ${target} exists and restoring would replace it`);
    expect(refused.stderr).toContain('--force');
    expect((await restore(target, [made.pushed_to, '--force'])).code).toBe(0);

    const copy = await createTestApp({ database: { file: target } });
    try {
      const after = await projectAnswers(copy, admin.token, 'backed-up');
      expect(after).toEqual(before);
      expect((before.alerts as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await copy.close();
    }
  }, 120_000);

  it('refuses to restore over a database a running server holds, even with --force', async () => {
    const response = await backup({});
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json();
    const result = await restore(t.config.database.file!, [made.file, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('in use by another process');
  });

  it('names a backup asked for in the second of the one before by the next second, instead of refusing it', async () => {
    // both asked for early in one second: the first ends well within it
    await new Promise((resolve) => setTimeout(resolve, 1000 - new Date().getUTCMilliseconds()));
    const first = await backup({});
    const second = await backup({});
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    const [a, b] = [first.json().name as string, second.json().name as string];
    expect(a).toMatch(NAME);
    expect(b).toMatch(NAME);
    expect(b > a, `${b} after ${a}`).toBe(true);
  });

  it('refuses a backup whose checksum differs, changing nothing', async () => {
    const response = await backup({});
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json();
    const target = join(t.dir, 'restored-bad', 'benchtrack.db');
    const result = await restore(target, [made.file, '--sha256', '0'.repeat(64)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`has SHA-256 ${made.sha256}, not ${'0'.repeat(64)}`);
    expect(existsSync(target)).toBe(false);
  });

  // s3rver checks the access key id, not SigV4 signatures: a wrong secret alone would go through
  it('fails a push with wrong credentials with a message that names no secret', async () => {
    const store = new DataStore({
      ...dataStore(s3.endpoint, 'wrong-secret-value-0002'),
      access_key_id: 'NOSUCHKEY',
    });
    try {
      const error = await store.push(join(REPO_ROOT, 'package.json'), 'x.json', '0').catch((e: unknown) => e);
      expect((error as Error).name).toBe('UnavailableError');
      expect((error as Error).message).toContain(
        'cannot upload nightly/x.json at database.data_store (InvalidAccessKeyId',
      );
      expect((error as Error).message).not.toContain('wrong-secret-value-0002');
    } finally {
      store.close();
    }
  });
});
