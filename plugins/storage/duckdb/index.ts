import { z } from 'zod';
import { defineStorage, type Storage } from '../../../kit/index.js';
import { logMigrations, orClose, within } from '../shared/lifecycle.js';
import { MetricCompactor } from './compaction.js';
import { Database } from './database.js';
import { migrate, recordedVersion } from './migrate.js';
import { migrations } from './migrations/index.js';
import { duckdbReplication } from './replication.js';
import { readRepositories } from '../shared/repositories.js';
import { history } from './history.js';
import { snapshotTo } from './snapshot.js';
import { duckDb } from './sql.js';
import { duckdbWriter } from './writes.js';
import { duckdbTransfer } from './transfer.js';

/** The engine's memory ceiling when database.memory_limit is not set. */
export const DEFAULT_MEMORY_LIMIT = '1GiB';

const optionsSchema = z.strictObject({
  file: z.string().min(1, { error: 'database file must not be empty' }),
  readers: z.number().int().min(1).max(64).default(4),
  /** WAL size at which a commit checkpoints, in DuckDB's notation ('16MB', its default); small for tests. */
  checkpoint_threshold: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)$/i, { error: 'checkpoint_threshold must look like 16MB' })
    .optional(),
  /** DuckDB's memory_limit: the most its buffer manager holds; larger sorts and joins spill to `<file>.tmp`. */
  memory_limit: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(MB|GB|TB|MiB|GiB|TiB)$/, { error: 'memory_limit must look like 1GiB' })
    .default(DEFAULT_MEMORY_LIMIT),
  /** Whether closing checkpoints (DuckDB's default); false for throwaway files deleted after closing (tests). */
  checkpoint_on_close: z.boolean().default(true),
});

export type DuckDbOptions = z.input<typeof optionsSchema>;

/** The embedded default: one DuckDB file at `database.file`. */
export const duckdbStorage = defineStorage<DuckDbOptions>({
  id: 'duckdb',
  description: 'Embedded DuckDB database in one file (database.file)',
  capabilities: { singleWriter: true, columnarReads: true, exclusive: true },
  schemes: ['file'],
  async open(options, { logger }): Promise<Storage> {
    const parsed = optionsSchema.parse(options);
    // an in-process history cache is exact only while this process is the database's only writer
    const { exclusive } = this.capabilities;
    const log = logger.child({ plugin: 'duckdb' });
    const database = await Database.open(
      {
        file: parsed.file,
        readers: parsed.readers,
        checkpointThreshold: parsed.checkpoint_threshold,
        memoryLimit: parsed.memory_limit,
        checkpointOnClose: parsed.checkpoint_on_close,
      },
      log,
    );
    const appliedMigrations = await orClose(
      () => migrate(database.setupConnection, migrations, database.path),
      () => database.close(),
    );
    logMigrations(log, appliedMigrations, { path: database.path });
    const compactor = new MetricCompactor(database, log);
    compactor.poke();
    return {
      capabilities: this.capabilities,
      appliedMigrations,
      transfer: duckdbTransfer(database),
      schemaVersion: () => database.read(recordedVersion),
      async transaction(fn) {
        let appended = 0;
        const result = await database.write((connection) =>
          within(
            duckdbWriter(connection, database, exclusive, (count) => (appended += count)),
            'transaction',
            fn,
          ),
        );
        if (appended > 0) {
          compactor.appended(appended);
          compactor.poke();
        }
        return result;
      },
      maintain: () => compactor.run(true),
      backup: (file) => snapshotTo(database, file),
      replication: duckdbReplication(database),
      health: () => database.health(),
      read: (fn) =>
        database.read((connection) =>
          within(
            readRepositories(duckDb(connection), (request) => history(connection, request)),
            'read',
            fn,
          ),
        ),
      async close() {
        await compactor.stop();
        await database.close();
      },
    };
  },
});

export default duckdbStorage;
