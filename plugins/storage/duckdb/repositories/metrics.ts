import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
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
import type { HistoryCache } from '../history-cache.js';
import { execute, ident, query } from '../sql.js';
import { tableReader, tableWriter, type TableSpec } from '../table.js';
import { history } from './history.js';
import { perf, perfLines } from './perf.js';
import { reports, reportsReader } from './reports.js';

const METRIC_COLUMNS = `m.id, m.uuid, m.report_id, m.iteration, m.series_id, s.benchmark_id, s.measure_id, m.value,
  m.lower_value, m.upper_value, m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit`;

function metricsReader(connection: DuckDBConnection): MetricsReader {
  return {
    byReport(reportId) {
      return query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id
         WHERE m.report_id = $report ORDER BY m.iteration, s.benchmark_id, s.measure_id`,
        { report: reportId },
      );
    },
    byIds(ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id WHERE m.id IN (SELECT unnest($ids))`,
        { ids: [...ids] },
      );
    },
    async byUuid(projectId, uuid) {
      const [row] = await query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id
         WHERE m.project_id = $project AND m.uuid = TRY_CAST($uuid AS UUID)`,
        { project: projectId, uuid },
      );
      return row;
    },
    history: (request) => history(connection, request),
    perf: (request) => perf(connection, request),
    perfLines: (request) => perfLines(connection, request),
  };
}

function timestamp(date: Date): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(date.getTime()) * 1000n);
}

function appendOptional(appender: DuckDBAppender, value: number): void {
  if (Number.isNaN(value)) appender.appendNull();
  else appender.appendDouble(value);
}

function appendId(appender: DuckDBAppender, id: number): void {
  if (id === 0) appender.appendNull();
  else appender.appendInteger(id);
}

/** Reserves `count` consecutive metric ids and returns the first. */
export type IdReserver = (count: number) => Promise<bigint>;

function metricsWriter(
  connection: DuckDBConnection,
  reserveIds: IdReserver,
  cache: HistoryCache | undefined,
): MetricsWriter {
  return {
    ...metricsReader(connection),
    history: (request) => history(connection, request, cache),
    async append(report: ReportRecord, m) {
      const count = m.uuid.length;
      const ids = new BigInt64Array(count);
      if (count === 0) return ids;
      const first = await reserveIds(count);
      for (let i = 0; i < count; i++) ids[i] = first + BigInt(i);
      const appender = await connection.createAppender('metric');
      const start = timestamp(report.start_time);
      const end = timestamp(report.end_time);
      try {
        for (let i = 0; i < count; i++) {
          appender.appendBigInt(ids[i] as bigint);
          appender.appendVarchar(m.uuid[i] as string);
          appender.appendInteger(report.project_id);
          appender.appendInteger(report.id);
          appender.appendInteger(m.iteration[i] as number);
          appender.appendInteger(m.series[i] as number);
          appender.appendInteger(report.head_id);
          appender.appendInteger(report.version_id);
          appender.appendTimestamp(start);
          appender.appendTimestamp(end);
          appender.appendDouble(m.value[i] as number);
          appendOptional(appender, m.lower[i] as number);
          appendOptional(appender, m.upper[i] as number);
          appendId(appender, m.threshold[i] as number);
          appendId(appender, m.model[i] as number);
          appendOptional(appender, m.baseline[i] as number);
          appendOptional(appender, m.lowerLimit[i] as number);
          appendOptional(appender, m.upperLimit[i] as number);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      cache?.appended(
        report.head_id,
        m.series,
        Array.from(ids, (id, i) => ({
          value: m.value[i] as number,
          id: Number(id),
          start: report.start_time.getTime(),
          report: report.id,
          iteration: m.iteration[i] as number,
        })),
      );
      return ids;
    },
    async deleteReport(reportId) {
      await execute(connection, 'DELETE FROM alert WHERE report_id = $report', { report: reportId });
      await execute(connection, 'DELETE FROM metric WHERE report_id = $report', { report: reportId });
    },
  };
}

const TABLE_OF = {
  branch: 'branch',
  testbed: 'testbed',
  benchmark: 'benchmark',
  measure: 'measure',
} as const;

function namedReader(connection: DuckDBConnection): NamedBatchReader {
  return {
    byIds(kind, ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return query<DimensionRecord>(
        connection,
        `SELECT * FROM ${ident(TABLE_OF[kind])} WHERE id IN (SELECT unnest($ids))`,
        { ids: [...ids] },
      );
    },
    findMany(kind, projectId, keys) {
      if (keys.length === 0) return Promise.resolve([]);
      return query<DimensionRecord>(
        connection,
        `WITH ks AS (SELECT unnest($keys) AS k)
         SELECT * FROM ${ident(TABLE_OF[kind])} WHERE project_id = $project
           AND (name IN (SELECT k FROM ks) OR slug IN (SELECT k FROM ks) OR CAST(uuid AS VARCHAR) IN (SELECT k FROM ks))`,
        { keys: [...keys], project: projectId },
      );
    },
  };
}

function namedWriter(connection: DuckDBConnection): NamedBatchWriter {
  return {
    ...namedReader(connection),
    insertMany(kind, projectId, rows, now) {
      if (rows.length === 0) return Promise.resolve([]);
      const units = kind === 'measure' ? ', units' : '';
      return query<DimensionRecord>(
        connection,
        `INSERT INTO ${ident(TABLE_OF[kind])} (uuid, project_id, name, slug, archived, created, modified${units})
         SELECT uuid(), $project, unnest($names), unnest($slugs), false, $now, $now${kind === 'measure' ? ', unnest($units)' : ''}
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
      const params = {
        testbed: testbedId,
        b: pairs.map((p) => p[0]),
        m: pairs.map((p) => p[1]),
        project: projectId,
      };
      const found = await query<{ id: number; benchmark_id: number; measure_id: number }>(
        connection,
        `WITH want AS (SELECT unnest($b) AS benchmark_id, unnest($m) AS measure_id)
         SELECT s.id, s.benchmark_id, s.measure_id FROM series s JOIN want USING (benchmark_id, measure_id)
         WHERE s.testbed_id = $testbed`,
        params,
      );
      const ids = new Map(found.map((s) => [key(s.benchmark_id, s.measure_id), s.id]));
      const missing = [
        ...new Map(pairs.filter(([b, m]) => !ids.has(key(b, m))).map((p) => [key(p[0], p[1]), p])).values(),
      ];
      if (missing.length > 0) {
        const created = await query<{ id: number; benchmark_id: number; measure_id: number }>(
          connection,
          `INSERT INTO series (project_id, testbed_id, benchmark_id, measure_id)
           SELECT $project, $testbed, unnest($b), unnest($m) RETURNING id, benchmark_id, measure_id`,
          { ...params, b: missing.map((p) => p[0]), m: missing.map((p) => p[1]) },
        );
        for (const s of created) ids.set(key(s.benchmark_id, s.measure_id), s.id);
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
  connection: DuckDBConnection,
): Pick<ReadRepositories, 'reports' | 'metrics' | 'named' | 'plots'> {
  return {
    reports: reportsReader(connection),
    metrics: metricsReader(connection),
    named: namedReader(connection),
    plots: tableReader(connection, plots),
  };
}

/** `cache`: the writer's history cache, which only an exclusive storage keeps (history-cache.ts). */
export function metricWriters(
  connection: DuckDBConnection,
  reserveIds: IdReserver,
  cache: HistoryCache | undefined,
): Pick<WriteRepositories, 'reports' | 'metrics' | 'named' | 'plots'> {
  return {
    reports: { ...tableWriter<ReportRecord, never>(connection, reports), ...reportsReader(connection) },
    metrics: metricsWriter(connection, reserveIds, cache),
    named: namedWriter(connection),
    plots: tableWriter(connection, plots),
  };
}
