import type { HistoryColumns, HistoryRequest } from '../../../../kit/index.js';
import { queryValues, type Connection } from '../sql.js';

/** When a threshold sets no max_sample_size, history is still capped so one query stays bounded. */
export const HISTORY_CAP = 65_536;

/**
 * Per requested series, its newest values on the head (its own versions and those linked from its start point),
 * newest first by report start time, report and iteration, at most n of them since the series' window start. One
 * statement: a lateral subquery per series, each a backward range scan of the metric (series_id, start_time,
 * report_id, iteration) index that stops after n rows on the head.
 *
 * Each row's version is checked by a probe of head_version's key (`EXISTS ... OFFSET 0`: the OFFSET keeps
 * PostgreSQL from turning the check into a join). As a join (`version_id IN (SELECT ...)`), the plan followed the
 * statistics of head_version, which say a head younger than the last ANALYZE (a new branch) has one version: the
 * planner then read every metric of the series and sorted them (bitmap scan), or scanned the series once per
 * version of the head, so a report on a new branch cost more with every report (bench ingest, a branch per client:
 * PostgreSQL 75 ms of CPU per report).
 */
export const HISTORY_SQL = `SELECT w.pos::int, m.value, m.id
  FROM unnest($series::int[], $n::int[], $since::float8[]) WITH ORDINALITY AS w(series_id, n, since, pos)
  CROSS JOIN LATERAL (
    SELECT m.value, m.id, m.start_time, m.report_id, m.iteration FROM metric m
    WHERE m.series_id = w.series_id AND m.start_time >= to_timestamp(w.since / 1000)
      AND EXISTS (SELECT FROM head_version hv WHERE hv.head_id = $head::int AND hv.version_id = m.version_id OFFSET 0)
    ORDER BY m.start_time DESC, m.report_id DESC, m.iteration DESC
    LIMIT w.n) m
  ORDER BY w.pos, m.start_time DESC, m.report_id DESC, m.iteration DESC`;

export async function history(connection: Connection, request: HistoryRequest): Promise<HistoryColumns> {
  const { series } = request;
  const offsets = new Uint32Array(series.length + 1);
  if (series.length === 0) return { offsets, values: new Float64Array(0), ids: new BigInt64Array(0) };
  const rows = await queryValues(connection, HISTORY_SQL, {
    series,
    n: request.maxSamples.map((n) => Math.min(n, HISTORY_CAP)),
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
