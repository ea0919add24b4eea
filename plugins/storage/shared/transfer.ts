import { ConflictError, StorageError, type RowBatch, type TransferValue } from '../../../kit/index.js';
import { ident } from './sql.js';

/** Rows per exported batch: small enough to hold many batches in memory. */
export const BATCH_ROWS = 16_384;

/** What a bulk copy reads of a database, inside the transaction that holds its snapshot. */
export interface TableSource {
  /** The tables of the data model (not the engine's bookkeeping), in name order. */
  tables(): Promise<string[]>;
  columns(table: string): Promise<string[]>;
  count(table: string): Promise<number>;
  /** The rows of a SELECT, in batches of at most about BATCH_ROWS, as values in column order. */
  rows(sql: string, columns: readonly string[]): AsyncIterable<TransferValue[][]>;
}

/** Every table of the data model, batch by batch, ordered by id (or by every column where there is none). */
export async function* exportTables(source: TableSource): AsyncGenerator<RowBatch> {
  for (const table of await source.tables()) {
    const columns = await source.columns(table);
    const total = await source.count(table);
    const order = columns.includes('id') ? 'id' : columns.map(ident).join(', ');
    let rows: TransferValue[][] = [];
    let sent = false;
    for await (const found of source.rows(`SELECT * FROM ${ident(table)} ORDER BY ${order}`, columns)) {
      rows.push(...found);
      if (rows.length >= BATCH_ROWS) {
        yield { table, columns, rows, total };
        rows = [];
        sent = true;
      }
    }
    if (rows.length > 0 || !sent) yield { table, columns, rows, total };
  }
}

/** Refuses a database with any row: a migration never merges into existing data. */
export async function requireEmpty(source: TableSource, where: string): Promise<void> {
  for (const table of await source.tables()) {
    const rows = await source.count(table);
    if (rows > 0)
      throw new ConflictError(
        `the target database ${where} is not empty (table ${table} has ${rows} rows): migrate into a new, empty database`,
      );
  }
}

/** Refuses a batch whose table has other columns in the target (in any order they are the same table). */
export function checkColumns(batch: RowBatch, target: readonly string[]): void {
  if (target.length === 0)
    throw new StorageError(`table ${batch.table} does not exist in the target database`);
  if ([...target].sort().join() !== [...batch.columns].sort().join())
    throw new StorageError(
      `table ${batch.table} has columns (${batch.columns.join(', ')}) in the source and (${target.join(', ')}) in the target; migrate between databases of the same Benchtrack version`,
    );
}
