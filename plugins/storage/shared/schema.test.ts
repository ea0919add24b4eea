import { describe, expect, it } from 'vitest';
import { migrations as duckdb } from '../duckdb/migrations/index.js';
import { migrations as postgres } from '../postgres/migrations/index.js';
import { columnsOf, type Migration } from './schema.js';

describe('the columns of the schema', () => {
  it('reads a table as its migrations make it, constraints left out', () => {
    expect(columnsOf('branch')).toEqual([
      'id',
      'uuid',
      'project_id',
      'name',
      'slug',
      'head_id',
      'archived',
      'created',
      'modified',
    ]);
    expect(columnsOf('head_version')).toEqual(['head_id', 'version_id']);
  });

  it('follows columns added later and tables dropped', () => {
    expect(columnsOf('alert').slice(-3)).toEqual(['change_before', 'change_after', 'change_p_value']);
    expect(columnsOf('measure')).toContain('direction');
    expect(() => columnsOf('organization_usage')).toThrow('the schema has no table organization_usage');
  });
});

/**
 * Every statement of every released migration on each engine, as `schema.<engine>.txt` records it: a database
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
    await expect(text(duckdb)).toMatchFileSnapshot('./schema.duckdb.txt');
  });

  it('is the same on PostgreSQL', async () => {
    await expect(text(postgres)).toMatchFileSnapshot('./schema.postgres.txt');
  });
});
