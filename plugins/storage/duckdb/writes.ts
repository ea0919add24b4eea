import duckdb from '@duckdb/node-bindings';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  StorageError,
  type HeadVersionRecord,
  type LocksWriter,
  type ReportRecord,
  type VersionRecord,
  type WriteRepositories,
} from '../../../kit/index.js';
import { writeRepositories } from '../shared/repositories.js';
import type { Database } from './database.js';
import type { Cell, DeferredRows, DeferredTable, DeferredType } from './deferred.js';
import { history } from './history.js';
import { duckDb } from './sql.js';

/** One writer at a time already orders every write transaction: a lock has nothing left to order. */
const ONE_WRITER_LOCKS: LocksWriter = { hold: () => Promise.resolve(), tryHold: () => Promise.resolve(true) };

/**
 * A table every report writes, as ingest inserts into it through the writer's deferred rows (deferred.ts): its
 * columns as `name TYPE, ...`, in table order.
 */
const deferredTable = (name: string, columns: string): DeferredTable => ({
  name,
  columns: columns.split(',').map((column) => column.trim().split(/\s+/) as [string, DeferredType]),
});
const reportRows = deferredTable(
  'report',
  `id INTEGER, uuid UUID, project_id INTEGER, user_id INTEGER, branch_id INTEGER, head_id INTEGER,
   version_id INTEGER, testbed_id INTEGER, adapter VARCHAR, idempotency_key UUID, start_time TIMESTAMP,
   end_time TIMESTAMP, created TIMESTAMP`,
);
const versionRows = deferredTable(
  'version',
  'id INTEGER, uuid UUID, project_id INTEGER, number INTEGER, hash VARCHAR, created TIMESTAMP',
);
const headVersionRows = deferredTable('head_version', 'head_id INTEGER, version_id INTEGER');
const usageRows = deferredTable(
  'usage_entry',
  'id BIGINT, organization_id INTEGER, day DATE, metrics BIGINT',
);

/**
 * `insert` into a table that every report writes, through the deferred rows instead of an INSERT statement: an
 * absent id from a block of the table's sequence (`<table>_id_seq`, shared/schema.ts), every other column from
 * `values` (absent ones NULL, UUIDs in lower case), which is also the row answered, as the table would show it.
 */
async function deferredInsert<R>(deferred: DeferredRows, table: DeferredTable, values: object): Promise<R> {
  const given = values as Record<string, Cell | undefined>;
  for (const [column, value] of Object.entries(given)) {
    if (value !== undefined && !table.columns.some(([name]) => name === column))
      throw new StorageError(`${table.name} has no column ${column}`);
  }
  const row: Record<string, Cell> = {};
  for (const [column, type] of table.columns) {
    const value = given[column] ?? null;
    if (column === 'id' && value === null) row.id = await deferred.nextId(`${table.name}_id_seq`);
    else row[column] = type === 'UUID' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  deferred.insert(table, row);
  return row as R;
}

/**
 * The write repositories of a transaction on the writer connection: the shared ones, with the rows every report
 * writes going through the deferred rows and the Appender, and the history cache and the newest versions of heads
 * kept beside the writer (exact because this process is the file's only writer).
 */
export function duckdbWriter(
  connection: DuckDBConnection,
  database: Database,
  appended: (count: number) => void,
): WriteRepositories {
  const { deferred, historyCache: cache, latestVersions: latest } = database;
  const shared = writeRepositories(duckDb(connection), {
    locks: ONE_WRITER_LOCKS,
    history: (request) => history(connection, request, cache),
    // a report's metrics as one data chunk through the writer's Appender (deferred.ts), ids reserved in this
    // process, and told to the history cache
    append: async (report, m) => {
      const count = m.uuid.length;
      const ids = new BigInt64Array(count);
      if (count === 0) return ids;
      appended(count);
      const first = await database.reserveMetricIds(connection, count);
      for (let i = 0; i < count; i++) ids[i] = first + BigInt(i);
      const int = (value: number) => ({ type: T.INTEGER, data: new Int32Array(count).fill(value) });
      const time = (date: Date) => ({
        type: T.TIMESTAMP,
        data: new BigInt64Array(count).fill(BigInt(date.getTime()) * 1000n),
      });
      const double = (values: Float64Array) => ({
        type: T.DOUBLE,
        data: values,
        nulls: nullsWhere(values, Number.isNaN),
      });
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
        { type: T.INTEGER, data: m.threshold, nulls: nullsWhere(m.threshold, isZero) },
        { type: T.INTEGER, data: m.model, nulls: nullsWhere(m.model, isZero) },
        double(m.baseline),
        double(m.lowerLimit),
        double(m.upperLimit),
      ]);
      cache.appended(
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
  });
  return {
    ...shared,
    heads: {
      ...shared.heads,
      async latestVersion(headId) {
        const known = latest.get(headId);
        if (known !== undefined) return known ?? undefined;
        const row = await shared.heads.latestVersion(headId);
        latest.set(headId, row ?? null);
        return row;
      },
    },
    headVersions: {
      ...shared.headVersions,
      async insert(values) {
        const row = await deferredInsert<HeadVersionRecord>(deferred, headVersionRows, values);
        latest.linked(row.head_id, row.version_id);
        return row;
      },
    },
    versions: {
      ...shared.versions,
      async insert(values) {
        const row = await deferredInsert<VersionRecord>(deferred, versionRows, values);
        latest.inserted(row);
        return row;
      },
    },
    reports: {
      ...shared.reports,
      insert: (values) => deferredInsert<ReportRecord>(deferred, reportRows, values),
    },
    usage: {
      ...shared.usage,
      async recordMetrics(organizationId, day, metrics) {
        await deferredInsert(deferred, usageRows, { organization_id: organizationId, day, metrics });
      },
    },
  };
}

const T = duckdb.Type;

/** NULL (1) where `isNull` holds of a value: NaN is the writers' "no value", an id of 0 their "none". */
function nullsWhere(values: Float64Array | Int32Array, isNull: (value: number) => boolean): Uint8Array {
  const nulls = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) if (isNull(values[i] as number)) nulls[i] = 1;
  return nulls;
}
const isZero = (value: number) => value === 0;

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 22; i++) HEX['0123456789abcdefABCDEF'.charCodeAt(i)] = i < 16 ? i : i - 6;

/**
 * UUID texts in DuckDB's layout of a UUID: a 128-bit integer, the low 64 bits (UUID bytes 8-15) first, then the
 * high 64 bits (bytes 0-7) with the sign bit flipped, both little-endian (columns.ts reads the same layout).
 */
function uuidColumn(uuids: readonly string[]): Uint8Array {
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
