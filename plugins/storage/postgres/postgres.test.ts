import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createLogger, type Storage } from '../../../core/index.js';
import { describeStorageContract } from '../../../kit/testing.js';
import {
  at,
  insertOrganization,
  insertReport,
  insertTestbed,
  insertWorld,
  uuid,
} from '../../../kit/testing/storage/fixtures.js';
import { postgresCluster as cluster } from '../../../test/helpers/engine.js';
import { Database } from './database.js';
import { postgresStorage } from './index.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { perf, perfSql } from '../shared/perf.js';
import { history, HISTORY_SQL } from './metrics.js';
import { postgresDb, postgresDialect } from './sql.js';

// In the integration-postgres project, on the run's cluster: a new empty database where a test is about
// migrations; otherwise a database that holds the project's migrated template and nothing else, a new copy or one
// an earlier test gave back, emptied (test/helpers/engine.ts). CREATE DATABASE and four migrations were most of
// the contract's second a test.
const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'critical' } });

describeStorageContract('postgres', () => {
  let database: ReturnType<typeof cluster.createDatabase> | undefined;
  const opened = async (created: NonNullable<typeof database>) => {
    database = created;
    return postgresStorage.open({ url: (await created).url }, { logger });
  };
  return {
    open: () => opened(cluster.createDatabase('contract')),
    openMigrated: () => opened(cluster.migratedDatabase('contract')),
    reopen: async () => postgresStorage.open({ url: (await database!).url }, { logger }),
    cleanup: async () => (await database)?.drop(),
  };
});

/**
 * `n` storages on one new database, as `n` API processes would have (each its own pool): an empty database they
 * migrate, or (`migrated`) a copy of the migrated template.
 */
async function processes(
  n: number,
  { migrated = false } = {},
): Promise<{ name: string; storages: Storage[] }> {
  const { name, url, drop } = await (migrated ? cluster.migratedDatabase : cluster.createDatabase)(
    'processes',
  );
  const storages = await Promise.all(
    Array.from({ length: n }, () => postgresStorage.open({ url }, { logger })),
  );
  databases.set(storages, drop);
  return { name, storages };
}

const databases = new WeakMap<readonly Storage[], () => Promise<void>>();
/** Closes the storages of {@link processes}, then removes their database. */
async function closeAll(storages: readonly Storage[]): Promise<void> {
  await Promise.all(storages.map((s) => s.close()));
  await databases.get(storages)?.();
}

describe('postgres: several processes on one database', () => {
  it('migrates once when processes start at once', async () => {
    const { storages } = await processes(4);
    try {
      expect(storages.filter((s) => s.appliedMigrations.length > 0)).toHaveLength(1);
      for (const storage of storages) expect(await storage.schemaVersion()).toBe(migrations.at(-1)?.version);
    } finally {
      await closeAll(storages);
    }
  });

  it('numbers versions of one head uniquely, creates a dimension and series once, stores an idempotent report once', async () => {
    const { storages } = await processes(2, { migrated: true });
    const [a, b] = storages as [Storage, Storage];
    try {
      const world = await a.transaction((tx) => insertWorld(tx));
      const key = uuid();
      // what ingest does per report: the next version of the head, the testbed by name (created when missing), the
      // series, and the report unless its idempotency key is known
      const ingest = (storage: Storage, i: number) =>
        storage.transaction(async (tx) => {
          const number = ((await tx.heads.latestVersion(world.head.id))?.number ?? 0) + 1;
          const version = await tx.versions.insert({
            uuid: uuid(),
            project_id: world.project.id,
            number,
            hash: `hash-${i}`,
            created: at(i),
          });
          await tx.headVersions.link(world.head.id, [version.id]);
          const [found] = await tx.named.findMany('testbed', world.project.id, ['ci-runner']);
          const testbed = found ?? (await insertTestbed(tx, world.project.id, 'ci-runner'));
          const [series] = await tx.named.ensureSeries(world.project.id, testbed.id, [
            [world.benchmarks[0]!.id, world.measure.id],
          ]);
          const idempotencyKey = i % 2 === 0 ? key : null;
          if (
            idempotencyKey &&
            (await tx.reports.find({ project_id: world.project.id, idempotency_key: key }))
          )
            return;
          await insertReport(tx, world, {
            version,
            testbed,
            minute: i,
            idempotencyKey,
            points: [{ series: series!, value: i }],
          });
        });
      await Promise.all(Array.from({ length: 24 }, (_, i) => ingest(i % 2 === 0 ? a : b, i)));
      const stored = await b.read(async (r) => ({
        versions: (await r.versions.all({ project_id: world.project.id })).map((v) => v.number),
        testbeds: await r.testbeds.count({ project_id: world.project.id, name: 'ci-runner' }),
        series: await r.series.count({ project_id: world.project.id }),
        keyed: await r.reports.count({ project_id: world.project.id, idempotency_key: key }),
        reports: await r.reports.count({ project_id: world.project.id }),
      }));
      expect(stored.versions.sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, k) => k + 1));
      expect(stored.testbeds).toBe(1);
      expect(stored.series).toBe(3); // the world's two, and one on ci-runner
      expect(stored.keyed).toBe(1);
      expect(stored.reports).toBe(13); // 12 without a key, one with it
      // 24 writers of one head at once conflict: each process counts the transactions it ran again (health)
      const retried = (storage: Storage) => storage.health().retried ?? Number.NaN;
      expect(retried(a) + retried(b)).toBeGreaterThan(0);
    } finally {
      await closeAll(storages);
    }
  });
});

