import { perfLinesOf, type PerfColumns, type PerfLines, type PerfRequest } from '../../../kit/index.js';
import { count, perDialect, UuidColumn, type Db, type Dialect } from './sql.js';

/**
 * The permutations (series and head, numbered from 0 in request order) and their metrics within the time range,
 * on the head's versions. `d.scanFilter` repeats the join's series as a filter of the metric scan, for an engine
 * that only then skips the other series' data (DuckDB's min-max pruning of a list filter). The bound of start_time
 * by the range's end follows from the others (a metric starts before it ends); written out, it lets an engine skip
 * the data after the range by start_time (PostgreSQL's monthly partitions of metric, DuckDB's min-max indexes).
 */
const points = (d: Dialect) =>
  `WITH perm AS (SELECT * FROM ${d.rows('p', [
    ['pos', '$pos', 'int'],
    ['series_id', '$series', 'int'],
    ['head_id', '$heads', 'int'],
  ])})`;

const selected = (d: Dialect) => `FROM perm
  JOIN metric m ON m.series_id = perm.series_id
    AND m.start_time >= ${d.fromEpochMs('$start')} AND m.start_time <= ${d.fromEpochMs('$end')}
    AND m.end_time <= ${d.fromEpochMs('$end')}
  JOIN head_version hv ON hv.version_id = m.version_id AND hv.head_id = perm.head_id`;

const scan = (d: Dialect) => `WHERE ${d.scanFilter('m.series_id', '$series')}`;

/**
 * The selection's points `m`, joined to their versions and to `joins`, showing `columns` (given the name of the
 * permutation's column), in answer order. Capped: the metric scan stops one past `$cap` into a materialized `m`
 * of the metric columns `kept` (unordered), and the joins and the sort run only when it holds no more than the
 * cap, so a refusal costs a scan of the cap's worth of points and no statement of its own.
 */
const ordered = (d: Dialect, shown: { columns: (pos: string) => string; joins: string; kept: string }) => ({
  all: `${points(d)}
  SELECT ${shown.columns('perm.pos')}
  ${selected(d)}
  JOIN version v ON v.id = m.version_id
  ${shown.joins}
  ${scan(d)}
  ORDER BY perm.pos, v.number, m.start_time, m.iteration
  LIMIT $limit::bigint`,
  capped: `${points(d)},
  m AS MATERIALIZED (SELECT perm.pos, m.id, m.version_id, m.start_time, m.iteration, ${shown.kept}
    ${selected(d)} ${scan(d)} LIMIT $cap::bigint + 1)
  SELECT ${shown.columns('m.pos')}
  FROM (SELECT count(*) AS points FROM m) capped
  JOIN m ON capped.points <= $cap::bigint
  JOIN version v ON v.id = m.version_id
  ${shown.joins}
  ORDER BY m.pos, v.number, m.start_time, m.iteration
  LIMIT $limit::bigint`,
});

/** Of a statement's two forms, the one for `request`: capped when it has a cap. */
const form = (statement: ReturnType<typeof ordered>, request: PerfRequest) =>
  request.cap === undefined ? statement.all : statement.capped;

/**
 * Every permutation in one statement, joined to the few small tables the points show. Metric UUIDs are the
 * costliest column (random 128-bit values), so a request that does not need them is read without; separate
 * statements for reports, versions and alerts cost more than the joins (docs/performance.md).
 */
const PERF = perDialect((d) => {
  const shown = (uuids: boolean) => ({
    columns: (pos: string) => `${pos}, r.uuid, m.iteration, ${d.epochMs('m.start_time')},
    ${d.epochMs('m.end_time')}, v.number, v.hash, ${uuids ? 'm.uuid, ' : ''}m.value, m.lower_value, m.upper_value,
    m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit, a.uuid::text, a.boundary_limit, a.status,
    ${d.epochMs('a.modified')}`,
    joins: `JOIN report r ON r.id = m.report_id
  LEFT JOIN alert a ON a.metric_id = m.id`,
    kept: `m.report_id, m.end_time, ${uuids ? 'm.uuid, ' : ''}m.value, m.lower_value, m.upper_value,
    m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit`,
  });
  return { uuids: ordered(d, shown(true)), plain: ordered(d, shown(false)) };
});

