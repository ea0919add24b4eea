import type { DuckDBConnection } from '@duckdb/node-api';
import type { Database } from './database.js';
import { ident } from './sql.js';

const ALIAS = 'benchtrack_backup';

/**
 * Copies the database into a new DuckDB file with `COPY FROM DATABASE`, inside one read transaction on a
 * connection of its own: the copy is the snapshot of the moment the transaction began, and the writer never
 * waits for it (MVCC). Sequences are copied at their current value, which is at least the snapshot's, so ids
 * handed out after a restore never collide with copied rows.
 */
export async function snapshotTo(database: Database, file: string): Promise<void> {
  const connection = await database.connect();
  try {
    const rows = (await connection.runAndReadAll('SELECT current_database()')).getRows();
    const source = String(rows[0]?.[0]);
    await connection.run('BEGIN TRANSACTION');
    await copyInTransaction(connection, source, file);
    await connection.run(`DETACH ${ALIAS}`);
  } finally {
    database.disconnect(connection);
  }
}

async function copyInTransaction(connection: DuckDBConnection, source: string, file: string): Promise<void> {
  try {
    // the first read anchors the snapshot before the target exists
    await connection.run('SELECT count(*) FROM schema_migration');
    await connection.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${ALIAS}`);
    await connection.run(`COPY FROM DATABASE ${ident(source)} TO ${ALIAS}`);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    await connection.run(`DETACH DATABASE IF EXISTS ${ALIAS}`).catch(() => undefined);
    throw error;
  }
}
