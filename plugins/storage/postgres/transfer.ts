import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StorageTransfer, TransferValue } from '../../../kit/index.js';
import { ident } from '../shared/sql.js';
import { BATCH_ROWS, exportTables, importTables, type TableSource } from '../shared/transfer.js';
import { COUNTERS_TABLE } from './counters.js';
import { MONTHS_AHEAD } from './partitions.js';
import type { Database } from './database.js';
import type { Connection } from './sql.js';

/** The engine's own bookkeeping and ephemeral state, not part of the data model. */
const BOOKKEEPING = ['schema_migration', COUNTERS_TABLE].map((name) => `'${name}'`).join(', ');

/** The tables of a connection's transaction, for the shared export and checks. */
function source(sql: Connection): TableSource {
  return {
    tables: async () =>
      (
        await sql.unsafe<{ name: string }[]>(
          // a partitioned table is read and written whole; its partitions are no tables of their own here
          `SELECT c.relname AS name FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
              AND c.relname NOT IN (${BOOKKEEPING})
            ORDER BY c.relname`,
        )
      ).map((row) => row.name),
    columns: async (table) =>
      (
        await sql.unsafe<{ name: string }[]>(
          `SELECT column_name AS name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
          [table],
        )
      ).map((row) => row.name),
    count: async (table) =>
      Number((await sql.unsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${ident(table)}`))[0]?.n ?? 0),
    async *rows(text, columns) {
      for await (const found of sql.unsafe<Record<string, TransferValue>[]>(text).cursor(BATCH_ROWS))
        yield found.map((row) => columns.map((column) => row[column] ?? null));
    },
  };
}

/** One value in COPY's text format. */
function copyText(value: TransferValue): string {
  if (value === null) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.join(',')}}`;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value).replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
  );
}

/** Moves every id sequence past the highest id of the table that draws from it. */
async function advanceSequences(tx: Connection): Promise<void> {
  const sequences = await tx.unsafe<{ sequence: string; table: string }[]>(
    `SELECT s.sequencename AS sequence,
            coalesce(c.table_name, regexp_replace(s.sequencename, '_id_seq$', '')) AS table
       FROM pg_sequences s
       LEFT JOIN information_schema.columns c
         ON c.table_schema = s.schemaname AND c.column_default LIKE 'nextval(''' || s.sequencename || '''%'
      WHERE s.schemaname = current_schema()`,
  );
  const tables = new Set(await source(tx).tables());
  for (const { sequence, table } of sequences) {
    if (!tables.has(table)) continue;
    await tx.unsafe(
      `SELECT setval('${sequence}', greatest(max(id), 1), max(id) IS NOT NULL) FROM ${ident(table)}`,
    );
  }
}

/** Bulk export (one snapshot, cursors) and import (COPY) of a PostgreSQL database, for moving between engines. */
export function postgresTransfer(database: Database): StorageTransfer {
  return {
    /** Every table of the data model from one REPEATABLE READ snapshot on a connection of its own. */
    async *exportRows() {
      const connection = await database.sql.reserve();
      try {
        await connection.unsafe('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        yield* exportTables(source(connection));
        await connection.unsafe('COMMIT');
      } finally {
        connection.release();
      }
    },
    /** COPY FROM STDIN per batch, in one transaction; the batch's columns are named, so their order is free. */
    importRows: (batches) =>
      database.sql.begin(async (tx) => {
        const rows = await importTables(source(tx), database.where, batches, async (batch) => {
          if (batch.rows.length === 0) return;
          const target = await tx
            .unsafe(`COPY ${ident(batch.table)} (${batch.columns.map(ident).join(', ')}) FROM STDIN`)
            .writable();
          const lines = batch.rows.map((row) => `${row.map(copyText).join('\t')}\n`);
          await pipeline(Readable.from(lines), target);
        });
        await advanceSequences(tx);
        // the history's months get their partitions now, not at the next start (metrics of a month without one wait
        // in the default partition)
        await tx.unsafe(`SELECT metric_partitions_ahead(${MONTHS_AHEAD})`);
        return rows;
      }) as Promise<number>,
  };
}