describe('postgres: a row that exists already', () => {
  // A unique violation is run again in case it was a race. The same key refused time after time is a row that was
  // there all along: it ran again 39 times, with random pauses, about 2 s for every refusal.
  it('fails after a few refusals of the same key, not after every attempt', async () => {
    const { storages } = await processes(1, { migrated: true });
    const [storage] = storages as [Storage];
    try {
      const organization = await storage.transaction((tx) => insertOrganization(tx));
      const duplicate = storage.transaction((tx) => insertOrganization(tx, organization.slug));
      await expect(duplicate).rejects.toMatchObject({ code: '23505' });
      expect(storage.health().retried).toBe(7);
    } finally {
      await closeAll(storages);
    }
  });
});

describe('postgres: usage of one organization from several processes', () => {
  // Every report counts its metrics for its organization in its own transaction. As one row per organization and
  // day, updated by every report, concurrent reports conflicted over it (SERIALIZABLE) and ran again, 3 to 4
  // times each on average with 3 API processes. Counted as a row per report, they never conflict.
  it('counts concurrent reports of one organization without running any again', async () => {
    const { storages } = await processes(3, { migrated: true });
    try {
      const organization = await storages[0]!.transaction((tx) => insertOrganization(tx));
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          storages[i % 3]!.transaction((tx) => tx.usage.recordMetrics(organization.id, '2026-03-01', 200)),
        ),
      );
      expect(
        await storages[1]!.read((r) => r.usage.metrics(organization.id, '2026-03-01', '2026-03-01')),
      ).toBe(60 * 200);
      expect(storages.map((storage) => storage.health().retried ?? 0)).toEqual([0, 0, 0]);
    } finally {
      await closeAll(storages);
    }
  });
});

describe('postgres: migration 4', () => {
  it('keeps the counts of migration 3 as usage entries, and ids go on after them', async () => {
    const { url, drop } = await cluster.createDatabase('migration4');
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await migrate(sql, migrations.slice(0, 3), 'm');
      await sql.unsafe(`INSERT INTO organization_usage VALUES
        (2, DATE '2026-03-01', 4), (1, DATE '2026-03-02', 2), (1, DATE '2026-03-01', 3)`);
      await migrate(sql, migrations, 'm');
      await sql.unsafe(
        `INSERT INTO usage_entry (organization_id, day, metrics) VALUES (1, DATE '2026-03-02', 5)`,
      );
      const rows = await sql.unsafe(
        `SELECT id::int, organization_id, to_char(day, 'YYYY-MM-DD') AS day, metrics::int FROM usage_entry ORDER BY id`,
      );
      expect(rows.map((r) => [r.id, r.organization_id, r.day, r.metrics])).toEqual([
        [1, 1, '2026-03-01', 3],
        [2, 2, '2026-03-01', 4],
        [3, 1, '2026-03-02', 2],
        [4, 1, '2026-03-02', 5],
      ]);
      expect(await sql.unsafe(`SELECT to_regclass('organization_usage') AS gone`)).toEqual([{ gone: null }]);
    } finally {
      await sql.end();
      await drop();
    }
  });
});

