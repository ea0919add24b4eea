import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sql, TransactionSql } from 'postgres';
import { ConflictError, StorageError } from '../../../kit/index.js';
import type { RowBatch, StorageTransfer, TransferValue } from '../../../kit/index.js';
import { COUNTERS_TABLE } from './counters.js';
import type { Database } from './database.js';

/** Rows per exported batch (one cursor fetch). */
const BATCH_ROWS = 16_384;

/** The engine's own bookkeeping and ephemeral state, not part of the data model. */
const BOOKKEEPING = ['schema_migration', COUNTERS_TABLE].map((name) => `'${name}'`).join(', ');

type Runner = Pick<Sql, 'unsafe'>;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function dataTables(sql: Runner): Promise<string[]> {
  const rows = await sql.unsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN (${BOOKKEEPING})
      ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

async function columnsOf(sql: Runner, table: string): Promise<string[]> {
  const rows = await sql.unsafe<{ name: string }[]>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => row.name);
}

const countOf = async (sql: Runner, table: string) =>
  Number((await sql.unsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${ident(table)}`))[0]?.n ?? 0);

/** Every table of the data model from one REPEATABLE READ snapshot on a connection of its own. */
async function* exportRows(database: Database): AsyncGenerator<RowBatch> {
  const connection = await database.sql.reserve();
  try {
    await connection.unsafe('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const table of await dataTables(connection)) {
      const columns = await columnsOf(connection, table);
      const total = await countOf(connection, table);
      const order = columns.includes('id') ? 'id' : columns.map(ident).join(', ');
      const cursor = connection
        .unsafe<Record<string, TransferValue>[]>(`SELECT * FROM ${ident(table)} ORDER BY ${order}`)
        .cursor(BATCH_ROWS);
      let sent = false;
      for await (const found of cursor) {
        sent = true;
        yield {
          table,
          columns,
          rows: found.map((row) => columns.map((column) => row[column] ?? null)),
          total,
        };
      }
      if (!sent) yield { table, columns, rows: [], total };
    }
    await connection.unsafe('COMMIT');
  } finally {
    connection.release();
  }
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

async function requireEmpty(tx: TransactionSql, where: string): Promise<void> {
  for (const table of await dataTables(tx)) {
    const rows = await countOf(tx, table);
    if (rows > 0)
      throw new ConflictError(
        `the target database ${where} is not empty (table ${table} has ${rows} rows): migrate into a new, empty database`,
      );
  }
}

/** Moves every id sequence past the highest id of the table that draws from it. */
async function advanceSequences(tx: TransactionSql): Promise<void> {
  const sequences = await tx.unsafe<{ sequence: string; table: string }[]>(
    `SELECT s.sequencename AS sequence,
            coalesce(c.table_name, regexp_replace(s.sequencename, '_id_seq$', '')) AS table
       FROM pg_sequences s
       LEFT JOIN information_schema.columns c
         ON c.table_schema = s.schemaname AND c.column_default LIKE 'nextval(''' || s.sequencename || '''%'
      WHERE s.schemaname = current_schema()`,
  );
  const tables = new Set(await dataTables(tx));
  for (const { sequence, table } of sequences) {
    if (!tables.has(table)) continue;
    await tx.unsafe(
      `SELECT setval('${sequence}', greatest(max(id), 1), max(id) IS NOT NULL) FROM ${ident(table)}`,
    );
  }
}

/** COPY FROM STDIN per batch, in one transaction; the batch's columns are named, so their order is free. */
async function importRows(database: Database, batches: AsyncIterable<RowBatch>): Promise<number> {
  return database.sql.begin(async (tx) => {
    await requireEmpty(tx, database.where);
    const known = new Map<string, string[]>();
    let rows = 0;
    for await (const batch of batches) {
      let columns = known.get(batch.table);
      if (!columns) {
        columns = await columnsOf(tx, batch.table);
        if ([...columns].sort().join() !== [...batch.columns].sort().join())
          throw new StorageError(
            `table ${batch.table} has columns (${batch.columns.join(', ')}) in the source and (${columns.join(', ')}) in the target; migrate between databases of the same Benchtrack version`,
          );
        known.set(batch.table, columns);
      }
      if (batch.rows.length === 0) continue;
      const target = await tx
        .unsafe(`COPY ${ident(batch.table)} (${batch.columns.map(ident).join(', ')}) FROM STDIN`)
        .writable();
      const lines = batch.rows.map((row) => `${row.map(copyText).join('\t')}\n`);
      await pipeline(Readable.from(lines), target);
      rows += batch.rows.length;
    }
    await advanceSequences(tx);
    return rows;
  }) as Promise<number>;
}

/** Bulk export (one snapshot, cursors) and import (COPY) of a PostgreSQL database, for moving between engines. */
export function postgresTransfer(database: Database): StorageTransfer {
  return {
    exportRows: () => exportRows(database),
    importRows: (batches) => importRows(database, batches),
  };
}
