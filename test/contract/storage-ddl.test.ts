import { describe, expect, it } from 'vitest';
import { migrations as duckdb } from '../../plugins/storage/duckdb/migrations/index.js';
import { migrations as postgres } from '../../plugins/storage/postgres/migrations/index.js';
import type { Migration } from '../../plugins/storage/shared/schema.js';

/**
 * Every statement of every released migration on each engine, as `storage-ddl/<engine>.txt` records it: a database
 * migrated by an older Benchtrack and a new one must hold the same schema, so any change to the generated DDL fails
 * here. Indentation is left out (it means nothing to SQL and no literal of the schema holds a line's leading or
 * trailing blanks); line breaks are kept, since they end `--` comments.
 */
describe('the DDL of the released migrations', () => {
  const text = (all: readonly Migration[]) =>
    all
      .map(
        (migration) =>
          `-- migration ${migration.version}: ${migration.name}\n` +
          migration.statements
            .map((statement) =>
              statement
                .split('\n')
                .map((line) => line.trim())
                .filter((line) => line !== '')
                .join('\n'),
            )
            .join(';\n\n') +
          ';\n',
      )
      .join('\n');

  it('is the same on DuckDB', async () => {
    await expect(text(duckdb)).toMatchFileSnapshot('./storage-ddl/duckdb.txt');
  });

  it('is the same on PostgreSQL', async () => {
    await expect(text(postgres)).toMatchFileSnapshot('./storage-ddl/postgres.txt');
  });
});