describe('postgres: migrate', () => {
  it('rolls a failing migration back whole, keeps the earlier ones and records their names as they are', async () => {
    const { url, drop } = await cluster.createDatabase('migrate');
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    const first = { version: 1, name: "the team's first", statements: ['CREATE TABLE a (x INTEGER)'] };
    const broken = {
      version: 2,
      name: 'broken',
      statements: ['CREATE TABLE c (z INTEGER)', 'INSERT INTO c VALUES (1)', 'SELECT * FROM no_such_table'],
    };
    try {
      const error = await migrate(sql, [first, broken], 'm').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/^migration 2 \(broken\) failed on m: .*left at version 1$/s);
      expect(await sql.unsafe('SELECT version, name FROM schema_migration')).toEqual([
        { version: 1, name: "the team's first" },
      ]);
      expect(await sql.unsafe(`SELECT to_regclass('a')::text AS a, to_regclass('c')::text AS c`)).toEqual([
        { a: 'a', c: null },
      ]);
      expect(
        await migrate(sql, [first, { ...broken, statements: ['CREATE TABLE c (z INTEGER)'] }], 'm'),
      ).toEqual([{ version: 2, name: 'broken' }]);
    } finally {
      await sql.end();
      await drop();
    }
  });
});

describe('postgres: connection lost', () => {
  it('fails the transaction with 503 and Retry-After, rolls it back, and reconnects by itself', async () => {
    const { name, storages } = await processes(1, { migrated: true });
    const [storage] = storages as [Storage];
    try {
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const running = storage.transaction(async (tx) => {
        await tx.meta.set('lost', 'written before the connection was lost');
        wrote();
        await paused;
        await tx.meta.set('after', 'never');
      });
      const failure = running.catch((error: unknown) => error);
      await written;
      await cluster.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
      );
      resume();
      const error = (await failure) as Error & { details?: Record<string, unknown> };
      expect(error.name).toBe('UnavailableError');
      expect(error.details).toEqual({ retry_after_seconds: 5 });
      expect(error.message).toContain('the database server cannot be reached');
      expect(storage.health().status).toBe('unavailable');
      expect(await storage.read((r) => r.meta.get('lost'))).toBeUndefined();
      expect(storage.health()).toEqual({ status: 'ok', reopened: 1, retried: 0 });
      await storage.transaction((tx) => tx.meta.set('lost', 'again'));
      expect(await storage.read((r) => r.meta.get('lost'))).toBe('again');
      // nothing waits on the lost connection: postgres.js 3.4.9 left its last statement (the ROLLBACK the driver
      // sends for the failed transaction) pending on it, and close waited out its 5 s limit for it (patched)
      const closing = performance.now();
      await storage.close();
      expect(performance.now() - closing).toBeLessThan(2_500);
    } finally {
      await closeAll(storages);
    }
  });
});

/** The month partition of metric that holds `time` (migration 8). */
const partitionOf = (time: Date) =>
  `metric_${time.getUTCFullYear()}_${String(time.getUTCMonth() + 1).padStart(2, '0')}`;
/** A range of one series read newest first from the series index of some month's partition of metric. */
const SERIES_SCAN_BACKWARD =
  /Index Scan Backward using metric_\w+_series_id_start_time_report_id_iteration_idx on metric_\w+/;

