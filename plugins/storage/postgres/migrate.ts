import type { AppliedMigration } from '../../../kit/index.js';
import type { Sql } from 'postgres';
import { applyMigrations } from '../shared/migrate.js';
import type { Migration } from '../shared/schema.js';
import type { Connection } from './sql.js';

/** The advisory lock every process takes to migrate: N processes starting at once migrate once. */
const MIGRATION_LOCK = 0x62656e63; // 'benc'

/** Applies the migrations the database lacks (shared/migrate.ts) under an advisory lock: processes migrate once. */
export async function migrate(
  sql: Sql,
  migrations: readonly Migration[],
  where: string,
): Promise<AppliedMigration[]> {
  const connection = await sql.reserve();
  try {
    await connection.unsafe('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return await migrateLocked(connection, migrations, where);
    } finally {
      await connection.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    connection.release();
  }
}

async function migrateLocked(
  connection: Connection,
  migrations: readonly Migration[],
  where: string,
): Promise<AppliedMigration[]> {
  await connection.unsafe(`SET client_min_messages = warning;
    CREATE TABLE IF NOT EXISTS schema_migration (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL
    )`);
  return applyMigrations(
    {
      version: () => recordedVersion(connection),
      async apply(migration) {
        try {
          // one round trip for the whole migration (the simple protocol runs many statements in one message)
          await connection.unsafe(['BEGIN', ...migration.statements].join(';\n'));
          await connection.unsafe('INSERT INTO schema_migration VALUES ($1, $2, now())', [
            migration.version,
            migration.name,
          ]);
          await connection.unsafe('COMMIT');
        } catch (error) {
          await connection.unsafe('ROLLBACK').catch(() => undefined);
          throw error;
        }
      },
    },
    migrations,
    where,
  );
}

export async function recordedVersion(connection: Connection): Promise<number> {
  const [row] = await connection.unsafe(
    'SELECT coalesce(max(version), 0)::int AS version FROM schema_migration',
  );
  return Number(row?.version ?? 0);
}
