import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Migration } from '../shared/schema.js';
import { recordedVersion } from '../shared/migrate.js';
import { migrate } from './migrate.js';
import { duckDb } from './sql.js';

const first: Migration = { version: 1, name: 'first', statements: ['CREATE TABLE a (x INTEGER)'] };
const second: Migration = { version: 2, name: 'second', statements: ['CREATE TABLE b (y INTEGER)'] };
const broken: Migration = {
  version: 3,
  name: 'broken',
  statements: ['CREATE TABLE c (z INTEGER)', 'INSERT INTO c VALUES (1)', 'SELECT * FROM no_such_table'],
};

describe('migrate', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  const tables = async () =>
    (await connection.runAndReadAll('SELECT table_name FROM information_schema.tables ORDER BY 1'))
      .getRows()
      .map((row) => row[0]);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'benchtrack-migrate-'));
    instance = await DuckDBInstance.create(join(dir, 'm.db'));
    connection = await instance.connect();
  });
  afterEach(() => {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies only migrations newer than the recorded version', async () => {
    expect(await migrate(connection, [first], 'm.db')).toEqual([{ version: 1, name: 'first' }]);
    expect(await migrate(connection, [first], 'm.db')).toEqual([]);
    expect(await migrate(connection, [first, second], 'm.db')).toEqual([{ version: 2, name: 'second' }]);
    expect(await recordedVersion(duckDb(connection))).toBe(2);
    expect(await tables()).toEqual(['a', 'b', 'schema_migration']);
  });

  it('rolls a failing migration back whole and keeps earlier ones', async () => {
    const error = await migrate(connection, [first, second, broken], 'm.db').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^migration 3 \(broken\) failed on m\.db: .*left at version 2/s);
    expect(await recordedVersion(duckDb(connection))).toBe(2);
    expect(await tables()).toEqual(['a', 'b', 'schema_migration']);
  });

  it('refuses a database holding another application data before writing anything', async () => {
    await connection.run('CREATE TABLE orders (id INTEGER); CREATE SEQUENCE order_ids');
    await expect(migrate(connection, [first], 'm.db')).rejects.toThrow(
      'database m.db is not a Benchtrack database: it holds sequence order_ids, table main.orders and no Benchtrack schema_migration table',
    );
    expect(await tables()).toEqual(['orders']);
  });

  it('refuses a database written by a newer Benchtrack', async () => {
    await migrate(connection, [first, second], 'm.db');
    await expect(migrate(connection, [first], 'm.db')).rejects.toThrow(
      'database m.db has schema version 2, newer than this Benchtrack knows (1)',
    );
  });
});