describe('postgres: metric partitions (migration 8)', () => {
  const partitions = (sql: postgres.Sql) =>
    sql.unsafe<{ name: string; rows: number }[]>(
      `SELECT c.relname AS name, (SELECT count(*)::int FROM metric m WHERE m.tableoid = c.oid) AS rows
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'metric'::regclass ORDER BY c.relname`,
    );
  const metricAt = (time: string, id: number) =>
    `INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id, start_time,
       end_time, value) VALUES (${id}, gen_random_uuid(), 1, 1, 0, 1, 1, 1, '${time}', '${time}', ${id})`;

  it('moves the rows of a database at version 6 into a partition per month, and creates the months ahead', async () => {
    const { url, drop } = await cluster.createDatabase('migration8');
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await migrate(sql, migrations.slice(0, 6), 'm');
      for (const [id, time] of [
        '2024-02-29T23:59:59Z',
        '2024-03-01T00:00:00Z',
        '2024-03-15T12:00:00Z',
      ].entries())
        await sql.unsafe(metricAt(time, id + 1));
      await migrate(sql, migrations, 'm');
      const now = new Date();
      const ahead = [0, 1, 2, 3].map((m) =>
        partitionOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, 1))),
      );
      expect(await partitions(sql)).toEqual(
        [
          { name: 'metric_2024_02', rows: 1 },
          { name: 'metric_2024_03', rows: 2 },
          ...ahead.map((name) => ({ name, rows: 0 })),
          { name: 'metric_default', rows: 0 },
        ].sort((a, b) => a.name.localeCompare(b.name)),
      );
      expect(
        (await sql.unsafe(`SELECT id::int, value FROM metric ORDER BY id`)).map((r) => [r.id, r.value]),
      ).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
      ]);
      expect(await sql.unsafe(`SELECT to_regclass('metric_unpartitioned') AS gone`)).toEqual([
        { gone: null },
      ]);
    } finally {
      await sql.end();
      await drop();
    }
  });

  it('keeps a metric of a month with no partition in the default one, until that month gets its partition', async () => {
    const { url, drop } = await cluster.createDatabase('partitions');
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      const storage = await postgresStorage.open({ url }, { logger });
      await storage.close();
      await sql.unsafe(metricAt('2019-06-01T00:00:00Z', 1));
      await sql.unsafe(metricAt('2019-06-30T23:00:00Z', 2));
      expect((await partitions(sql)).find((p) => p.name === 'metric_default')).toEqual({
        name: 'metric_default',
        rows: 2,
      });
      // the daily pass (and every open) gives backfilled months their partition and moves their rows there
      const reopened = await postgresStorage.open({ url }, { logger });
      await reopened.close();
      const after = await partitions(sql);
      expect(after.find((p) => p.name === 'metric_default')).toEqual({ name: 'metric_default', rows: 0 });
      expect(after.find((p) => p.name === 'metric_2019_06')).toEqual({ name: 'metric_2019_06', rows: 2 });
      expect(
        (await sql.unsafe(`SELECT id::int FROM metric WHERE start_time < '2020-01-01' ORDER BY id`)).map(
          (r) => r.id,
        ),
      ).toEqual([1, 2]);
    } finally {
      await sql.end();
      await drop();
    }
  });
});

