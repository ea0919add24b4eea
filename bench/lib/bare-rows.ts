import { DuckDBInstance } from '@duckdb/node-api';
import type { BenchDatabase } from './engines.js';
import { bareConnection } from './postgres-bare.js';

/**
 * A reference read: `sql` on a connection of its own to the bench's database, no Benchtrack code, rows read as
 * objects. Answers the read (how many rows) and what closes its connection.
 */
export async function bareRows(
  db: BenchDatabase,
  sql: string,
): Promise<{ read: () => Promise<number>; close: () => Promise<void> }> {
  if (db.engine === 'duckdb') {
    const instance = await DuckDBInstance.create(db.file);
    const connection = await instance.connect();
    return {
      read: async () => (await connection.runAndReadAll(sql)).getRowObjectsJS().length,
      close: async () => {
        connection.closeSync();
        instance.closeSync();
      },
    };
  }
  const connection = bareConnection(db.url);
  return { read: async () => (await connection.unsafe(sql)).length, close: () => connection.end() };
}
