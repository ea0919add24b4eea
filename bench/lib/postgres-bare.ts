import postgres, { type Sql } from 'postgres';
import { SESSION } from '../../plugins/storage/postgres/database.js';
import { HISTORY_SQL } from '../../plugins/storage/postgres/metrics.js';
import { postgresDialect } from '../../plugins/storage/postgres/sql.js';
import { perfSql } from '../../plugins/storage/shared/perf.js';

const PERF_SQL = perfSql(postgresDialect).perf;
import type { Growth, HistoryShape } from './seed-history.js';

/**
 * The PostgreSQL references and seeds: SQL through the `postgres` driver on a connection of its own, no
 * Benchtrack code (the statements are the plugin's text, so the reference runs the same query).
 */
export function bareConnection(url: string): Sql {
  // the plugin's session settings, so that a reference runs the plan the plugin's statement gets
  return postgres(url, {
    max: 1,
    onnotice: () => undefined,
    types: { bigint: postgres.BigInt },
    connection: { ...SESSION },
  });
}

/** A statement with `$name` placeholders as PostgreSQL's `$1, $2, ...` and its values in that order. */
function positional(sql: string, params: Record<string, unknown>): [string, never[]] {
  const names: string[] = [];
  const text = sql.replace(/\$([a-z_][a-z0-9_]*)/gi, (_match, name: string) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return [text, names.map((name) => params[name]) as never[]];
}

/** The plugin's perf statement for the given series on one head; answers the number of points. */
export async function barePerf(
  sql: Sql,
  series: Int32Array,
  head: number,
  start = -62_135_596_800_000,
  end = 253_402_300_799_000,
): Promise<number> {
  const [text, values] = positional(PERF_SQL, {
    pos: Array.from(series, (_, i) => i),
    series: Array.from(series),
    heads: Array.from(series, () => head),
    start,
    end,
    limit: Number.MAX_SAFE_INTEGER,
  });
  return (await sql.unsafe(text, values, { prepare: true }).values()).length;
}

/**
 * The storage floor of one report on PostgreSQL (the DuckDB floor commits and takes its history from memory; this one
 * reads the history and rolls back, as the DuckDB floor did until 2026-11-27): in a READ COMMITTED transaction (as the plugin
 * writes a report), one INSERT of `series.length` metric rows from arrays, the plugin's history statement for those series,
 * then ROLLBACK. Answers the milliseconds of each of `rounds` rounds after 10 untimed ones.
 */
export async function bareIngestFloor(url: string, rounds: number): Promise<number[]> {
  const sql = bareConnection(url);
  try {
    const [row] = await sql.unsafe<{ head: number; series: number[]; max: bigint }[]>(
      `SELECT (SELECT head_id FROM report ORDER BY id DESC LIMIT 1) AS head,
        (SELECT array_agg(DISTINCT series_id) FROM metric) AS series, (SELECT max(id) FROM metric) AS max`,
    );
    if (!row) throw new Error('no metrics seeded');
    let id = row.max + 1n;
    const times: number[] = [];
    for (let k = 0; k < rounds + 10; k++) {
      const started = performance.now();
      const ids = row.series.map(() => String(id++));
      const uuids = row.series.map(() => crypto.randomUUID());
      const values = row.series.map(() => 1000000 + Math.random());
      await sql
        .begin('isolation level read committed', async (tx) => {
          await tx.unsafe(
            `INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
              start_time, end_time, value)
            SELECT m.id, m.uuid, 1, 1, 0, m.series, $5, 1, now(), now(), m.value
            FROM unnest($1::bigint[], $2::uuid[], $3::int[], $4::float8[]) AS m(id, uuid, series, value)`,
            [ids, uuids, row.series, values, row.head] as never[],
            { prepare: true },
          );
          const [text, params] = positional(HISTORY_SQL, {
            series: row.series,
            n: row.series.map(() => 64),
            since: row.series.map(() => -Infinity),
            head: row.head,
          });
          await tx.unsafe(text, params, { prepare: true }).values();
          throw ROLLBACK;
        })
        .catch((error: unknown) => {
          if (error !== ROLLBACK) throw error;
        });
      if (k >= 10) times.push(performance.now() - started);
    }
    return times;
  } finally {
    await sql.end();
  }
}

const ROLLBACK = Symbol('rollback');

/**
 * Moves the metric indexes aside while `fill` inserts (rebuilt after from their own definitions, as the
 * migration made them), then gives the planner statistics: a bulk load in minutes instead of index maintenance
 * row by row.
 */
async function bulkLoad(url: string, fill: (sql: Pick<Sql, 'unsafe'>) => Promise<void>): Promise<void> {
  const sql = bareConnection(url);
  try {
    await sql.unsafe(`SET maintenance_work_mem = '512MB'`);
    const indexes = await sql.unsafe<{ name: string; definition: string }[]>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE tablename = 'metric' AND indexname <> 'metric_pkey'`,
    );
    await sql.begin(async (tx) => {
      for (const index of indexes) await tx.unsafe(`DROP INDEX ${index.name}`);
      await fill(tx);
      // a partitioned table's index reads `ON ONLY metric` (the parent alone): built here on every partition
      for (const index of indexes) await tx.unsafe(index.definition.replace(' ON ONLY ', ' ON '));
      for (const table of ['version', 'report', 'series', 'metric', 'benchmark'])
        await tx.unsafe(`SELECT setval('${table}_id_seq', (SELECT max(id) FROM ${table}))`);
    });
    await sql.unsafe('VACUUM ANALYZE');
    // the seed's dirty pages written now, not by a checkpoint in the middle of a measurement
    await sql.unsafe('CHECKPOINT');
  } finally {
    await sql.end();
  }
}

const ts = (ms: string) => `to_timestamp((${ms})::float8 / 1000)`;

/** PostgreSQL's twin of `fillHistory` (seed-history.ts): the same rows, in the same order, from generate_series. */
export async function fillHistoryPostgres(url: string, shape: HistoryShape): Promise<void> {
  const { benchmarks, reports, startMs, stepMs } = shape;
  const head = '(SELECT head_id FROM branch LIMIT 1)';
  await bulkLoad(url, async (tx) => {
    await tx.unsafe('DELETE FROM metric; DELETE FROM report; DELETE FROM head_version; DELETE FROM version');
    await tx.unsafe(`INSERT INTO benchmark (uuid, project_id, name, slug, archived, created, modified)
      SELECT gen_random_uuid(), 1, 'b-' || i, 'b-' || i, false, now(), now() FROM generate_series(1, ${benchmarks - 1}) i`);
    await tx.unsafe('DELETE FROM series');
    await tx.unsafe(`INSERT INTO series (id, project_id, testbed_id, benchmark_id, measure_id)
      SELECT row_number() OVER (), 1, 1, b.id, m.id FROM benchmark b, measure m`);
    await tx.unsafe(`INSERT INTO version (id, uuid, project_id, number, hash, created)
      SELECT r, gen_random_uuid(), 1, r, NULL, now() FROM generate_series(0, ${reports - 1}) r`);
    await tx.unsafe(`INSERT INTO head_version SELECT ${head}, r FROM generate_series(0, ${reports - 1}) r`);
    await tx.unsafe(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id,
        adapter, idempotency_key, start_time, end_time, created)
      SELECT r, gen_random_uuid(), 1, NULL, 1, ${head}, r, 1, 'json', NULL, ${ts(`${startMs} + r::bigint * ${stepMs}`)},
        ${ts(`${startMs} + r::bigint * ${stepMs} + 60000`)}, now()
      FROM generate_series(0, ${reports - 1}) r`);
    const [row] = await tx.unsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM measure');
    const series = benchmarks * Number(row?.n);
    const [r, s] =
      shape.order === 'time'
        ? [`i / ${series}`, `i % ${series} + 1`]
        : [`i % ${reports}`, `i / ${reports} + 1`];
    await tx.unsafe(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
        start_time, end_time, value)
      SELECT r::bigint * ${series} + s, gen_random_uuid(), 1, r, 0, s, ${head}, r,
        ${ts(`${startMs} + r::bigint * ${stepMs}`)}, ${ts(`${startMs} + r::bigint * ${stepMs} + 60000`)},
        100 + s % 97 + random()
      FROM (SELECT ${r} AS r, ${s} AS s FROM generate_series(0, ${reports * series - 1}) i) t`);
  });
}

/**
 * PostgreSQL's twin of the ingest bench's seed: the series of the one report posted through the API copied into
 * `reports - 1` earlier reports, a minute apart; metric ids grow with time, as ingest assigns them.
 */
export async function seedIngestPostgres(url: string, reports: number): Promise<void> {
  await bulkLoad(url, async (tx) => {
    await tx.unsafe('CREATE TEMP TABLE s AS SELECT series_id, value FROM metric');
    await tx.unsafe(`INSERT INTO version (id, uuid, project_id, number, hash, created)
      SELECT 1000000 + r, gen_random_uuid(), 1, -r, NULL, now() FROM generate_series(1, ${reports - 1}) r`);
    await tx.unsafe(`INSERT INTO head_version
      SELECT (SELECT head_id FROM report LIMIT 1), 1000000 + r FROM generate_series(1, ${reports - 1}) r`);
    await tx.unsafe(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id,
        adapter, idempotency_key, start_time, end_time, created)
      SELECT 1000000 + r, gen_random_uuid(), 1, NULL, f.branch_id, f.head_id, 1000000 + r, f.testbed_id, 'json',
        NULL, f.start_time - r * interval '1 minute', f.start_time - r * interval '1 minute', now()
      FROM generate_series(1, ${reports - 1}) r, (SELECT * FROM report LIMIT 1) f`);
    await tx.unsafe(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
        start_time, end_time, value)
      SELECT 10000000 + (${reports} - r) * 1000 + s.series_id, gen_random_uuid(), 1, 1000000 + r, 0, s.series_id,
        rep.head_id, rep.version_id, rep.start_time, rep.end_time, s.value * (0.99 + random() * 0.02)
      FROM generate_series(1, ${reports - 1}) r JOIN report rep ON rep.id = 1000000 + r CROSS JOIN s
      ORDER BY rep.start_time`);
    // the first report, posted through the API, is the newest: its metrics get the highest ids
    await tx.unsafe('UPDATE metric SET id = id + 20000000 WHERE id < 10000000');
  });
}

/**
 * PostgreSQL's twin of `growSegmentedHistory` (seed-history.ts): grows a history from `from` to `to` reports (one a
 * step, one metric per series and report) with generate_series, in time order as ingest writes it. Each month's
 * partition is created first with the plugin's own function (so no row lands in the default partition), and the
 * metric indexes are rebuilt after the load (bulkLoad). Ids go on after those already in the database (reports
 * posted through the API between two steps keep theirs).
 */
export async function growHistoryPostgres(
  url: string,
  shape: Omit<Growth, 'segmentRows' | 'tailReports' | 'meta'>,
): Promise<void> {
  const { benchmarks, from, to, startMs, stepMs } = shape;
  const head = '(SELECT head_id FROM branch LIMIT 1)';
  await bulkLoad(url, async (tx) => {
    if (from === 0) {
      await tx.unsafe(
        'DELETE FROM metric; DELETE FROM report; DELETE FROM head_version; DELETE FROM version',
      );
      await tx.unsafe(`INSERT INTO benchmark (uuid, project_id, name, slug, archived, created, modified)
        SELECT gen_random_uuid(), 1, 'b-' || i, 'b-' || i, false, now(), now() FROM generate_series(1, ${benchmarks - 1}) i`);
      await tx.unsafe('DELETE FROM series');
      await tx.unsafe(`INSERT INTO series (id, project_id, testbed_id, benchmark_id, measure_id)
        SELECT row_number() OVER (), 1, 1, b.id, m.id FROM benchmark b, measure m`);
    }
    const next = async (table: string, column = 'id') => {
      const [row] = await tx.unsafe<{ n: string }[]>(
        `SELECT (coalesce(max(${column}), -1) + 1)::text AS n FROM ${table}`,
      );
      return Number(row?.n);
    };
    const [counted] = await tx.unsafe<{ n: string }[]>('SELECT count(*)::text AS n FROM series');
    const series = Number(counted?.n);
    const ids = {
      report: (await next('report')) - from,
      version: (await next('version')) - from,
      number: (await next('version', 'number')) - from,
      metric: await next('metric'),
    };
    const time = (offset = 0) => ts(`${startMs} + r::bigint * ${stepMs} + ${offset}`);
    await tx.unsafe(`SELECT metric_partition(month) FROM generate_series(
        date_trunc('month', ${ts(`${startMs} + ${from}::bigint * ${stepMs}`)}, 'UTC'),
        ${ts(`${startMs} + ${to}::bigint * ${stepMs}`)}, interval '1 month') month`);
    await tx.unsafe(`INSERT INTO version (id, uuid, project_id, number, hash, created)
      SELECT r + ${ids.version}, gen_random_uuid(), 1, r + ${ids.number}, NULL, now()
      FROM generate_series(${from}, ${to - 1}) r`);
    await tx.unsafe(
      `INSERT INTO head_version SELECT ${head}, r + ${ids.version} FROM generate_series(${from}, ${to - 1}) r`,
    );
    await tx.unsafe(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id,
        adapter, idempotency_key, start_time, end_time, created)
      SELECT r + ${ids.report}, gen_random_uuid(), 1, NULL, 1, ${head}, r + ${ids.version}, 1, 'json', NULL,
        ${time()}, ${time(60_000)}, now()
      FROM generate_series(${from}, ${to - 1}) r`);
    // a statement per 1,000 reports (10,000,000 rows), for progress
    for (let first = from; first < to; first += 1000) {
      const last = Math.min(first + 1000, to) - 1;
      await tx.unsafe(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
          start_time, end_time, value)
        SELECT ${ids.metric} + (r - ${from})::bigint * ${series} + s - 1, gen_random_uuid(), 1, r + ${ids.report}, 0,
          s, ${head}, r + ${ids.version}, ${time()}, ${time(60_000)}, 100 + s % 97 + random()
        FROM generate_series(${first}, ${last}) r, generate_series(1, ${series}) s`);
      shape.progress?.((last + 1 - from) * series);
    }
  });
}
