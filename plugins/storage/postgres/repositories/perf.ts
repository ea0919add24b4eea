import { perfLinesOf, type PerfColumns, type PerfLines, type PerfRequest } from '../../../../kit/index.js';
import { query, queryValues, type Connection } from '../sql.js';

/** The permutations, numbered from 0 in request order. */
const PERM = `perm AS (SELECT series_id, head_id, (pos - 1)::int AS pos
  FROM unnest($series::int[], $heads::int[]) WITH ORDINALITY AS p(series_id, head_id, pos))`;

/** Metrics of the permutations within the time range: one index range scan of metric per series. */
const POINTS = `FROM perm
  JOIN metric m ON m.series_id = perm.series_id
    AND m.start_time >= to_timestamp($start::float8 / 1000) AND m.end_time <= to_timestamp($end::float8 / 1000)
  JOIN head_version hv ON hv.version_id = m.version_id AND hv.head_id = perm.head_id`;

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * Every permutation in one statement, joined to the few small tables the points show; without the metric UUIDs
 * when the request needs none (`metricUuids: false`: no text to send and parse per point).
 */
const perfSql = (metricUuids: boolean) => `WITH ${PERM}
  SELECT perm.pos, r.uuid::text, m.iteration, ${ms('m.start_time')}, ${ms('m.end_time')}, v.number, v.hash,
    ${metricUuids ? 'm.uuid::text' : 'NULL::text'}, m.value, m.lower_value, m.upper_value, m.threshold_id, m.model_id, m.baseline, m.lower_limit,
    m.upper_limit, a.uuid::text, a.boundary_limit, a.status, ${ms('a.modified')}
  ${POINTS}
  JOIN version v ON v.id = m.version_id
  JOIN report r ON r.id = m.report_id
  LEFT JOIN alert a ON a.metric_id = m.id
  ORDER BY perm.pos, v.number, m.start_time, m.iteration
  LIMIT $limit::bigint`;
export const PERF_SQL = perfSql(true);
const PERF_SQL_NO_UUIDS = perfSql(false);

const FAR_PAST = -62_135_596_800_000; // 0001-01-01
const FAR_FUTURE = 253_402_300_799_000; // 9999-12-31

function perfParams(request: PerfRequest) {
  return {
    limit: request.limit ?? Number.MAX_SAFE_INTEGER,
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

/** The value of each hex digit's character code (PostgreSQL writes UUIDs in lower case), 0 for others. */
const HEX = new Uint8Array(128);
for (let d = 0; d < 16; d++) HEX[d.toString(16).charCodeAt(0)] = d;

/**
 * A UUID's text as four 32-bit words, word k of point i at `k * count + i` (the layout of PerfColumns). Read by
 * character code: two UUIDs for each of up to 100,000 points, where slicing and parseInt cost more than the rest
 * of the decoding.
 */
function putUuid(words: Uint32Array, count: number, i: number, text: string): void {
  let at = 0;
  for (let k = 0; k < 4; k++) {
    let word = 0;
    for (let d = 0; d < 8; d++, at++) {
      if (text.charCodeAt(at) === 45) at++; // '-'
      word = word * 16 + (HEX[text.charCodeAt(at)] as number);
    }
    words[k * count + i] = word;
  }
}

const num = (value: unknown, absent: number) => (value === null ? absent : (value as number));

export async function perf(connection: Connection, request: PerfRequest): Promise<PerfColumns> {
  if (request.series.length === 0) return empty(0);
  const sql = request.metricUuids === false ? PERF_SQL_NO_UUIDS : PERF_SQL;
  const rows = await queryValues(connection, sql, perfParams(request));
  const out = empty(rows.length);
  const { count } = out;
  rows.forEach((row, i) => {
    out.permutation[i] = row[0] as number;
    putUuid(out.report, count, i, row[1] as string);
    out.iteration[i] = row[2] as number;
    out.start[i] = row[3] as number;
    out.end[i] = row[4] as number;
    out.version[i] = row[5] as number;
    out.hash[i] = row[6] as string | null;
    if (row[7] !== null) putUuid(out.uuid, count, i, row[7] as string);
    out.value[i] = row[8] as number;
    out.lower[i] = num(row[9], Number.NaN);
    out.upper[i] = num(row[10], Number.NaN);
    out.threshold[i] = num(row[11], 0);
    out.model[i] = num(row[12], 0);
    out.baseline[i] = num(row[13], Number.NaN);
    out.lowerLimit[i] = num(row[14], Number.NaN);
    out.upperLimit[i] = num(row[15], Number.NaN);
    out.alert[i] = row[16] as string | null;
    out.alertLimit[i] = row[17] as string | null;
    out.alertStatus[i] = row[18] as string | null;
    out.alertModified[i] = num(row[19], Number.NaN);
  });
  return out;
}

/**
 * How many points the perf statement answers, up to its limit: the same selection with no sort and none of the
 * joins that only show the points (every metric has its report and version), and the scan stops at the limit.
 */
const COUNT_SQL = `WITH ${PERM}
  SELECT count(*)::int AS points FROM (SELECT 1 ${POINTS} LIMIT $limit::bigint) selected`;

/** The number of points {@link perf} answers for the request, counted up to its limit. */
export async function perfCount(connection: Connection, request: PerfRequest): Promise<number> {
  if (request.series.length === 0) return 0;
  const [row] = await query<{ points: number }>(connection, COUNT_SQL, perfParams(request));
  return row?.points ?? 0;
}

/** What an image draws of the same points: no report, hash, UUID or alert text, so no join to report. */
export const LINES_SQL = `WITH ${PERM}
  SELECT perm.pos, ${ms('m.start_time')}, v.number, m.value, m.lower_limit, m.upper_limit,
    (a.metric_id IS NOT NULL)::int
  ${POINTS}
  JOIN version v ON v.id = m.version_id
  LEFT JOIN alert a ON a.metric_id = m.id
  ORDER BY perm.pos, v.number, m.start_time, m.iteration
  LIMIT $limit::bigint`;

/** What a perf image draws of the perf query's points, in its order. */
export async function perfLines(connection: Connection, request: PerfRequest): Promise<PerfLines> {
  if (request.series.length === 0) return perfLinesOf(empty(0));
  const rows = await queryValues(connection, LINES_SQL, perfParams(request));
  const count = rows.length;
  const out = {
    count,
    permutation: new Int32Array(count),
    start: new Float64Array(count),
    version: new Int32Array(count),
    value: new Float64Array(count),
    lowerLimit: new Float64Array(count),
    upperLimit: new Float64Array(count),
    alert: new Uint8Array(count),
  };
  rows.forEach((row, i) => {
    out.permutation[i] = row[0] as number;
    out.start[i] = row[1] as number;
    out.version[i] = row[2] as number;
    out.value[i] = row[3] as number;
    out.lowerLimit[i] = num(row[4], Number.NaN);
    out.upperLimit[i] = num(row[5], Number.NaN);
    out.alert[i] = row[6] as number;
  });
  return out;
}
