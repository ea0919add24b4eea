import type { DuckDBConnection } from '@duckdb/node-api';
import type { HistoryColumns, HistoryRequest } from '../../../../core/index.js';
import { query, queryColumns } from '../sql.js';

/** When a threshold sets no max_sample_size, history is still capped so one query stays bounded. */
export const HISTORY_CAP = 65_536;

const HEAD_VERSIONS = 'SELECT version_id FROM head_version WHERE head_id = $head';

/** Newest reports beyond n that the bound also covers, so a few reports without these series do not defeat it. */
const SLACK = 16;

/**
 * Per series the newest values on a head, newest first (report start time, then report, then iteration).
 * Metrics are appended in time order, so DuckDB's min-max indexes on start_time skip old row groups when the
 * query is bounded below: the bound is the start of the (n + 16)-th newest report on the head (n = the largest
 * sample size asked for). Call it before inserting the report being tested (a report row without metrics
 * would only waste part of the slack). A series with fewer values than asked inside that bound (new, or absent from some
 * reports) is read again without it, so the answer never depends on the shortcut.
 */
export async function history(
  connection: DuckDBConnection,
  request: HistoryRequest,
): Promise<HistoryColumns> {
  const { series, headId } = request;
  const maxSamples = request.maxSamples.map((n) => Math.min(n, HISTORY_CAP));
  const since = request.since.map((ms) => (Number.isFinite(ms) ? ms : -1e18));
  const samples: number[][] = Array.from({ length: series.length }, () => []);
  if (series.length === 0) return pack(samples);

  const [bound] = await query<{ cutoff: Date | null }>(
    connection,
    `SELECT CASE WHEN count(*) = $n THEN min(start_time) END AS cutoff FROM (
       SELECT start_time FROM report WHERE version_id IN (${HEAD_VERSIONS}) ORDER BY start_time DESC LIMIT $n)`,
    { head: headId, n: Math.max(...maxSamples) + SLACK },
  );
  const all = Int32Array.from(series.keys());
  await read(connection, headId, all, series, maxSamples, since, samples, bound?.cutoff ?? undefined);
  if (bound?.cutoff) {
    const short = all.filter((i) => (samples[i] as number[]).length < (maxSamples[i] as number));
    for (const i of short) samples[i] = [];
    await read(connection, headId, short, series, maxSamples, since, samples, undefined);
  }
  return pack(samples);
}

async function read(
  connection: DuckDBConnection,
  headId: number,
  positions: Int32Array,
  series: Int32Array,
  maxSamples: Int32Array,
  since: Float64Array,
  samples: number[][],
  cutoff: Date | undefined,
): Promise<void> {
  if (positions.length === 0) return;
  // an empty result has no columns at all
  const [pos = [], values = []] = (await queryColumns(
    connection,
    `WITH req AS (
       SELECT unnest($pos) AS pos, unnest($series) AS series_id, unnest($max) AS max_n, unnest($since) AS since_ms
     )
     SELECT req.pos, m.value
     FROM metric m JOIN req ON m.series_id = req.series_id
     WHERE list_contains($series, m.series_id) -- pushed into the scan: skips other series' row groups
       AND m.version_id IN (${HEAD_VERSIONS})
       AND epoch_ms(m.start_time) >= req.since_ms ${cutoff ? 'AND m.start_time >= $cutoff' : ''}
     QUALIFY row_number() OVER (
       PARTITION BY req.pos ORDER BY m.start_time DESC, m.report_id DESC, m.iteration DESC) <= req.max_n
     ORDER BY req.pos, m.start_time DESC, m.report_id DESC, m.iteration DESC`,
    {
      pos: positions,
      series: positions.map((i) => series[i] as number),
      max: positions.map((i) => maxSamples[i] as number),
      since: Float64Array.from(positions, (i) => since[i] as number),
      head: headId,
      cutoff,
    },
  )) as [number[], number[]];
  for (let k = 0; k < pos.length; k++) (samples[pos[k] as number] as number[]).push(values[k] as number);
}

function pack(samples: number[][]): HistoryColumns {
  const offsets = new Uint32Array(samples.length + 1);
  samples.forEach((list, i) => (offsets[i + 1] = (offsets[i] as number) + list.length));
  const values = new Float64Array(offsets[samples.length] as number);
  samples.forEach((list, i) => values.set(list, offsets[i] as number));
  return { offsets, values };
}
