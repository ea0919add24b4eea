import { InputError } from '../errors.js';
import type { RowBatch, Storage } from './storage.js';

/** Where a copy is: rows of `table` copied so far out of its `total`. */
export interface CopyProgress {
  readonly table: string;
  readonly copied: number;
  readonly total: number;
}

/**
 * Copies every row of `from` into `to`, which must be empty, table by table in bulk with ids preserved (the
 * engines' `transfer` capability), all or nothing. Answers the rows copied per table.
 */
export async function copyDatabase(
  from: Storage,
  to: Storage,
  progress: (at: CopyProgress) => void = () => undefined,
): Promise<Map<string, number>> {
  if (!from.transfer)
    throw new InputError('the source storage engine cannot export its rows (no transfer capability)');
  if (!to.transfer)
    throw new InputError('the target storage engine cannot import rows (no transfer capability)');
  const copied = new Map<string, number>();
  const source = from.transfer.exportRows();
  async function* counted(): AsyncGenerator<RowBatch> {
    for await (const batch of source) {
      const rows = (copied.get(batch.table) ?? 0) + batch.rows.length;
      copied.set(batch.table, rows);
      yield batch;
      progress({ table: batch.table, copied: rows, total: batch.total });
    }
  }
  await to.transfer.importRows(counted());
  return copied;
}
