import { z } from 'zod';
import { defineStorage, type LocksWriter, type Storage, scopedRepositories } from '../../../kit/index.js';
import { MetricCompactor } from './compaction.js';
import { Database } from './database.js';
import { migrate, recordedVersion } from './migrate.js';
import { migrations } from './migrations/index.js';
import { accountReaders, accountWriters } from './repositories/accounts.js';
import { dimensionReaders, dimensionWriters } from './repositories/dimensions.js';
import { metaReader, metaWriter } from './repositories/meta.js';
import { plusReaders, plusWriters } from './repositories/plus.js';
import { regressionTables } from './repositories/regressions.js';
import { regressionReaders, regressionWriters } from '../shared/regressions.js';
import { metricReaders, metricWriters } from './repositories/metrics.js';
import { runnerReaders, runnerWriters } from './repositories/runners.js';
import { notificationTables } from './repositories/notifications.js';
import { notificationReaders, notificationWriters } from '../shared/notifications.js';
import { duckdbReplication } from './replication.js';
import { snapshotTo } from './snapshot.js';
import { duckdbTransfer } from './transfer.js';

/** The engine's memory ceiling when database.memory_limit is not set. */
export const DEFAULT_MEMORY_LIMIT = '1GiB';

/** One writer at a time already orders every write transaction: a lock has nothing left to order. */
const ONE_WRITER_LOCKS: LocksWriter = { hold: () => Promise.resolve(), tryHold: () => Promise.resolve(true) };

const optionsSchema = z.strictObject({
  file: z.string().min(1, { error: 'database file must not be empty' }),
  readers: z.number().int().min(1).max(64).default(4),
  /** WAL size at which a commit checkpoints, in DuckDB's notation ('16MB', its default); small for tests. */
  checkpoint_threshold: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)$/i, { error: 'checkpoint_threshold must look like 16MB' })
    .optional(),
  /**
   * DuckDB's memory_limit: the most its buffer manager holds (cached blocks, query state); larger sorts and
   * joins spill to `<file>.tmp`. Bounds the engine's share of the process's memory (docs/server-config.md).
   */
  memory_limit: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(MB|GB|TB|MiB|GiB|TiB)$/, { error: 'memory_limit must look like 1GiB' })
    .default(DEFAULT_MEMORY_LIMIT),
  /**
   * Whether closing checkpoints (DuckDB's default): folds the WAL into the file, 40-70 ms for a test's database.
   * false for throwaway files that are deleted after closing (tests); the next open replays the WAL instead.
   */
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
    let appliedMigrations;
    try {
      appliedMigrations = await migrate(database.setupConnection, migrations, database.path);
    } catch (error) {
      await database.close();
      throw error;
    }
    for (const migration of appliedMigrations)
      log.info(
        { migration: migration.version, migration_name: migration.name, path: database.path },
        'migration applied',
      );
    const compactor = new MetricCompactor(database, log);
    compactor.poke();
    return {
      capabilities: this.capabilities,
      appliedMigrations,
      transfer: duckdbTransfer(database),
      schemaVersion: () => database.read(recordedVersion),
      async transaction(fn) {
        let appended = 0;
        const result = await database.write(async (connection) => {
          const scope = scopedRepositories(
            {
              meta: metaWriter(connection),
              locks: ONE_WRITER_LOCKS,
              ...accountWriters(connection),
              ...dimensionWriters(
                connection,
                database.deferred,
                exclusive ? database.latestVersions : undefined,
              ),
              ...metricWriters(
                connection,
                (count) => {
                  appended += count;
                  return database.reserveMetricIds(connection, count);
                },
                exclusive ? database.historyCache : undefined,
                database.deferred,
              ),
              ...plusWriters(connection, database.deferred),
              ...regressionWriters(regressionTables(connection)),
              ...runnerWriters(connection),
              ...notificationWriters(notificationTables(connection)),
              ...notificationWriters(notificationTables(connection)),
            },
            'transaction',
          );
          try {
            return await fn(scope.repos);
          } finally {
            scope.end();
          }
        });
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
        database.read(async (connection) => {
          const scope = scopedRepositories(
            {
              meta: metaReader(connection),
              ...accountReaders(connection),
              ...dimensionReaders(connection),
              ...metricReaders(connection),
              ...plusReaders(connection),
              ...regressionReaders(regressionTables(connection)),
              ...runnerReaders(connection),
              ...notificationReaders(notificationTables(connection)),
              ...notificationReaders(notificationTables(connection)),
            },
            'read',
          );
          try {
            return await fn(scope.repos);
          } finally {
            scope.end();
          }
        }),
      async close() {
        await compactor.stop();
        await database.close();
      },
    };
  },
});

export default duckdbStorage;
