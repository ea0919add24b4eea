import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfigDocument, restoreDatabase } from '../../core/index.js';
import { storageOpener } from '../../server/composition.js';
import { createTestApp } from '../helpers/app.js';

// Another application's DuckDB file named as the database, or restored over it: refused, and neither file changes.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-foreign-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A DuckDB file made by someone else: `statements` run in it, then it is closed (checkpointed). */
async function duckdbFile(name: string, statements: string): Promise<string> {
  const file = join(dir, name);
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  if (statements) await connection.run(statements);
  connection.closeSync();
  instance.closeSync();
  return file;
}

describe('a DuckDB file that is not a Benchtrack database', () => {
  it.each([
    [
      'holds tables of its own',
      'CREATE TABLE orders (id INTEGER, total DOUBLE); INSERT INTO orders VALUES (1, 9.5)',
    ],
    [
      'holds tables whose names clash with ours',
      'CREATE TABLE users (id INTEGER); INSERT INTO users VALUES (7)',
    ],
    [
      'has a schema_migration table of another shape',
      'CREATE TABLE schema_migration (id INTEGER, script VARCHAR)',
    ],
    ['holds only a view', 'CREATE VIEW answer AS SELECT 42 AS value'],
  ])('is refused at start when it %s, and nothing in it changes', async (label, statements) => {
    const file = await duckdbFile(`start-${label.replaceAll(' ', '-')}.duckdb`, statements);
    const before = sha256(file);
    await expect(createTestApp({ database: { file } })).rejects.toThrow(
      `database ${file} is not a Benchtrack database`,
    );
    expect(sha256(file)).toBe(before);
    expect(readdirSync(dir).filter((name) => name.startsWith(`start-${label.replaceAll(' ', '-')}`))).toEqual(
      [`start-${label.replaceAll(' ', '-')}.duckdb`],
    );
  });

  it('an empty DuckDB file becomes a new Benchtrack database', async () => {
    const file = await duckdbFile('empty-start.duckdb', '');
    const t = await createTestApp({ database: { file } });
    await t.close();
  });
});

describe('benchtrack-api restore of a file that is not a Benchtrack backup', () => {
  const restore = async (source: string, target: string) => {
    const { config } = parseConfigDocument(
      { security: { secret_key: 'test-secret-key-0123456789abcdef' }, database: { file: target } },
      { kind: 'default', description: 'test configuration' },
    );
    const logger = createLogger({ name: 'restore', log: { mode: 'stderr_terminal', level: 'error' } });
    return restoreDatabase({
      source,
      target,
      force: true,
      dataStore: undefined,
      open: await storageOpener(config, logger),
    });
  };

  let target: string;
  let targetSha: string;
  beforeAll(async () => {
    target = join(dir, 'benchtrack.db');
    const t = await createTestApp({ database: { file: target } });
    await t.close();
    targetSha = sha256(target);
  });

  it('refuses another application database, even with --force, changing neither file', async () => {
    const foreign = await duckdbFile(
      'other-app.duckdb',
      'CREATE TABLE orders (id INTEGER); INSERT INTO orders VALUES (1)',
    );
    const foreignSha = sha256(foreign);
    await expect(restore(foreign, target)).rejects.toThrow(
      `backup ${foreign} cannot be restored: database ${foreign} is not a Benchtrack database`,
    );
    expect(sha256(target)).toBe(targetSha);
    expect(sha256(foreign)).toBe(foreignSha);
  });

  it('refuses an empty database, which would replace the data with nothing', async () => {
    const empty = await duckdbFile('empty-backup.duckdb', '');
    await expect(restore(empty, target)).rejects.toThrow(`backup ${empty} is not a Benchtrack backup`);
    expect(sha256(target)).toBe(targetSha);
  });

  it('still restores a Benchtrack database', async () => {
    const ours = join(dir, 'ours.db');
    const t = await createTestApp({ database: { file: ours } });
    await t.close();
    const result = await restore(ours, target);
    expect(result.schemaVersion).toBeGreaterThan(0);
  });
});