/** What an image draws of the same points: no report, hash, UUID or alert text, so no join to report. */
const LINES = perDialect((d) =>
  ordered(d, {
    columns: (pos: string) => `${pos}, ${d.epochMs('m.start_time')}, v.number, m.value, m.lower_limit,
    m.upper_limit, m.baseline, (a.metric_id IS NOT NULL)::int`,
    joins: 'LEFT JOIN alert a ON a.metric_id = m.id',
    kept: 'm.value, m.lower_limit, m.upper_limit, m.baseline',
  }),
);

/**
 * How many points the perf statement answers, up to its limit: the same selection with no sort and none of the
 * joins that only show the points (every metric has its report and version), and the scan stops at the limit.
 */
const COUNT = perDialect(
  (d) => `${points(d)}
  SELECT count(*) AS points FROM (SELECT 1 ${selected(d)} ${scan(d)} LIMIT $limit::bigint) selected`,
);

/** The statements, for tests and benches that run or explain them. */
export const perfSql = (d: Dialect) => ({
  perf: PERF(d).uuids.all,
  lines: LINES(d).all,
  cappedPerf: PERF(d).uuids.capped,
  cappedLines: LINES(d).capped,
});

const FAR_PAST = -62_135_596_800_000; // 0001-01-01
const FAR_FUTURE = 253_402_300_799_000; // 9999-12-31

/** The statements' parameters (each engine binds those a statement names). */
function params(request: PerfRequest) {
  return {
    limit: request.limit ?? Number.MAX_SAFE_INTEGER,
    cap: request.cap,
    pos: Int32Array.from(request.series.keys()),
    series: request.series,
    heads: request.heads,
    start: request.start ?? FAR_PAST,
    end: request.end ?? FAR_FUTURE,
  };
}

function empty(count: number): PerfColumns {
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

/** The perf query, read column by column into preallocated typed arrays. */
export async function perf(db: Db, request: PerfRequest): Promise<PerfColumns> {
  let out = empty(0);
  if (request.series.length === 0) return out;
  const uuids = request.metricUuids !== false;
  const statement = form(PERF(db.dialect)[uuids ? 'uuids' : 'plain'], request);
  await db.columns(statement, params(request), (count) => {
    out = empty(count);
    return [
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
    ];
  });
  return out;
}

/** The number of points {@link perf} answers for the request, counted up to its limit. */
export async function perfCount(db: Db, request: PerfRequest): Promise<number> {
  if (request.series.length === 0) return 0;
  const [row] = await db.query<{ points: bigint | number }>(COUNT(db.dialect), params(request));
  return count(row?.points);
}

/** What a perf image draws of the perf query's points, in its order. */
export async function perfLines(db: Db, request: PerfRequest): Promise<PerfLines> {
  let lines = perfLinesOf(empty(0));
  if (request.series.length === 0) return lines;
  let alert = new Int32Array(0);
  await db.columns(form(LINES(db.dialect), request), params(request), (count) => {
    const nan = () => new Float64Array(count).fill(Number.NaN);
    alert = new Int32Array(count);
    lines = {
      count,
      permutation: new Int32Array(count),
      start: nan(),
      version: new Int32Array(count),
      value: nan(),
      lowerLimit: nan(),
      upperLimit: nan(),
      baseline: nan(),
      alert: new Uint8Array(0),
    };
    return [
      lines.permutation,
      lines.start,
      lines.version,
      lines.value,
      lines.lowerLimit,
      lines.upperLimit,
      lines.baseline,
      alert,
    ];
  });
  return { ...lines, alert: Uint8Array.from(alert) };
}