describe('postgres: query plans', () => {
  /** The statement with its parameters written in as literals, for EXPLAIN through psql. */
  const literal = (sql: string, params: Record<string, string>) =>
    sql.replace(/\$([a-z_]+)/g, (_match, name: string) => params[name] ?? `$${name}`);
  /** A world and one report of no metrics, its version on the world's head. */
  const reportOnHead = async (storage: Storage) => {
    const world = await storage.transaction((tx) => insertWorld(tx));
    const { report } = await storage.transaction(async (tx) => {
      const version = await tx.versions.insert({
        uuid: uuid(),
        project_id: world.project.id,
        number: 1,
        hash: null,
        created: at(0),
      });
      await tx.headVersions.link(world.head.id, [version.id]);
      return insertReport(tx, world, { version, minute: 0, points: [] });
    });
    return { world, report };
  };

  it('reads history, perf and perf lines as index range scans of metric per series, never a scan of the table', async () => {
    const { name, storages } = await processes(1, { migrated: true });
    const [storage] = storages as [Storage];
    try {
      const { world, report } = await reportOnHead(storage);
      const head = world.head;
      // 200,000 metrics over 400 series, 2,000 more versions on the head, then fresh statistics
      await cluster.sql(
        `WITH v AS (INSERT INTO version (uuid, project_id, number, hash, created)
           SELECT gen_random_uuid(), ${report.project_id}, 1 + i, NULL, now() FROM generate_series(1, 2000) i
           RETURNING id)
         INSERT INTO head_version SELECT ${head.id}, v.id FROM v`,
        name,
      );
      await cluster.sql(
        `INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id, start_time,
           end_time, value)
         SELECT nextval('metric_id_seq'), gen_random_uuid(), ${report.project_id}, ${report.id}, 0, 1000 + i % 400,
           ${head.id}, ${report.version_id}, now() - i * interval '1 minute', now() - i * interval '1 minute', i
         FROM generate_series(1, 200000) AS i;
         ANALYZE`,
        name,
      );
      const plan = (sql: string) => cluster.sql(`EXPLAIN ${sql}`, name);
      const history = await plan(
        literal(HISTORY_SQL, {
          series: `'{1007,1042}'`,
          n: `'{30,30}'`,
          since: `'{-Infinity,-Infinity}'`,
          head: String(head.id),
        }),
      );
      expect(history).toMatch(SERIES_SCAN_BACKWARD);
      expect(history).not.toContain('Seq Scan on metric');

      // a head younger than the statistics (a new branch: ANALYZE has not seen its versions), 40 versions on
      // it: still a backward range per series that stops after n rows, not a join from its versions (the
      // statistics say one) that scans the series' metrics once per version, n^2 in all
      await cluster.sql(
        `WITH h AS (INSERT INTO head (uuid, branch_id, created) VALUES (gen_random_uuid(), ${world.branch.id}, now())
             RETURNING id),
           v AS (INSERT INTO version (uuid, project_id, number, hash, created)
             SELECT gen_random_uuid(), ${report.project_id}, 100 + i, NULL, now() FROM generate_series(1, 40) i
             RETURNING id, number),
           hv AS (INSERT INTO head_version SELECT h.id, v.id FROM h, v RETURNING head_id, version_id)
         INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id, start_time,
           end_time, value)
         SELECT nextval('metric_id_seq'), gen_random_uuid(), ${report.project_id}, ${report.id}, 0, s, hv.head_id,
           hv.version_id, now() - v.number * interval '1 second', now(), 1
         FROM hv JOIN v ON v.id = hv.version_id, (VALUES (1007), (1042)) AS series(s)`,
        name,
      );
      const young = (await cluster.sql('SELECT max(id) FROM head', name)).trim();
      const fresh = await plan(
        literal(HISTORY_SQL, {
          series: `'{1007,1042}'`,
          n: `'{64,64}'`,
          since: `'{-Infinity,-Infinity}'`,
          head: young,
        }),
      );
      expect(fresh).toMatch(SERIES_SCAN_BACKWARD);
      expect(fresh).not.toContain('Bitmap Heap Scan on metric');
      // each metric row's version is looked up (by index or in a hash), never joined to the head's versions
      expect(fresh).not.toContain('Join Filter: (m.version_id = head_version.version_id)');
      for (const sql of Object.values(perfSql(postgresDialect))) {
        const perf = await plan(
          literal(sql, {
            pos: `'{0,1}'`,
            series: `'{1007,1042}'`,
            heads: `'{${head.id},${head.id}}'`,
            start: String(Date.now() - 86_400_000),
            end: String(Date.now()),
            limit: '1000000',
            cap: '50000',
          }),
        );
        expect(perf).toMatch(
          /Index Scan using metric_\w+_series_id_start_time_report_id_iteration_idx on metric_\w+|Bitmap Index Scan on metric_\w+_series_id_start_time_report_id_iteration_idx/,
        );
        expect(perf).not.toContain('Seq Scan on metric');
        // the window of the last day reads its month's partition (two at a month's turn), no other
        expect(perf).not.toContain('metric_default');
        const months = new Set([0, 86_400_000].map((ago) => partitionOf(new Date(Date.now() - ago))));
        const read = new Set([...perf.matchAll(/ on (metric_\d{4}_\d{2})/g)].map((m) => m[1]));
        expect([...read].every((name) => months.has(name as string))).toBe(true);
      }
    } finally {
      await closeAll(storages);
    }
  });

  it('reads the versions of a small head once into a hash or by index, not by a scan of head_version per metric row', async () => {
    const { name, storages } = await processes(1, { migrated: true });
    const [storage] = storages as [Storage];
    try {
      const { world, report } = await reportOnHead(storage);
      // a project's first weeks: 120 versions on the head (head_version fits in one page), 20 series of 240 metrics
      await cluster.sql(
        `WITH v AS (INSERT INTO version (uuid, project_id, number, hash, created)
             SELECT gen_random_uuid(), ${report.project_id}, 1 + i, NULL, now() FROM generate_series(1, 120) i
             RETURNING id, number),
           hv AS (INSERT INTO head_version SELECT ${world.head.id}, v.id FROM v)
         INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id, start_time,
           end_time, value)
         SELECT nextval('metric_id_seq'), gen_random_uuid(), ${report.project_id}, ${report.id}, i, s,
           ${world.head.id}, v.id, now() - v.number * interval '1 minute', now(), i
         FROM v, generate_series(1, 20) AS s, generate_series(0, 1) AS i`,
        name,
      );
      // a database given back by an earlier test keeps the pages of the rows it deleted, and VACUUM keeps them while
      // an older snapshot may still see them (in CI, VACUUM FULL left 10 pages): TRUNCATE writes a new file
      await cluster.sql(
        'CREATE TEMP TABLE kept AS SELECT * FROM head_version; TRUNCATE head_version; INSERT INTO head_version SELECT * FROM kept',
        name,
      );
      await cluster.sql('ANALYZE', name);
      expect((await cluster.sql(`SELECT pg_relation_size('head_version')`, name)).trim()).toBe('8192');
      const all = (value: string) => `'{${new Array(20).fill(value).join(',')}}'`;
      const plan = await cluster.sql(
        `EXPLAIN (ANALYZE, COSTS OFF) ${literal(HISTORY_SQL, {
          series: `'{${Array.from({ length: 20 }, (_, i) => i + 1).join(',')}}'`,
          n: all('64'),
          since: all('-Infinity'),
          head: String(world.head.id),
        })}`,
        name,
      );
      expect(plan).toMatch(SERIES_SCAN_BACKWARD);
      expect(plan).toMatch(/rows=1280 loops=1/);
      // each node that reads head_version more than once is a probe of one of its indexes
      const reads = [...plan.matchAll(/(\w[\w ]*?) on head_version hv .*loops=(\d+)/g)];
      expect(reads.length, plan).toBeGreaterThan(0);
      for (const [, node, loops] of reads)
        if (Number(loops) > 1) expect(node, plan).toMatch(/^Index (Only )?Scan using head_version_\w+$/);
    } finally {
      await closeAll(storages);
    }
  });
});

