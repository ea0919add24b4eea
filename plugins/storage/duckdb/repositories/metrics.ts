import duckdb from '@duckdb/node-bindings';
import type { DuckDBConnection } from '@duckdb/node-api';
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
import { StorageError } from '../../../../kit/index.js';
import type { DeferredRows } from '../deferred.js';
import type { HistoryCache } from '../history-cache.js';
import { execute, ident, query } from '../sql.js';
import { REGRESSION_PRUNE } from '../../shared/regressions.js';
import { deferredInsert, tableReader, tableWriter, type TableSpec } from '../table.js';
import { history } from './history.js';
import { perf, perfLines } from './perf.js';
import { reportRows, reports, reportsReader } from './reports.js';

const METRIC_COLUMNS = `m.id, m.uuid, m.report_id, m.iteration, m.series_id, s.benchmark_id, s.measure_id, m.value,
  m.lower_value, m.upper_value, m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit`;

function metricsReader(connection: DuckDBConnection): MetricsReader {
  return {
    byReports(reportIds) {
      if (reportIds.length === 0) return Promise.resolve([]);
      return query<MetricRecord>(
        connection,
        `SELECT ${METRIC_COLUMNS} FROM metric m JOIN series s ON s.id = m.series_id
         WHERE m.report_id IN (SELECT unnest($reports))
         ORDER BY m.report_id, m.iteration, s.benchmark_id, s.measure_id`,
        { reports: [...reportIds] },
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

/** Reserves `count` consecutive metric ids and returns the first. */
export type IdReserver = (count: number) => Promise<bigint>;

const T = duckdb.Type;

/** NULL where a number is NaN (the writers' "no value"). */
function nansOf(values: Float64Array): Uint8Array {
  const nulls = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) nulls[i] = 1;
  return nulls;
}

/** NULL where an id is 0 (the writers' "no threshold"). */
function zerosOf(ids: Int32Array): Uint8Array {
  const nulls = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) if (ids[i] === 0) nulls[i] = 1;
  return nulls;
}

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789abcdefABCDEF'.charCodeAt(i)] = i;
for (let i = 10; i < 16; i++) HEX['ABCDEF'.charCodeAt(i - 10)] = i;

/**
 * UUID texts in DuckDB's layout of a UUID: a 128-bit integer, the low 64 bits (UUID bytes 8-15) first, then the
 * high 64 bits (bytes 0-7) with the sign bit flipped, both little-endian (columns.ts reads the same layout).
 */
export function uuidColumn(uuids: readonly string[]): Uint8Array {
  const out = new Uint8Array(uuids.length * 16);
  uuids.forEach((text, row) => {
    let byte = 0;
    for (let at = 0; at < text.length && byte < 16; at++) {
      const hi = HEX[text.charCodeAt(at)] ?? -1;
      if (hi < 0) continue;
      const lo = HEX[text.charCodeAt(++at)] ?? -1;
      if (lo < 0) throw new StorageError(`metric uuid ${text} is not a UUID`);
      // both halves little-endian, low half first: UUID byte k lands at 15 - k
      out[row * 16 + 15 - byte] = (hi << 4) | lo;
      byte++;
    }
    if (byte !== 16) throw new StorageError(`metric uuid ${text} is not a UUID`);
    out[row * 16 + 15] = (out[row * 16 + 15] as number) ^ 0x80;
  });
  return out;
}

function metricsWriter(
  connection: DuckDBConnection,
  reserveIds: IdReserver,
  cache: HistoryCache | undefined,
  deferred: DeferredRows,
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
      const int = (value: number) => ({ type: T.INTEGER, data: new Int32Array(count).fill(value) });
      const time = (date: Date) => ({
        type: T.TIMESTAMP,
        data: new BigInt64Array(count).fill(BigInt(date.getTime()) * 1000n),
      });
      const double = (values: Float64Array) => ({ type: T.DOUBLE, data: values, nulls: nansOf(values) });
      // the metric table's columns, in order
      await deferred.appendChunk('metric', count, [
        { type: T.BIGINT, data: ids },
        { type: T.UUID, data: uuidColumn(m.uuid) },
        int(report.project_id),
        int(report.id),
        { type: T.INTEGER, data: m.iteration },
        { type: T.INTEGER, data: m.series },
        int(report.head_id),
        int(report.version_id),
        time(report.start_time),
        time(report.end_time),
        { type: T.DOUBLE, data: m.value },
        double(m.lower),
        double(m.upper),
        { type: T.INTEGER, data: m.threshold, nulls: zerosOf(m.threshold) },
        { type: T.INTEGER, data: m.model, nulls: zerosOf(m.model) },
        double(m.baseline),
        double(m.lowerLimit),
        double(m.upperLimit),
      ]);
      cache?.appended(
        report.head_id,
        m.series,
        Array.from(ids, (id, i) => ({
          value: m.value[i] as number,
          id,
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

/**
 * `cache`: the writer's history cache, which only an exclusive storage keeps (history-cache.ts). `deferred`: the
 * writer's deferred rows, where reports and metrics wait until a statement or the COMMIT needs them (deferred.ts).
 */
export function metricWriters(
  connection: DuckDBConnection,
  reserveIds: IdReserver,
  cache: HistoryCache | undefined,
  deferred: DeferredRows,
): Pick<WriteRepositories, 'reports' | 'metrics' | 'named' | 'plots'> {
  return {
    reports: {
      ...tableWriter<ReportRecord, never>(connection, reports),
      ...reportsReader(connection),
      insert: (values) => deferredInsert<ReportRecord>(deferred, reportRows, values),
    },
    metrics: metricsWriter(connection, reserveIds, cache, deferred),
    named: namedWriter(connection),
    plots: tableWriter(connection, plots),
  };
}
