import type { AppliedMigration } from '../../../kit/index.js';
import type { Sql } from 'postgres';
import { applyMigrations } from '../shared/migrate.js';
import type { Migration } from '../shared/schema.js';
import { postgresDb } from './sql.js';

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
      return await applyMigrations(
        {
          where,
          db: postgresDb(connection),
          async run(statements) {
            // the simple protocol runs many statements in one message, and skips those after a failure
            await connection.unsafe(statements.join(';\n'));
          },
        },
        migrations,
      );
    } finally {
      await connection.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    connection.release();
  }
}
