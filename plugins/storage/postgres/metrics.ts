import type { HistoryColumns, HistoryRequest, MetricsWriter } from '../../../kit/index.js';
import { query, queryValues, type Connection } from './sql.js';

/**
 * Per series its newest n values on the head since its window start, newest first: a lateral backward range scan
 * of the metric (series_id, start_time, report_id, iteration) index per series, its rows checked against the head's
 * versions before the limit. The check is a subplan over the scan (kept a subquery by `OFFSET 0`); `IS TRUE` keeps
 * the EXISTS from becoming a semi-join, which for a head younger than the last ANALYZE plans as a read and sort of
 * every metric of the series. PostgreSQL then chooses by cost between one hash of the head's versions per statement
 * and an index probe per row (a probe alone is planned, on a one-page head_version, as a sequential scan of it for
 * every row read). No ORDER BY above the subquery: the limit takes the subquery's order, and with one the subquery
 * would be planned to read the whole series.
 */
export const HISTORY_SQL = `SELECT w.pos::int, m.value, m.id
  FROM unnest($series::int[], $n::int[], $since::float8[]) WITH ORDINALITY AS w(series_id, n, since, pos)
  CROSS JOIN LATERAL (
    SELECT m.value, m.id, m.start_time, m.report_id, m.iteration FROM (
      SELECT m.value, m.id, m.start_time, m.report_id, m.iteration, m.version_id FROM metric m
      WHERE m.series_id = w.series_id AND m.start_time >= to_timestamp(w.since / 1000)
      ORDER BY m.start_time DESC, m.report_id DESC, m.iteration DESC
      OFFSET 0) m
    WHERE EXISTS (SELECT FROM head_version hv WHERE hv.head_id = $head::int AND hv.version_id = m.version_id) IS TRUE
    LIMIT w.n) m
  ORDER BY w.pos, m.start_time DESC, m.report_id DESC, m.iteration DESC`;

export async function history(connection: Connection, request: HistoryRequest): Promise<HistoryColumns> {
  const { series } = request;
  const offsets = new Uint32Array(series.length + 1);
  if (series.length === 0) return { offsets, values: new Float64Array(0), ids: new BigInt64Array(0) };
  const rows = await queryValues(connection, HISTORY_SQL, {
    series,
    n: request.maxSamples,
    since: request.since,
    head: request.headId,
  });
  const values = new Float64Array(rows.length);
  const ids = new BigInt64Array(rows.length);
  rows.forEach(([position, value, id], k) => {
    // positions are 1-based and rows come ordered by them: the offset after each is the count so far
    offsets[position as number] = k + 1;
    values[k] = value as number;
    ids[k] = id as bigint;
  });
  for (let i = 1; i <= series.length; i++)
    offsets[i] = Math.max(offsets[i] as number, offsets[i - 1] as number);
  return { offsets, values, ids };
}

/** NaN (absent) as NULL; the array columns below carry it as NaN and the statement turns it into NULL. */
const optional = (column: string) => `nullif(${column}, 'NaN')`;

/**
 * One statement for all the metrics of a report: every column one array parameter, `unnest` back into rows. Ids
 * come from the sequence every process shares, in the metrics' order (`nextval` runs after the sort).
 */
const APPEND_SQL = `INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
    start_time, end_time, value, lower_value, upper_value, threshold_id, model_id, baseline, lower_limit, upper_limit)
  SELECT nextval('metric_id_seq'), m.uuid, $project::int, $report::int, m.iteration, m.series, $head::int,
    $version::int, $start::timestamptz, $end::timestamptz, m.value, ${optional('m.lower')}, ${optional('m.upper')},
    nullif(m.threshold, 0), nullif(m.model, 0), ${optional('m.baseline')}, ${optional('m.lower_limit')},
    ${optional('m.upper_limit')}
  FROM unnest($uuids::uuid[], $iterations::int[], $series::int[], $values::float8[],
    $lowers::float8[], $uppers::float8[], $thresholds::int[], $models::int[], $baselines::float8[],
    $lower_limits::float8[], $upper_limits::float8[]) WITH ORDINALITY
    AS m(uuid, iteration, series, value, lower, upper, threshold, model, baseline, lower_limit, upper_limit, n)
  ORDER BY m.n
  RETURNING id, uuid`;

export function append(connection: Connection): MetricsWriter['append'] {
  return async (report, m) => {
    const count = m.uuid.length;
    const ids = new BigInt64Array(count);
    if (count === 0) return ids;
    const rows = await query<{ id: bigint; uuid: string }>(connection, APPEND_SQL, {
      project: report.project_id,
      report: report.id,
      head: report.head_id,
      version: report.version_id,
      start: report.start_time,
      end: report.end_time,
      uuids: m.uuid,
      iterations: m.iteration,
      series: m.series,
      values: m.value,
      lowers: m.lower,
      uppers: m.upper,
      thresholds: m.threshold,
      models: m.model,
      baselines: m.baseline,
      lower_limits: m.lowerLimit,
      upper_limits: m.upperLimit,
    });
    const index = new Map(m.uuid.map((uuid, i) => [uuid.toLowerCase(), i]));
    for (const row of rows) ids[index.get(row.uuid) as number] = row.id;
    return ids;
  };
}
