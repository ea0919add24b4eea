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

/**
 * Refuses a target with any row (a migration never merges into existing data), then hands `write` the batches,
 * table after table (`first` at each table's first batch), each table's columns checked against the target's (in
 * any order they are the same table). Answers the rows written.
 */
export async function importTables(
  target: TableSource,
  where: string,
  batches: AsyncIterable<RowBatch>,
  write: (batch: RowBatch, first: boolean) => Promise<void>,
): Promise<number> {
  for (const table of await target.tables()) {
    const rows = await target.count(table);
    if (rows > 0)
      throw new ConflictError(
        `the target database ${where} is not empty (table ${table} has ${rows} rows): migrate into a new, empty database`,
      );
  }
  let table: string | undefined;
  let rows = 0;
  for await (const batch of batches) {
    const first = batch.table !== table;
    if (first) {
      const columns = await target.columns(batch.table);
      if (columns.length === 0)
        throw new StorageError(`table ${batch.table} does not exist in the target database`);
      if ([...columns].sort().join() !== [...batch.columns].sort().join())
        throw new StorageError(
          `table ${batch.table} has columns (${batch.columns.join(', ')}) in the source and (${columns.join(', ')}) in the target; migrate between databases of the same Benchtrack version`,
        );
      table = batch.table;
    }
    await write(batch, first);
    rows += batch.rows.length;
  }
  return rows;
}
