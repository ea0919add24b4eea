import type { DuckDBConnection } from '@duckdb/node-api';
import { perfLinesOf, type PerfColumns, type PerfLines, type PerfRequest } from '../../../../kit/index.js';
import { readColumns, UuidColumn } from '../columns.js';
import { query, queryChunks } from '../sql.js';

/** The permutation list (series, head), numbered from 0 in request order. */
const PERM =
  'WITH perm AS (SELECT unnest($pos) AS pos, unnest($series) AS series_id, unnest($heads) AS head_id)';

/**
 * The points of every permutation: the metric fact table joined to the permutation list and the head's versions.
 * The `list_contains` filter repeats the join on purpose: DuckDB pushes it into the metric scan, which then skips
 * every row group of other series (the table is clustered by series); the join alone pushes only a min-max
 * range, which spans most of the table when the series are far apart (10x slower on 10M metrics).
 */
const POINTS = `FROM metric m
  JOIN perm ON m.series_id = perm.series_id
  JOIN head_version hv ON hv.version_id = m.version_id AND hv.head_id = perm.head_id`;
const IN_RANGE = `WHERE list_contains($series, m.series_id)
    AND m.start_time >= make_timestamp($start::BIGINT * 1000) AND m.end_time <= make_timestamp($end::BIGINT * 1000)`;

/**
 * Every permutation in one statement, joined to the few small tables the points show (version number and hash,
 * report UUID, alert).
 */
function perfSql(metricUuids: boolean): string {
  return `${PERM}
  SELECT perm.pos, r.uuid, m.iteration, epoch_ms(m.start_time)::DOUBLE, epoch_ms(m.end_time)::DOUBLE,
    v.number, v.hash,${metricUuids ? ' m.uuid,' : ''} m.value, m.lower_value, m.upper_value, m.threshold_id, m.model_id,
    m.baseline, m.lower_limit, m.upper_limit, a.uuid::VARCHAR, a.boundary_limit, a.status,
    epoch_ms(a.modified)::DOUBLE
  ${POINTS}
  JOIN version v ON v.id = m.version_id
  JOIN report r ON r.id = m.report_id
  LEFT JOIN alert a ON a.metric_id = m.id
  ${IN_RANGE}
  ORDER BY perm.pos, v.number, m.start_time, m.iteration
  LIMIT $limit`;
}

/**
 * How many points the perf statement answers, up to its limit: the same selection with no sort and none of the
 * joins that only show the points (every metric has its report and version), and the scan stops at the limit.
 */
const COUNT_SQL = `${PERM}
  SELECT count(*)::INTEGER AS points FROM (SELECT 1 ${POINTS} ${IN_RANGE} LIMIT $limit)`;

/**
 * Metric UUIDs are the costliest column of the statement (random 128-bit values, stored bit-packed: 8 series x
 * 1,000 points on 10M metrics, 38 against 48 ms of CPU with them, load 15), so a request that does not need them
 * is read without. Reading ids and looking up reports, versions and alerts in separate statements was measured
 * too and cost more than the joins (docs/performance.md).
 */
const PERF_SQL = perfSql(true);
const PERF_SQL_NO_UUIDS = perfSql(false);

const FAR_PAST = -62_135_596_800_000; // 0001-01-01
const FAR_FUTURE = 253_402_300_799_000; // 9999-12-31

function perfParams(request: PerfRequest) {
  return {
    limit: request.limit ?? Number.MAX_SAFE_INTEGER,
    pos: Int32Array.from(request.series.keys()),
    series: request.series,
    heads: request.heads,
    start: request.start ?? FAR_PAST,
    end: request.end ?? FAR_FUTURE,
  };
}

function empty(count: number) {
  const nan = () => new Float64Array(count).fill(Number.NaN);
  const strings = () => new Array<string | null>(count).fill(null);
  return {
    count,
    permutation: new Int32Array(count),
    report: new Uint32Array(4 * count),
    iteration: new Int32Array(count),
    start: nan(),
    end: nan(),
    version: new Int32Array(count),
    hash: strings(),
    uuid: new Uint32Array(4 * count),
    value: nan(),
    lower: nan(),
    upper: nan(),
    threshold: new Int32Array(count),
    model: new Int32Array(count),
    baseline: nan(),
    lowerLimit: nan(),
    upperLimit: nan(),
    alert: strings(),
    alertLimit: strings(),
    alertStatus: strings(),
    alertModified: nan(),
  };
}

/**
 * Runs the perf query and reads it chunk by chunk into preallocated typed arrays (row objects would cost
 * several times more and block the event loop on large answers).
 */
export async function perf(connection: DuckDBConnection, request: PerfRequest): Promise<PerfColumns> {
  if (request.series.length === 0) return empty(0);
  const uuids = request.metricUuids !== false;
  const sql = uuids ? PERF_SQL : PERF_SQL_NO_UUIDS;
  const { result, chunks, count } = await queryChunks(connection, sql, perfParams(request));
  const out = empty(count);
  readColumns(result, chunks, [
    out.permutation,
    new UuidColumn(out.report, count),
    out.iteration,
    out.start,
    out.end,
    out.version,
    out.hash,
    ...(uuids ? [new UuidColumn(out.uuid, count)] : []),
    out.value,
    out.lower,
    out.upper,
    out.threshold,
    out.model,
    out.baseline,
    out.lowerLimit,
    out.upperLimit,
    out.alert,
    out.alertLimit,
    out.alertStatus,
    out.alertModified,
  ]);
  return out;
}

/** The number of points {@link perf} answers for the request, counted up to its limit. */
export async function perfCount(connection: DuckDBConnection, request: PerfRequest): Promise<number> {
  if (request.series.length === 0) return 0;
  const [row] = await query<{ points: number }>(connection, COUNT_SQL, perfParams(request));
  return row?.points ?? 0;
}

/** What an image draws of the same points: no report, hash, UUID or alert text, so no join to report. */
const LINES_SQL = `${PERM}
  SELECT perm.pos, epoch_ms(m.start_time)::DOUBLE, v.number, m.value, m.lower_limit, m.upper_limit,
    (a.metric_id IS NOT NULL)::INTEGER
  ${POINTS}
  JOIN version v ON v.id = m.version_id
  LEFT JOIN alert a ON a.metric_id = m.id
  ${IN_RANGE}
  ORDER BY perm.pos, v.number, m.start_time, m.iteration
  LIMIT $limit`;

/** What a perf image draws of the perf query's points, in its order, read like {@link perf}. */
export async function perfLines(connection: DuckDBConnection, request: PerfRequest): Promise<PerfLines> {
  if (request.series.length === 0) return perfLinesOf(empty(0));
  const { result, chunks, count } = await queryChunks(connection, LINES_SQL, perfParams(request));
  const nan = () => new Float64Array(count).fill(Number.NaN);
  const out = {
    count,
    permutation: new Int32Array(count),
    start: nan(),
    version: new Int32Array(count),
    value: nan(),
    lowerLimit: nan(),
    upperLimit: nan(),
  };
  const alert = new Int32Array(count);
  readColumns(result, chunks, [
    out.permutation,
    out.start,
    out.version,
    out.value,
    out.lowerLimit,
    out.upperLimit,
    alert,
  ]);
  return { ...out, alert: Uint8Array.from(alert) };
}
