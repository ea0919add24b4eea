import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { postRun } from './post-run.js';

const HEAD = '(SELECT head_id FROM branch LIMIT 1)';

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
  const { reports, startMs, stepMs } = shape;
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run('BEGIN');
  const series = await fillDimensions(c, shape.benchmarks);
  await fillReports(c, { from: 0, to: reports, startMs, stepMs }, { report: 0, version: 0, number: 0 });
  // Generated straight from range() in the order wanted, with no join and no sort: 100,000,000 rows in minutes.
  // Series ids are 1..series (as inserted above); report r is version r; metric ids grow with time.
  const [r, s] =
    shape.order === 'time'
      ? [`i // ${series}`, `i % ${series} + 1`]
      : [`i % ${reports}`, `i // ${reports} + 1`];
  await c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT r * ${series} + s, uuidv7(), 1, r, 0, s, ${HEAD}, r,
      make_timestamp((${startMs} + r * ${stepMs})::BIGINT * 1000),
      make_timestamp((${startMs} + r * ${stepMs} + 60000)::BIGINT * 1000), 100 + s % 97 + random()
    FROM (SELECT ${r} AS r, ${s} AS s FROM range(${reports * series}) t(i))`);
  await endFill(c);
  c.closeSync();
  instance.closeSync();
}

export interface Growth {
  readonly benchmarks: number;
  readonly startMs: number;
  readonly stepMs: number;
  /** Reports already in the history (0: a new history replaces the seed run's data) and after this step. */
  readonly from: number;
  readonly to: number;
  /** Rows of a sealed segment (a multiple of the series count). */
  readonly segmentRows: number;
  /** The newest reports, written in time order after the segments as ingest leaves them (compaction's tail). */
  readonly tailReports: number;
  /** The `server_meta` keys compaction keeps its segments in. */
  readonly meta: { readonly clusteredThrough: string; readonly sealedThrough: string };
  /** Called after each statement of the metric rows with the rows this step wrote so far. */
  readonly progress?: (rows: number) => void;
}

/**
 * Grows a history from `from` to `to` reports (one a step, one metric per series and report) with bare SQL, in the
 * layout the DuckDB plugin's compaction leaves: the new reports but the newest `tailReports` in segments of
 * `segmentRows` (each sorted by series and time), recorded in `server_meta` as compaction records them (every
 * segment sealed but a last partial one), then the tail in time order. Each segment is generated in its final
 * order from range(), with no sort, a segment per statement. Ids go on after those already in the file (reports
 * posted through the API between two steps keep theirs).
 */
export async function growSegmentedHistory(file: string, shape: Growth): Promise<void> {
  const instance = await DuckDBInstance.create(file, { memory_limit: '2GiB' });
  const c = await instance.connect();
  await c.run('BEGIN');
  const series = shape.from === 0 ? await fillDimensions(c, shape.benchmarks) : await seriesCount(c);
  const next = async (table: string, column = 'id') =>
    Number(
      (await c.runAndReadAll(`SELECT coalesce(max(${column}), -1) + 1 FROM ${table}`)).getRows()[0]?.[0],
    );
  const ids = {
    report: (await next('report')) - shape.from,
    version: (await next('version')) - shape.from,
    number: (await next('version', 'number')) - shape.from,
    metric: await next('metric'),
  };
  await fillReports(c, shape, ids);
  await c.run('COMMIT');
  const clustered = shape.to - shape.tailReports;
  const perSegment = shape.segmentRows / series;
  if (!Number.isInteger(perSegment)) throw new Error('segmentRows must be a multiple of the series count');
  const metrics = (source: string) =>
    `INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT ${ids.metric} + (r - ${shape.from}) * ${series} + s - 1, uuid(), 1, r + ${ids.report}, 0, s, ${HEAD},
      r + ${ids.version}, make_timestamp((${shape.startMs} + r * ${shape.stepMs})::BIGINT * 1000),
      make_timestamp((${shape.startMs} + r * ${shape.stepMs} + 60000)::BIGINT * 1000), 100 + s % 97 + random()
    FROM (${source})`;
  for (let first = shape.from; first < clustered; first += perSegment) {
    const count = Math.min(perSegment, clustered - first);
    await c.run(
      metrics(
        `SELECT ${first} + i % ${count} AS r, i // ${count} + 1 AS s FROM range(${count * series}) t(i)`,
      ),
    );
    shape.progress?.((first + count - shape.from) * series);
  }
  await c.run(
    metrics(`SELECT ${clustered} + i // ${series} AS r, i % ${series} + 1 AS s
      FROM range(${shape.tailReports * series}) t(i)`),
  );
  shape.progress?.((shape.to - shape.from) * series);
  const lastId = (reports: number) => ids.metric + reports * series - 1;
  const sealed = lastId(Math.floor((clustered - shape.from) / perSegment) * perSegment);
  await c.run('BEGIN');
  await c.run(`INSERT INTO server_meta VALUES ('${shape.meta.clusteredThrough}', '${lastId(clustered - shape.from)}'),
    ('${shape.meta.sealedThrough}', '${sealed}') ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  await endFill(c);
  c.closeSync();
  instance.closeSync();
}

/** Versions, head links and reports of time steps `from` to `to`, with ids and numbers shifted by `ids`. */
async function fillReports(
  c: DuckDBConnection,
  shape: Pick<Growth, 'from' | 'to' | 'startMs' | 'stepMs'>,
  ids: { readonly report: number; readonly version: number; readonly number: number },
): Promise<void> {
  const { from, to, startMs, stepMs } = shape;
  await c.run(`INSERT INTO version (id, uuid, project_id, number, hash, created)
    SELECT r + ${ids.version}, uuid(), 1, r + ${ids.number}, NULL, now()::TIMESTAMP FROM range(${from}, ${to}) t(r)`);
  await c.run(`INSERT INTO head_version SELECT ${HEAD}, r + ${ids.version} FROM range(${from}, ${to}) t(r)`);
  await c.run(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id, adapter,
      idempotency_key, start_time, end_time, created)
    SELECT r + ${ids.report}, uuid(), 1, NULL, 1, ${HEAD}, r + ${ids.version}, 1, 'json', NULL,
      make_timestamp((${startMs} + r * ${stepMs})::BIGINT * 1000), make_timestamp((${startMs} + r * ${stepMs} + 60000)::BIGINT * 1000),
      now()::TIMESTAMP
    FROM range(${from}, ${to}) t(r)`);
}

