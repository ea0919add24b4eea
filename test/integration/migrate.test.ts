import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { errorName, type Config, type Storage } from '../../core/index.js';
import { openDatabase } from '../../server/composition.js';
import { databaseAt, migrateCommand } from '../../server/migrate.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freshPostgresDatabase, onPostgres } from '../helpers/engine.js';
import { seedHistory, submitRun } from '../helpers/runs.js';

const PERF = 'branches=main&testbeds=linux&benchmarks=parse,sort&measures=latency';

let dir: string;
let source: string;
let admin: Session;
let before: Answers;
let config: Config;

type Answers = Awaited<ReturnType<typeof answers>>;

/** What a user sees of the project: reports, alerts, perf. */
async function answers(t: TestApp, token: string) {
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };
  return {
    reports: await get('/v0/projects/moved/reports?per_page=255&expand=true'),
    alerts: await get('/v0/projects/moved/alerts?per_page=255'),
    perf: await get(`/v0/projects/moved/perf?${PERF}`),
  };
}

const open = (database: Config['database']) => openDatabase(database, silent());
function silent() {
  const logger = {
    child: () => logger,
    info() {},
    warn() {},
    error() {},
    debug() {},
    trace() {},
    fatal() {},
  };
  return logger as unknown as Parameters<typeof openDatabase>[1];
}

/** Rows per table, as the engine exports them. */
async function countsOf(storage: Storage): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for await (const batch of storage.transfer!.exportRows()) totals[batch.table] = batch.total;
  return totals;
}

async function counts(location: string): Promise<Record<string, number>> {
  const storage = await open(databaseAt(location));
  try {
    return await countsOf(storage);
  } finally {
    await storage.close();
  }
}

const migrate = (...args: string[]) => migrateCommand(args, config, open);

/** Metrics of a PostgreSQL database that wait in the default partition for their month's (migration 8). */
async function defaultPartitionRows(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql.unsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM metric_default');
    return row?.n ?? Number.NaN;
  } finally {
    await sql.end();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-migrate-'));
  source = join(dir, 'source.db');
  const t = await createTestApp({ database: { file: source } });
  config = t.config;
  admin = await signUp(t, 'Admin User', 'admin@example.com');
  await createProject(t, admin, 'admin-user', { name: 'Moved' });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await seedHistory(api, admin.token, 'moved', { benchmarks: ['parse', 'sort'], jump: 'sort' });
  // a report backfilled years back: on PostgreSQL its month has no partition until the copy makes one
  await submitRun(api, admin.token, {
    project: 'moved',
    branch: 'backfill',
    testbed: 'old-testbed',
    start: new Date('2019-03-01T00:00:00Z'),
    results: { parse: { latency: { value: 3 } } },
  });
  before = await answers(t, admin.token);
  await t.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new empty database of the project's engine: a file, or a PostgreSQL database dropped after the test. */
async function emptyDatabase(name: string): Promise<string> {
  if (!onPostgres) return join(dir, `${name}.db`);
  const { url, drop } = await freshPostgresDatabase();
  onTestFinished(drop);
  // the template is migrated: a fresh database holds the schema and no row
  return url;
}

async function expectSameAnswers(location: string) {
  const t = await createTestApp({
    database: location.includes('://') ? { url: location } : { file: location },
  });
  try {
    expect(await answers(t, admin.token)).toEqual(before);
  } finally {
    await t.close();
  }
}

describe('benchtrack-api migrate', () => {
  // embedded: DuckDB -> DuckDB; integration-postgres: DuckDB -> PostgreSQL -> DuckDB
  // three copies and an app over each: about 15 s alone, twice that on a busy machine
  it(
    'copies every table with ids preserved, and the copy answers as the original',
    { timeout: 120_000 },
    async () => {
      const original = await counts(source);
      expect(original.metric).toBeGreaterThan(0);
      expect(original.alert).toBe(1);
      // the usage entries, one per report
      expect(original.usage_entry).toBe(original.report);
      const hops = [await emptyDatabase('copy'), ...(onPostgres ? [join(dir, 'back.db')] : [])];
      let from = source;
      for (const to of hops) {
        expect(await migrate('--from', from, '--to', to)).toEqual(original);
        // before anything opens the copy again
        if (to.includes('://')) expect(await defaultPartitionRows(to)).toBe(0);
        expect(await counts(to)).toEqual(original);
        await expectSameAnswers(to);
        from = to;
      }

      // id generators continue after the copied ids: new rows of every kind go in, on every engine
      for (const location of hops) {
        const t = await createTestApp({
          database: location.includes('://') ? { url: location } : { file: location },
        });
        try {
          const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
          await submitRun(api, admin.token, {
            project: 'moved',
            branch: 'after-move',
            testbed: 'new-testbed',
            start: new Date(),
            results: { compile: { latency: { value: 5 } } },
          });
          const after = await countsOf(t.storage);
          expect(after.report).toBe((original.report as number) + 1);
          expect(after.usage_entry).toBe((original.usage_entry as number) + 1);
        } finally {
          await t.close();
        }
      }
    },
  );

  it('refuses a target that holds data, and leaves it as it was', async () => {
    const target = await emptyDatabase('twice');
    await migrate('--from', source, '--to', target);
    const first = await counts(target);
    const error = await migrate('--from', source, '--to', target).catch((e: unknown) => e);
    expect(errorName(error)).toBe('ConflictError');
    expect((error as Error).message).toMatch(
      /is not empty \(table \w+ has \d+ rows\): migrate into a new, empty/,
    );
    expect(await counts(target)).toEqual(first);
  });

  it('refuses a source file that does not exist, creating nothing', async () => {
    const missing = join(dir, 'missing.db');
    const error = await migrate('--from', missing, '--to', join(dir, 'never.db')).catch((e: unknown) => e);
    expect(errorName(error)).toBe('InputError');
    expect((error as Error).message).toContain(`the source database file ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
  });

  it('names --to when it is missing', async () => {
    const error = await migrate('--from', source).catch((e: unknown) => e);
    expect(errorName(error)).toBe('InputError');
    expect((error as Error).message).toContain('--to is required');
  });
});
