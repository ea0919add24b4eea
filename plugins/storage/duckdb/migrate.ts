import type { DuckDBConnection } from '@duckdb/node-api';
import { StorageError, type AppliedMigration } from '../../../kit/index.js';
import { applyMigrations } from '../shared/migrate.js';
import type { Migration } from '../shared/schema.js';
import { duckDb } from './sql.js';

/** The columns of our `schema_migration` table, in order: a table of that name with others is not ours. */
const LEDGER_COLUMNS = 'version,name,applied_at';

/** Everything a user made in the database (tables of every schema, views, sequences, macros, types). */
const USER_OBJECTS = `
  SELECT 'table ' || schema_name || '.' || table_name FROM duckdb_tables()
    WHERE NOT internal AND database_name = current_database()
  UNION ALL SELECT 'view ' || view_name FROM duckdb_views() WHERE NOT internal AND database_name = current_database()
  UNION ALL SELECT 'sequence ' || sequence_name FROM duckdb_sequences() WHERE database_name = current_database()
  UNION ALL SELECT 'macro ' || function_name FROM duckdb_functions()
    WHERE NOT internal AND database_name = current_database()
  UNION ALL SELECT 'type ' || type_name FROM duckdb_types() WHERE NOT internal AND database_name = current_database()
  ORDER BY 1`;

/** Refuses a database that holds something but no `schema_migration` of ours (another application's data). */
async function refuseForeign(connection: DuckDBConnection, path: string): Promise<void> {
  const objects = (await connection.runAndReadAll(USER_OBJECTS)).getRows().map((row) => String(row[0]));
  if (objects.length === 0) return;
  const ledger = await connection.runAndReadAll(
    `SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns()
      WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migration'`,
  );
  if (ledger.getRows()[0]?.[0] === LEDGER_COLUMNS) return;
  const shown =
    objects.slice(0, 5).join(', ') + (objects.length > 5 ? ` and ${objects.length - 5} more` : '');
  throw new StorageError(
    `database ${path} is not a Benchtrack database: it holds ${shown} and no Benchtrack schema_migration table. Nothing was changed in it; point database.file at a new file or at a Benchtrack database`,
  );
}

/** Applies the migrations the database lacks (shared/migrate.ts), after refusing another application's data. */
export async function migrate(
  connection: DuckDBConnection,
  migrations: readonly Migration[],
  path: string,
): Promise<AppliedMigration[]> {
  await refuseForeign(connection, path);
  const applied = await applyMigrations(
    {
      where: path,
      db: duckDb(connection),
      async run(statements) {
        for (const statement of statements) await connection.run(statement);
      },
    },
    migrations,
  );
  // schema changes must not stay in the WAL: DuckDB cannot replay an ALTER TABLE from it, so a crash before the
  // next checkpoint would leave a database that no longer opens
  if (applied.length > 0) await connection.run('CHECKPOINT');
  return applied;
}