/** The benchmarks and series of a new history, replacing the seed run's data; returns the number of series. */
async function fillDimensions(c: DuckDBConnection, benchmarks: number): Promise<number> {
  await c.run('DELETE FROM metric; DELETE FROM report; DELETE FROM head_version; DELETE FROM version');
  await c.run(`INSERT INTO benchmark (uuid, project_id, name, slug, archived, created, modified)
    SELECT uuid(), 1, 'b-' || i, 'b-' || i, false, now()::TIMESTAMP, now()::TIMESTAMP FROM range(1, ${benchmarks}) t(i)`);
  await c.run('DELETE FROM series');
  await c.run(`INSERT INTO series (id, project_id, testbed_id, benchmark_id, measure_id)
    SELECT row_number() OVER (), 1, 1, b.id, m.id FROM benchmark b, measure m`);
  return seriesCount(c);
}

async function seriesCount(c: DuckDBConnection): Promise<number> {
  return Number((await c.runAndReadAll('SELECT count(*) FROM series')).getRows()[0]?.[0]);
}

/** Draws each id sequence past the ids inserted (DuckDB has no setval), commits and checkpoints. */
async function endFill(c: DuckDBConnection): Promise<void> {
  for (const table of ['version', 'report', 'series'])
    await c.run(`SELECT max(nextval('${table}_id_seq')) FROM range((SELECT max(id) FROM ${table}))`);
  await c.run('COMMIT');
  await c.run('CHECKPOINT');
}
