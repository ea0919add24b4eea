import { defineStorage, type Storage } from '../../../kit/index.js';
import { logMigrations, orClose, within } from '../shared/lifecycle.js';
import { recordedVersion } from '../shared/migrate.js';
import { readRepositories, writeRepositories } from '../shared/repositories.js';
import { postgresCounters } from './counters.js';
import { Database, optionsSchema, type PostgresOptions } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { keepPartitionsAhead } from './partitions.js';
import { locksWriter } from './locks.js';
import { append, history } from './metrics.js';
import { postgresDb, type Connection } from './sql.js';
import { replicaReads } from './replicas.js';
import { postgresTransfer } from './transfer.js';

export type { PostgresOptions } from './database.js';

const writer = (connection: Connection) =>
  writeRepositories(postgresDb(connection), {
    locks: locksWriter(connection),
    history: (request) => history(connection, request),
    append: append(connection),
  });

const reader = (connection: Connection) =>
  readRepositories(postgresDb(connection), (request) => history(connection, request));

/** PostgreSQL (`database.url: postgres://...`): several API processes share one database, writing concurrently. */
export const postgresStorage = defineStorage<PostgresOptions>({
  id: 'postgres',
  aliases: ['postgresql'],
  description: 'PostgreSQL server shared by any number of API processes (database.url: postgres://...)',
  capabilities: { singleWriter: false, columnarReads: true, exclusive: false },
  schemes: ['postgres', 'postgresql'],
  async open(options, { logger }): Promise<Storage> {
    const parsed = optionsSchema.parse(options);
    const database = await Database.open(parsed, logger.child({ plugin: 'postgres' }));
    const log = logger.child({ plugin: 'postgres', database: database.where });
    const close = () => database.close();
    const appliedMigrations = await orClose(() => migrate(database.sql, migrations, database.where), close);
    logMigrations(log, appliedMigrations);
    const [stopPartitions, counters, reads] = await orClose(
      async () =>
        [
          await keepPartitionsAhead(database, log),
          await postgresCounters(database),
          await replicaReads(database, parsed, log),
        ] as const,
      close,
    );
    return {
      capabilities: { ...this.capabilities, readReplicas: parsed.replicas.length > 0 },
      appliedMigrations,
      transfer: postgresTransfer(database),
      counters,
      schemaVersion: () => database.run((connection) => recordedVersion(postgresDb(connection))),
      async transaction(fn, options) {
        const result = await database.transaction(
          (connection) => within(writer(connection), 'transaction', fn),
          options,
        );
        await reads.written();
        return result;
      },
      read(fn, options) {
        const run = (connection: Connection) => within(reader(connection), 'read', fn);
        return options?.replica ? reads.read(run) : database.read(run);
      },
      health: () => database.health(),
      async close() {
        stopPartitions();
        await reads.close();
        await database.close();
      },
    };
  },
});

export default postgresStorage;
