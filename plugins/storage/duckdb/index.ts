import { defineStorage, type Storage } from '../../../kit/index.js';
import { logMigrations, orClose, within } from '../shared/lifecycle.js';
import { recordedVersion } from '../shared/migrate.js';
import { MetricCompactor } from './compaction.js';
import { Database } from './database.js';
import type { DuckDbOptions } from './handle.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { duckdbReplication } from './replication.js';
import { readRepositories } from '../shared/repositories.js';
import { history } from './history.js';
import { snapshotTo } from './snapshot.js';
import { duckDb } from './sql.js';
import { duckdbWriter } from './writes.js';
import { duckdbTransfer } from './transfer.js';

export { DEFAULT_MEMORY_LIMIT, type DuckDbOptions } from './handle.js';

/** The embedded default: one DuckDB file at `database.file`. */
export const duckdbStorage = defineStorage<DuckDbOptions>({
  id: 'duckdb',
  description: 'Embedded DuckDB database in one file (database.file)',
  capabilities: { singleWriter: true, columnarReads: true, exclusive: true },
  schemes: ['file'],
  async open(options, { logger }): Promise<Storage> {
    const log = logger.child({ plugin: 'duckdb' });
    const database = await Database.open(options, log);
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
      schemaVersion: () => database.read((connection) => recordedVersion(duckDb(connection))),
      async transaction(fn) {
        let appended = 0;
        const result = await database.write((connection) => {
          // a write run again alone after its group failed counts its rows once
          appended = 0;
          return within(
            duckdbWriter(connection, database, (count) => (appended += count)),
            'transaction',
            fn,
          );
        });
        if (appended > 0) compactor.appended(appended);
        return result;
      },
      maintain: () => compactor.run(true),
      backup: (file) => snapshotTo(database, file, () => Promise.resolve()),
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
