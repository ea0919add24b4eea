import type {
  DimensionRecord,
  MetricRecord,
  MetricsReader,
  MetricsWriter,
  NamedBatchReader,
  NamedBatchWriter,
  ReadRepositories,
  ReportRecord,
  WriteRepositories,
} from '../../../../kit/index.js';
import { execute, ident, isUuid, query, type Connection } from '../sql.js';
import { REGRESSION_PRUNE } from '../../shared/regressions.js';
import { tableReader, tableWriter, type TableSpec } from '../table.js';
import { history } from './history.js';
import { perf, perfLines } from './perf.js';
import { reports, reportsReader } from './reports.js';

const METRIC_COLUMNS = `m.id, m.uuid, m.report_id, m.iteration, m.series_id, s.benchmark_id, s.measure_id, m.value,
  m.lower_value, m.upper_value, m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit`;

function metricsReader(connection: Connection): MetricsReader {
  return {
    byReports(reportIds) {
      if (reportIds.length === 0) return Promise.resolve([]);
      return query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id
         WHERE m.report_id = ANY($reports::integer[])
         ORDER BY m.report_id, m.iteration, s.benchmark_id, s.measure_id`,
        { reports: [...reportIds] },
      );
    },
    byIds(ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id WHERE m.id = ANY($ids::bigint[])`,
        { ids: [...ids] },
      );
    },
    async byUuid(projectId, uuid) {
      if (!isUuid(uuid)) return undefined;
      const [row] = await query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id
         WHERE m.project_id = $project AND m.uuid = $uuid::uuid`,
        { project: projectId, uuid },
      );
      return row;
    },
    history: (request) => history(connection, request),
    perf: (request) => perf(connection, request),
    perfLines: (request) => perfLines(connection, request),
  };
}

/** NaN (absent) as NULL; the array columns below carry it as NaN and the statement turns it into NULL. */
const optional = (column: string) => `nullif(${column}, 'NaN')`;

/**
 * One statement for all the metrics of a report: every column travels as one array parameter and `unnest` turns
 * them back into rows, so a report of any size costs one round trip, never one per metric. Ids come from a
 * sequence every process shares (the embedded engine counts in memory; here several processes write), taken in
 * the metrics' order (PostgreSQL evaluates the volatile `nextval` after the sort) and answered with each metric's
 * UUID.
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

function metricsWriter(connection: Connection): MetricsWriter {
  return {
    ...metricsReader(connection),
    async append(report: ReportRecord, m) {
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
    },
    async deleteReport(reportId) {
      await execute(connection, 'DELETE FROM alert WHERE report_id = $report::int', { report: reportId });
      await execute(connection, 'DELETE FROM metric WHERE report_id = $report', { report: reportId });
      for (const statement of REGRESSION_PRUNE) await execute(connection, statement);
    },
  };
}

const TABLE_OF = {
  branch: 'branch',
  testbed: 'testbed',
  benchmark: 'benchmark',
  measure: 'measure',
} as const;

function namedReader(connection: Connection): NamedBatchReader {
  return {
    byIds(kind, ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return query<DimensionRecord>(
        connection,
        `SELECT * FROM ${ident(TABLE_OF[kind])} WHERE id = ANY($ids::int[])`,
        { ids: [...ids] },
      );
    },
    findMany(kind, projectId, keys) {
      if (keys.length === 0) return Promise.resolve([]);
      return query<DimensionRecord>(
        connection,
        `SELECT * FROM ${ident(TABLE_OF[kind])} WHERE project_id = $project
           AND (name = ANY($keys::text[]) OR slug = ANY($keys::text[]) OR uuid = ANY($uuids::uuid[]))`,
        { keys: [...keys], uuids: keys.filter(isUuid), project: projectId },
      );
    },
  };
}

function namedWriter(connection: Connection): NamedBatchWriter {
  return {
    ...namedReader(connection),
    insertMany(kind, projectId, rows, now) {
      if (rows.length === 0) return Promise.resolve([]);
      const units = kind === 'measure' ? ', units' : '';
      return query<DimensionRecord>(
        connection,
        `INSERT INTO ${ident(TABLE_OF[kind])} (uuid, project_id, name, slug, archived, created, modified${units})
         SELECT gen_random_uuid(), $project::int, r.name, r.slug, false, $now::timestamptz, $now::timestamptz${kind === 'measure' ? ', r.units' : ''}
         FROM unnest($names::text[], $slugs::text[], $units::text[]) AS r(name, slug, units)
         RETURNING *`,
        {
          project: projectId,
          names: rows.map((r) => r.name),
          slugs: rows.map((r) => r.slug),
          units: rows.map((r) => r.units ?? 'units'),
          now,
        },
      );
    },
    async ensureSeries(projectId, testbedId, pairs) {
      const out = new Int32Array(pairs.length);
      if (pairs.length === 0) return out;
      const key = (b: number, m: number) => `${b}:${m}`;
      const ids = new Map<string, number>();
      const find = async (wanted: readonly (readonly [number, number])[]) => {
        for (const s of await query<{ id: number; benchmark_id: number; measure_id: number }>(
          connection,
          `SELECT s.id, s.benchmark_id, s.measure_id FROM series s
           JOIN unnest($b::int[], $m::int[]) AS w(b, m) ON s.benchmark_id = w.b AND s.measure_id = w.m
           WHERE s.testbed_id = $testbed`,
          { testbed: testbedId, b: wanted.map((p) => p[0]), m: wanted.map((p) => p[1]) },
        ))
          ids.set(key(s.benchmark_id, s.measure_id), s.id);
      };
      const missing = () => [
        ...new Map(pairs.filter(([b, m]) => !ids.has(key(b, m))).map((p) => [key(p[0], p[1]), p])).values(),
      ];
      await find(pairs);
      const absent = missing();
      if (absent.length > 0) {
        // a concurrent writer (another process) creating the same series meets the unique index: this one then
        // reads the row the other made (or runs again, when that row is newer than its snapshot)
        await execute(
          connection,
          `INSERT INTO series (project_id, testbed_id, benchmark_id, measure_id)
           SELECT $project::int, $testbed::int, w.b, w.m FROM unnest($b::int[], $m::int[]) AS w(b, m)
           ON CONFLICT (testbed_id, benchmark_id, measure_id) DO NOTHING`,
          { project: projectId, testbed: testbedId, b: absent.map((p) => p[0]), m: absent.map((p) => p[1]) },
        );
        await find(absent);
      }
      pairs.forEach(([b, m], i) => (out[i] = ids.get(key(b, m)) as number));
      return out;
    },
  };
}

export const plots: TableSpec = {
  name: 'plot',
  columns: [
    'id',
    'uuid',
    'project_id',
    'rank',
    'title',
    'lower_value',
    'upper_value',
    'lower_boundary',
    'upper_boundary',
    'x_axis',
    'y_axis',
    'window_seconds',
    'branch_ids',
    'testbed_ids',
    'benchmark_ids',
    'measure_ids',
    'created',
    'modified',
  ],
  search: ['title', 'uuid'],
  key: ['rank', 'id'],
};

export function metricReaders(
  connection: Connection,
): Pick<ReadRepositories, 'reports' | 'metrics' | 'named' | 'plots'> {
  return {
    reports: reportsReader(connection),
    metrics: metricsReader(connection),
    named: namedReader(connection),
    plots: tableReader(connection, plots),
  };
}

export function metricWriters(
  connection: Connection,
): Pick<WriteRepositories, 'reports' | 'metrics' | 'named' | 'plots'> {
  return {
    reports: { ...tableWriter<ReportRecord, never>(connection, reports), ...reportsReader(connection) },
    metrics: metricsWriter(connection),
    named: namedWriter(connection),
    plots: tableWriter(connection, plots),
  };
}
