import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryColumns, HistoryRequest } from '../../../kit/index.js';
import type { CachedSample, HistoryCache } from './history-cache.js';
import { duckDb, query } from './sql.js';

const HEAD_VERSIONS = 'SELECT version_id FROM head_version WHERE head_id = $head';

/** Newest reports beyond n that the bound also covers, so a few reports without these series do not defeat it. */
const SLACK = 16;

/**
 * Per series the newest values on a head, newest first (report start time, then report, then iteration), from
 * the history cache or the table. Call it before inserting the report being tested (its report row without
 * metrics would waste part of the slack of `readNewest`).
 */
export async function history(
  connection: DuckDBConnection,
  request: HistoryRequest,
  cache?: HistoryCache,
): Promise<HistoryColumns> {
  const { series, headId, maxSamples, since } = request;
  // per series, its newest values (from the cache or the table) and how many of them the answer takes
  const newest: (readonly CachedSample[])[] = new Array(series.length);
  const misses: number[] = [];
  series.forEach((id, i) => {
    const entry = cache?.get(headId, id, maxSamples[i] as number);
    if (entry) newest[i] = entry.samples;
    else misses.push(i);
  });
  if (misses.length > 0) {
    const n = Math.max(...misses.map((i) => maxSamples[i] as number));
    const ids = [...new Set(misses.map((i) => series[i] as number))];
    const read = await readNewest(connection, headId, ids, n);
    for (const i of misses) newest[i] = read.get(series[i] as number) ?? [];
    if (cache && n <= CACHED_SAMPLES_MAX) for (const id of ids) cache.set(headId, id, read.get(id) ?? [], n);
  }
  return pack(newest, maxSamples, since);
}

/** Entries of a history cache hold at most this many values a series; larger sample sizes are always read. */
const CACHED_SAMPLES_MAX = 1_024;

/**
 * Per series, its newest `n` values on the head (all when fewer), newest first. The newest metrics are in time
 * order (compaction.ts), so a read bounded below by the start of the (n + SLACK)-th newest report skips old row
 * groups; a series with fewer than n values inside that bound is read again without it.
 */
async function readNewest(
  connection: DuckDBConnection,
  headId: number,
  ids: readonly number[],
  n: number,
): Promise<Map<number, CachedSample[]>> {
  const [bound] = await query<{ cutoff: Date | null }>(
    connection,
    `SELECT CASE WHEN count(*) = $n THEN min(start_time) END AS cutoff FROM (
       SELECT start_time FROM report WHERE version_id IN (${HEAD_VERSIONS}) ORDER BY start_time DESC LIMIT $n)`,
    { head: headId, n: n + SLACK },
  );
  const cutoff = bound?.cutoff ?? undefined;
  const newest = await read(connection, headId, ids, n, cutoff);
  if (cutoff) {
    const short = ids.filter((id) => (newest.get(id)?.length ?? 0) < n);
    for (const [id, list] of await read(connection, headId, short, n, undefined)) newest.set(id, list);
  }
  return newest;
}

/** The newest `n` values of each series in `ids` (after `cutoff` when given), newest first, in one statement. */
async function read(
  connection: DuckDBConnection,
  headId: number,
  ids: readonly number[],
  n: number,
  cutoff: Date | undefined,
): Promise<Map<number, CachedSample[]>> {
  const newest = new Map<number, CachedSample[]>();
  if (ids.length === 0) return newest;
  // Bounded below, the start time prunes the scan and bounds the rows (n + 16 reports' worth per series), so a
  // semi-join on the series and no window are cheapest. Unbounded, list_contains is what DuckDB pushes into the
  // scan to skip other series' row groups, and the window bounds the rows.
  const columns = `m.series_id, m.value, epoch_ms(m.start_time)::DOUBLE, m.id::DOUBLE, m.report_id, m.iteration`;
  const order = 'ORDER BY m.series_id, m.start_time DESC, m.report_id DESC, m.iteration DESC';
  const sql = cutoff
    ? `SELECT ${columns}
       FROM metric m JOIN head_version hv ON hv.version_id = m.version_id AND hv.head_id = $head
       WHERE m.series_id IN (SELECT unnest($series)) AND m.start_time >= $cutoff
       ${order}`
    : `SELECT ${columns}
       FROM metric m
       WHERE list_contains($series, m.series_id) AND m.version_id IN (${HEAD_VERSIONS})
       QUALIFY row_number() OVER (
         PARTITION BY m.series_id ORDER BY m.start_time DESC, m.report_id DESC, m.iteration DESC) <= $n
       ${order}`;
  let out: [Int32Array, Float64Array, Float64Array, Float64Array, Int32Array, Int32Array] | undefined;
  const params = { series: Int32Array.from(ids), n, head: headId, cutoff };
  const count = await duckDb(connection).columns(sql, params, (rows) => {
    const ints = () => new Int32Array(rows);
    const doubles = () => new Float64Array(rows);
    return (out = [ints(), doubles(), doubles(), doubles(), ints(), ints()]);
  });
  const [series, values, times, metricIds, reports, iterations] = out!;
  for (let k = 0; k < count; k++) {
    const id = series[k] as number;
    let list = newest.get(id);
    if (!list) newest.set(id, (list = []));
    if (list.length < n)
      list.push({
        value: values[k] as number,
        id: BigInt(metricIds[k] as number),
        start: times[k] as number,
        report: reports[k] as number,
        iteration: iterations[k] as number,
      });
  }
  return newest;
}

/**
 * The answer's columns: per series its newest values up to its sample size and back to its `since`, written
 * straight into the columns (this runs on the event loop for every report).
 */
function pack(
  newest: readonly (readonly CachedSample[])[],
  maxSamples: Int32Array,
  since: Float64Array,
): HistoryColumns {
  const offsets = new Uint32Array(newest.length + 1);
  newest.forEach((list, i) => {
    const n = Math.min(list.length, maxSamples[i] as number);
    const after = since[i] as number;
    let k = 0;
    while (k < n && (list[k] as CachedSample).start >= after) k++;
    offsets[i + 1] = (offsets[i] as number) + k;
  });
  const values = new Float64Array(offsets[newest.length] as number);
  const ids = new BigInt64Array(values.length);
  newest.forEach((list, i) => {
    const from = offsets[i] as number;
    const count = (offsets[i + 1] as number) - from;
    for (let k = 0; k < count; k++) {
      const sample = list[k] as CachedSample;
      values[from + k] = sample.value;
      ids[from + k] = sample.id;
    }
  });
  return { offsets, values, ids };
}
