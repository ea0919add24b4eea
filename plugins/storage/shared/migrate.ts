import { StorageError, type AppliedMigration } from '../../../kit/index.js';
import type { Migration } from './schema.js';
import { count, type Db } from './sql.js';

/** An engine's connection to a database being migrated, and its `schema_migration` ledger. */
interface Ledger {
  /** The database, as messages name it. */
  readonly where: string;
  /** The connection: its dialect names the timestamp type, and the ledger's version is read through it. */
  readonly db: Db;
  /** Runs the statements in order, up to the first that fails (in one round trip where the engine can). */
  run(statements: readonly string[]): Promise<void>;
}

/**
 * Applies every migration newer than the ledger's version, in order, each in one transaction with its ledger row,
 * rolled back whole when a statement fails. A database written by a newer Benchtrack is refused; a failure names
 * the migration and the version the database stays at.
 */
export async function applyMigrations(
  ledger: Ledger,
  migrations: readonly Migration[],
): Promise<AppliedMigration[]> {
  const timestamp = ledger.db.dialect.timestamp;
  await ledger.run([
    `CREATE TABLE IF NOT EXISTS schema_migration (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at ${timestamp} NOT NULL
    )`,
  ]);
  const current = await recordedVersion(ledger.db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest)
    throw new StorageError(
      `database ${ledger.where} has schema version ${current}, newer than this Benchtrack knows (${latest}); upgrade Benchtrack or restore a backup taken before the upgrade`,
    );
  const applied: AppliedMigration[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const name = migration.name.replaceAll("'", "''");
    try {
      await ledger.run([
        'BEGIN TRANSACTION',
        ...migration.statements,
        `INSERT INTO schema_migration VALUES (${migration.version}, '${name}', now()::${timestamp})`,
        'COMMIT',
      ]);
    } catch (error) {
      await ledger.run(['ROLLBACK']).catch(() => undefined);
      throw new StorageError(
        `migration ${migration.version} (${migration.name}) failed on ${ledger.where}: ${(error as Error).message}; the database was left at version ${applied.at(-1)?.version ?? current}`,
        {},
        { cause: error },
      );
    }
    applied.push({ version: migration.version, name: migration.name });
  }
  return applied;
}

/** The newest version the ledger records, 0 for none. */
export async function recordedVersion(db: Db): Promise<number> {
  const [row] = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migration');
  return count(row?.v);
}
