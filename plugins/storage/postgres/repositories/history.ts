import type { HistoryColumns, HistoryRequest } from '../../../../kit/index.js';
import { queryValues, type Connection } from '../sql.js';

/** When a threshold sets no max_sample_size, history is still capped so one query stays bounded. */
export const HISTORY_CAP = 65_536;

/**
 * Per requested series, its newest values on the head (its own versions and those linked from its start point),
 * newest first by report start time, report and iteration, at most n of them since the series' window start. One
 * statement: a lateral subquery per series, each a backward range scan of the metric (series_id, start_time,
 * report_id, iteration) index that stops after n rows on the head.
 */
export const HISTORY_SQL = `SELECT w.pos::int, m.value, m.id
  FROM unnest($series::int[], $n::int[], $since::float8[]) WITH ORDINALITY AS w(series_id, n, since, pos)
  CROSS JOIN LATERAL (
    SELECT m.value, m.id, m.start_time, m.report_id, m.iteration FROM metric m
    WHERE m.series_id = w.series_id AND m.start_time >= to_timestamp(w.since / 1000)
      AND m.version_id IN (SELECT version_id FROM head_version WHERE head_id = $head::int)
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
