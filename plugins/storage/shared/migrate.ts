import { StorageError, type AppliedMigration } from '../../../kit/index.js';
import type { Migration } from './schema.js';

/** An engine's `schema_migration` ledger. */
export interface Ledger {
  /** The newest version recorded, 0 for none. */
  version(): Promise<number>;
  /** Runs the migration's statements and records it in one transaction, rolled back whole when one fails. */
  apply(migration: Migration): Promise<void>;
}

/**
 * Applies every migration newer than the ledger's version, in order, each in its own transaction. A database
 * written by a newer Benchtrack is refused; a failure names the migration and the version the database stays at.
 */
export async function applyMigrations(
  ledger: Ledger,
  migrations: readonly Migration[],
  where: string,
): Promise<AppliedMigration[]> {
  const current = await ledger.version();
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest)
    throw new StorageError(
      `database ${where} has schema version ${current}, newer than this Benchtrack knows (${latest}); upgrade Benchtrack or restore a backup taken before the upgrade`,
    );
  const applied: AppliedMigration[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    try {
      await ledger.apply(migration);
    } catch (error) {
      throw new StorageError(
        `migration ${migration.version} (${migration.name}) failed on ${where}: ${(error as Error).message}; the database was left at version ${applied.at(-1)?.version ?? current}`,
        {},
        { cause: error },
      );
    }
    applied.push({ version: migration.version, name: migration.name });
  }
  return applied;
}
