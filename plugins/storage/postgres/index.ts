import { z } from 'zod';
import { defineStorage, type SharedCounters, type Storage, scopedRepositories } from '../../../kit/index.js';
import { postgresCounters } from './counters.js';
import { Database } from './database.js';
import { migrate, recordedVersion } from './migrate.js';
import { migrations } from './migrations/index.js';
import { accountReaders, accountWriters } from './repositories/accounts.js';
import { dimensionReaders, dimensionWriters } from './repositories/dimensions.js';
import { locksWriter } from './repositories/locks.js';
import { metaReader, metaWriter } from './repositories/meta.js';
import { metricReaders, metricWriters } from './repositories/metrics.js';
import { plusReaders, plusWriters } from './repositories/plus.js';
import { regressionTables } from './repositories/regressions.js';
import { regressionReaders, regressionWriters } from '../shared/regressions.js';
import { runnerReaders, runnerWriters } from './repositories/runners.js';
import { notificationTables } from './repositories/notifications.js';
import { notificationReaders, notificationWriters } from '../shared/notifications.js';
import type { Connection } from './sql.js';
import { ReplicaReads } from './replicas.js';
import { postgresTransfer } from './transfer.js';

const optionsSchema = z.strictObject({
  url: z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' }),
  /** Connections of this process's pool at most (the server's max_connections is shared by every process). */
  max_connections: z.number().int().min(1).max(1000).default(10),
  /** Seconds to wait for a new connection before a call fails with 503. */
  connect_timeout_seconds: z.number().int().min(1).max(600).default(10),
  /** Streaming read replicas of the same database (database.replicas); reads go there once they caught up. */
  replicas: z
    .array(z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' }))
    .max(16)
    .default([]),
});

export type PostgresOptions = z.input<typeof optionsSchema>;

function writeRepositories(connection: Connection) {
  return {
    meta: metaWriter(connection),
    locks: locksWriter(connection),
    ...accountWriters(connection),
    ...dimensionWriters(connection),
    ...metricWriters(connection),
    ...plusWriters(connection),
    ...regressionWriters(regressionTables(connection)),
    ...runnerWriters(connection),
    ...notificationWriters(notificationTables(connection)),
  };
}

function readRepositories(connection: Connection) {
  return {
    meta: metaReader(connection),
    ...accountReaders(connection),
    ...dimensionReaders(connection),
    ...metricReaders(connection),
    ...plusReaders(connection),
    ...regressionReaders(regressionTables(connection)),
    ...runnerReaders(connection),
    ...notificationReaders(notificationTables(connection)),
  };
}

/** Runs `fn` on repositories that refuse every call once it has returned. */
async function within<R extends object, T>(
  repos: R,
  kind: 'transaction' | 'read',
  fn: (repos: R) => Promise<T>,
) {
  const scope = scopedRepositories(repos, kind);
  try {
    return await fn(scope.repos);
  } finally {
    scope.end();
  }
}

/**
 * PostgreSQL, selected by `database.url: postgres://...`: several API processes share one database. Writers of
 * every process run concurrently (SERIALIZABLE transactions, run again on conflict; READ COMMITTED with advisory
 * locks where the caller asks for `isolation: 'locked'`), so `singleWriter` is false.
 */
export const postgresStorage = defineStorage<PostgresOptions>({
  id: 'postgres',
  aliases: ['postgresql'],
  description: 'PostgreSQL server shared by any number of API processes (database.url: postgres://...)',
  capabilities: { singleWriter: false, columnarReads: true, exclusive: false },
  schemes: ['postgres', 'postgresql'],
  async open(options, { logger }): Promise<Storage> {
    const parsed = optionsSchema.parse(options);
    const database = await Database.open(
      {
        url: parsed.url,
        maxConnections: parsed.max_connections,
        connectTimeoutSeconds: parsed.connect_timeout_seconds,
      },
      logger.child({ plugin: 'postgres' }),
    );
    const log = logger.child({ plugin: 'postgres', database: database.where });
    let appliedMigrations;
    try {
      appliedMigrations = await migrate(database.sql, migrations, database.where);
    } catch (error) {
      await database.close();
      throw error;
    }
    for (const migration of appliedMigrations)
      log.info({ migration: migration.version, migration_name: migration.name }, 'migration applied');
    let reads: ReplicaReads;
    let counters: SharedCounters;
    try {
      counters = await postgresCounters(database);
      reads = await ReplicaReads.open(
        database,
        parsed.replicas,
        { maxConnections: parsed.max_connections, connectTimeoutSeconds: parsed.connect_timeout_seconds },
        log,
      );
    } catch (error) {
      await database.close();
      throw error;
    }
    return {
      capabilities: { ...this.capabilities, readReplicas: parsed.replicas.length > 0 },
      appliedMigrations,
      transfer: postgresTransfer(database),
      counters,
      schemaVersion: () => database.run(recordedVersion),
      async transaction(fn, options) {
        const result = await database.transaction(
          (connection) => within(writeRepositories(connection), 'transaction', fn),
          options,
        );
        await reads.written();
        return result;
      },
      read(fn, options) {
        const run = (connection: Connection) => within(readRepositories(connection), 'read', fn);
        return options?.replica ? reads.read(run) : database.read(run);
      },
      health: () => database.health(),
      async close() {
        await reads.close();
        await database.close();
      },
    };
  },
});

export default postgresStorage;
