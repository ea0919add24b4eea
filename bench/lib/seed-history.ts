import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { postRun } from './post-run.js';

/** A first run through the API: it creates the project, its branch, testbed and measures as ingest does. */
export async function seedRun(url: string, project: string, startMs: number): Promise<void> {
  const time = new Date(startMs).toISOString();
  await postRun(url, {
    project,
    branch: 'main',
    testbed: 'ci',
    start_time: time,
    end_time: time,
    results: [JSON.stringify({ 'b-0': { latency: { value: 1 }, throughput: { value: 1 } } })],
    settings: { adapter: 'json' },
  });
}

export interface HistoryShape {
  readonly benchmarks: number;
  readonly reports: number;
  readonly startMs: number;
  readonly stepMs: number;
  /** Row order of the fact table: by time (as ingest writes it) or by series (as compaction leaves it). */
  readonly order: 'time' | 'series';
}

/**
 * With the server stopped, replaces the seed run's data by a synthetic history with bare SQL: `benchmarks` x the
 * project's measures, one report a step, one metric per series and report. Seeded in minutes, not hours.
 */
export async function fillHistory(file: string, shape: HistoryShape): Promise<void> {
  const { benchmarks, reports, startMs, stepMs } = shape;
  const head = '(SELECT head_id FROM branch LIMIT 1)';
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run('BEGIN');
  await c.run('DELETE FROM metric; DELETE FROM report; DELETE FROM head_version; DELETE FROM version');
  await c.run(`INSERT INTO benchmark (uuid, project_id, name, slug, archived, created, modified)
    SELECT uuid(), 1, 'b-' || i, 'b-' || i, false, now()::TIMESTAMP, now()::TIMESTAMP FROM range(1, ${benchmarks}) t(i)`);
  await c.run('DELETE FROM series');
  await c.run(`INSERT INTO series (id, project_id, testbed_id, benchmark_id, measure_id)
    SELECT row_number() OVER (), 1, 1, b.id, m.id FROM benchmark b, measure m`);
  await c.run(`INSERT INTO version (id, uuid, project_id, number, hash, created)
    SELECT r, uuid(), 1, r, NULL, now()::TIMESTAMP FROM range(${reports}) t(r)`);
  await c.run(`INSERT INTO head_version SELECT ${head}, r FROM range(${reports}) t(r)`);
  await c.run(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id, adapter,
      idempotency_key, start_time, end_time, created)
    SELECT r, uuid(), 1, NULL, 1, ${head}, r, 1, 'json', NULL,
      make_timestamp((${startMs} + r * ${stepMs})::BIGINT * 1000), make_timestamp((${startMs} + r * ${stepMs} + 60000)::BIGINT * 1000),
      now()::TIMESTAMP
    FROM range(${reports}) t(r)`);
  // Generated straight from range() in the order wanted, with no join and no sort: 100,000,000 rows in minutes.
  // Series ids are 1..series (as inserted above); report r is version r; metric ids grow with time.
  const series = benchmarks * (await measureCount(c));
  const [r, s] =
    shape.order === 'time'
      ? [`i // ${series}`, `i % ${series} + 1`]
      : [`i % ${reports}`, `i // ${reports} + 1`];
  await c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT r * ${series} + s, uuidv7(), 1, r, 0, s, ${head}, r,
      make_timestamp((${startMs} + r * ${stepMs})::BIGINT * 1000),
      make_timestamp((${startMs} + r * ${stepMs} + 60000)::BIGINT * 1000), 100 + s % 97 + random()
    FROM (SELECT ${r} AS r, ${s} AS s FROM range(${reports * series}) t(i))`);
  // DuckDB has no setval: draw each id sequence past the ids inserted above, so reports posted later fit in
  for (const table of ['version', 'report', 'series'])
    await c.run(`SELECT max(nextval('${table}_id_seq')) FROM range((SELECT max(id) FROM ${table}))`);
  await c.run('COMMIT');
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
}

async function measureCount(c: DuckDBConnection): Promise<number> {
  return Number((await c.runAndReadAll('SELECT count(*) FROM measure')).getRows()[0]?.[0]);
}