describe("postgres: the pool's sessions", () => {
  // A generic plan takes every array parameter for 10 elements and prunes no partition when planning: it put the
  // perf statement's count of its points inside a loop over those points, quadratic in the points read. PostgreSQL
  // tries one from the sixth run of a prepared statement on a connection, so the pool has a single connection here.
  it('plans every run of the history and perf statements for its parameters, never with a generic plan', async () => {
    const { url, drop } = await cluster.migratedDatabase('plans');
    const database = await Database.open(
      { url, max_connections: 1, connect_timeout_seconds: 10, replicas: [] },
      logger,
    );
    try {
      const series = Int32Array.from({ length: 50 }, (_, i) => i + 1);
      for (let run = 0; run < 8; run++) {
        await history(database.sql, {
          headId: 1,
          series,
          maxSamples: new Int32Array(series.length).fill(64),
          since: new Float64Array(series.length).fill(-Infinity),
        });
        await perf(postgresDb(database.sql), {
          series,
          heads: new Int32Array(series.length).fill(1),
          start: Date.now() - 86_400_000,
          end: Date.now(),
        });
      }
      const statements = await database.sql.unsafe<{ text: string; generic: string; custom: string }[]>(
        `SELECT statement AS text, generic_plans::text AS generic, custom_plans::text AS custom
         FROM pg_prepared_statements WHERE statement ~ ' metric m\\s'`,
      );
      expect(statements).toHaveLength(2);
      for (const { text, generic, custom } of statements)
        expect({ text: text.slice(0, 60), generic, custom }).toEqual({
          text: text.slice(0, 60),
          generic: '0',
          custom: '8',
        });
    } finally {
      await database.close();
      await drop();
    }
  });

  // Over a year of monthly partitions the history statement's estimated cost passes the JIT thresholds, far above
  // what it reads: each run compiled for longer than it read.
  it('compiles no statement with JIT, however high its estimated cost', async () => {
    const { url, drop } = await cluster.migratedDatabase('jit');
    const database = await Database.open(
      { url, max_connections: 1, connect_timeout_seconds: 10, replicas: [] },
      logger,
    );
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      const plan = async (sql: postgres.Sql) =>
        (
          await sql.unsafe<{ 'QUERY PLAN': string }[]>(
            'EXPLAIN SELECT sum(i) FROM generate_series(1, 100000000) i',
          )
        )
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      // the server's defaults compile it: the statement is costly enough to tell
      expect(await plan(bare)).toContain('JIT:');
      expect(await plan(database.sql)).not.toContain('JIT:');
    } finally {
      await bare.end();
      await database.close();
      await drop();
    }
  });
});
