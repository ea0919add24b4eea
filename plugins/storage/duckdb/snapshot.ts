import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Database } from './database.js';
import { StorageError } from '../../../kit/index.js';
import { ident } from '../shared/sql.js';
import { inTransaction } from './sql.js';

/** Attached databases belong to the instance: each snapshot gets an alias of its own. */
let snapshots = 0;

/** One snapshot at a time per process: each copy gets the instance alone. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Copies the database into a new DuckDB file with `COPY FROM DATABASE` in one read transaction of its own (the
 * writer never waits), running `inside` on that transaction before the copy (replication reads the state the copy
 * holds). Sequences are copied at their current value, at least the snapshot's, so ids handed out after a restore
 * never collide with copied rows.
 */
export function snapshotTo<T>(
  database: Database,
  file: string,
  inside: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const turn = previous.then(async () => {
    const connection = await database.connect();
    const alias = `benchtrack_backup_${++snapshots}`;
    try {
      const [source, memoryLimit] = (
        await connection.runAndReadAll("SELECT current_database(), current_setting('memory_limit')")
      ).getRows()[0] as [string, string];
      const result = await inTransaction(connection, async () => {
        // the first read anchors the snapshot before the target exists
        await connection.run('SELECT count(*) FROM schema_migration');
        // before the copy: sequences are not transactional, and what `inside` reads of them must not be ahead of
        // the values the copy takes
        const read = await inside(connection);
        await connection.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${alias}`);
        await connection.run(`COPY FROM DATABASE ${ident(source)} TO ${alias}`);
        return read;
      }).catch(async (error: unknown) => {
        await connection.run(`DETACH DATABASE IF EXISTS ${alias}`).catch(() => undefined);
        throw error;
      });
      await connection.run(`DETACH ${alias}`);
      await checkpointAlone(database, file, memoryLimit);
      return result;
    } finally {
      database.disconnect(connection);
    }
  });
  previous = turn.catch(() => undefined);
  return turn;
}

/**
 * DETACH checkpoints the target only when no write transaction is active in the instance, so under ingest the copy
 * can stay in `<file>.wal`. An instance of its own replays that WAL and checkpoints it into the file, within the
 * server's memory limit.
 */
async function checkpointAlone(database: Database, file: string, memoryLimit: string): Promise<void> {
  if (!existsSync(`${file}.wal`)) return;
  const instance = await DuckDBInstance.create(file, { memory_limit: memoryLimit });
  try {
    const connection = await instance.connect();
    try {
      const setting = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
      database.logger.debug(
        { file, memory_limit: setting.getRows()[0]?.[0] },
        'snapshot checkpointed by an instance of its own',
      );
      await connection.run('CHECKPOINT');
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  if (existsSync(`${file}.wal`))
    throw new StorageError(`the snapshot ${file} was not checkpointed: its copy is still in its WAL file`);
}
