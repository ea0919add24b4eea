import {
  dateValue,
  DuckDBTimestampValue,
  INTEGER,
  LIST,
  listValue,
  type DuckDBAppender,
  type DuckDBConnection,
} from '@duckdb/node-api';
import { StorageError, type RowBatch, type StorageTransfer, type TransferValue } from '../../../kit/index.js';
import { exportTables, importTables, type TableSource } from '../shared/transfer.js';
import { dataTables } from './compaction.js';
import type { Database } from './database.js';
import { ident } from '../shared/sql.js';

/** A table's columns in order, each with its type and the sequence its default draws from, if any. */
async function columnsOf(connection: DuckDBConnection, table: string) {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type, column_default FROM duckdb_columns()
      WHERE database_name = current_database() AND schema_name = 'main' AND table_name = '${table}'
      ORDER BY column_index`,
  );
  return reader.getRows().map(([name, type, fallback]) => ({
    name: String(name),
    type: String(type),
    sequence: /nextval\('([a-z_]+)'\)/.exec(String(fallback ?? ''))?.[1],
  }));
}

/** The tables of a connection's transaction, for the shared export and checks. */
function source(connection: DuckDBConnection): TableSource {
  return {
    // the migrations' ledger is the engine's own bookkeeping, not part of the data model
    tables: async () =>
      [...(await dataTables(connection)).keys()].filter((name) => name !== 'schema_migration'),
    columns: async (table) => (await columnsOf(connection, table)).map((column) => column.name),
    count: async (table) =>
      Number((await connection.runAndReadAll(`SELECT count(*) FROM ${ident(table)}`)).getRows()[0]?.[0]),
    async *rows(sql) {
      for await (const chunk of (await connection.stream(sql)).yieldRowsJs())
        yield chunk as TransferValue[][];
    },
  };
}

function appendValue(appender: DuckDBAppender, type: string, value: TransferValue): void {
  if (value === null) return appender.appendNull();
  switch (type) {
    case 'INTEGER':
      return appender.appendInteger(Number(value));
    case 'BIGINT':
      return appender.appendBigInt(BigInt(value as number | bigint));
    case 'DOUBLE':
      return appender.appendDouble(Number(value));
    case 'BOOLEAN':
      return appender.appendBoolean(Boolean(value));
    case 'TIMESTAMP':
      return appender.appendTimestamp(new DuckDBTimestampValue(BigInt((value as Date).getTime()) * 1000n));
    case 'DATE':
      // a calendar day, exported as midnight UTC by either engine
      return appender.appendDate(dateValue(Math.floor((value as Date).getTime() / 86_400_000)));
    case 'INTEGER[]':
      return appender.appendList(listValue([...(value as readonly number[])]), LIST(INTEGER));
    default:
      return appender.appendVarchar(String(value));
  }
}

/** Appends the batches table by table with the Appender, in one write transaction. */
async function importRows(
  database: Database,
  connection: DuckDBConnection,
  batches: AsyncIterable<RowBatch>,
): Promise<number> {
  let appender: DuckDBAppender | undefined;
  // each target column's type and place in the batch (in any order)
  let columns: { type: string; from: number }[] = [];
  const sequences: { sequence: string; table: string; column: string }[] = [];
  const rows = await importTables(source(connection), database.path, batches, async (batch, first) => {
    if (first) {
      appender?.closeSync();
      appender = await connection.createAppender(batch.table);
      const target = await columnsOf(connection, batch.table);
      columns = target.map(({ name, type }) => ({ type, from: batch.columns.indexOf(name) }));
      for (const { name, sequence } of target)
        if (sequence) sequences.push({ sequence, table: batch.table, column: name });
    }
    for (const row of batch.rows) {
      for (const { type, from } of columns) appendValue(appender!, type, row[from] ?? null);
      appender!.endRow();
    }
  });
  appender?.closeSync();
  // each sequence past the highest id copied into its table, so ids handed out next never collide
  for (const { sequence, table, column } of sequences)
    await connection.run(
      `SELECT max(nextval('${sequence}')) FROM range((SELECT coalesce(max(${ident(column)}), 0) FROM ${ident(table)}))`,
    );
  database.forgetMetricIds();
  return rows;
}

/** Bulk export and import of a DuckDB database, for moving it to another engine and back. */
export function duckdbTransfer(database: Database): StorageTransfer {
  return {
    /** Every table of the data model, batch by batch, from one read transaction of its own (writers never wait). */
    async *exportRows() {
      const connection = await database.connect();
      try {
        // the first read anchors the snapshot
        await connection.run('BEGIN TRANSACTION');
        yield* exportTables(source(connection));
        await connection.run('COMMIT');
      } finally {
        database.disconnect(connection);
      }
    },
    importRows(batches) {
      let started = false;
      return database.write((connection) => {
        // a group commit may run a write again; the batches were consumed the first time
        if (started)
          throw new StorageError(
            'a bulk import cannot run twice in one transaction; start the migration again',
          );
        started = true;
        return importRows(database, connection, batches);
      });
    },
  };
}
