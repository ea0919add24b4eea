import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { StatementCache } from './cache.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { execute, query } from './sql.js';

describe('which statements the cache may answer', () => {
  it.each([
    ['SELECT * FROM "project" WHERE "slug" = $w_slug LIMIT 1', ['project']],
    [
      'WITH ks AS (SELECT unnest($keys) AS k) SELECT * FROM "benchmark" WHERE name IN (SELECT k FROM ks)',
      ['benchmark'],
    ],
    [
      'WITH want AS (SELECT unnest($b) AS benchmark_id) SELECT s.id FROM series s JOIN want USING (benchmark_id)',
      ['series'],
    ],
    ['SELECT * FROM threshold t JOIN model m ON m.id = t.model_id', ['threshold', 'model']],
  ])('caches %s', (sql, tables) => {
    expect(StatementCache.tablesOf(sql)).toEqual(tables);
  });

  it.each([
    'SELECT v.* FROM version v JOIN head_version hv ON hv.version_id = v.id',
    'SELECT * FROM metric WHERE id = 1',
    'SELECT * FROM project WHERE created < now()',
    'SELECT uuid() FROM project',
    'SELECT 1',
    'INSERT INTO project (name) VALUES ($n) RETURNING *',
    'WITH x AS (DELETE FROM project RETURNING id) SELECT * FROM x',
  ])('does not cache %s', (sql) => {
    expect(StatementCache.tablesOf(sql)).toBeUndefined();
  });
});

describe('the statement cache of the writer', () => {
  const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
  const root = mkdtempSync(join(tmpdir(), 'benchtrack-cache-'));
  let database: Database;
  const FIND = 'SELECT name FROM "organization" WHERE "id" = $id';
  const name = () => database.write((c) => query<{ name: string }>(c, FIND, { id: 1 }));
  const rename = (to: string) =>
    database.write((c) => execute(c, 'UPDATE "organization" SET name = $name WHERE id = 1', { name: to }));

  beforeAll(async () => {
    database = await Database.open({ file: join(root, 'cache.db'), readers: 1 }, logger);
    await migrate(database.setupConnection, migrations, database.path);
    await database.write((c) =>
      execute(
        c,
        `INSERT INTO organization (uuid, name, slug, claimed, created, modified)
         VALUES (uuid(), 'Acme', 'acme', now()::TIMESTAMP, now()::TIMESTAMP, now()::TIMESTAMP)`,
      ),
    );
  });
  afterAll(async () => {
    await database.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers a repeated read from memory, and a committed write replaces it', async () => {
    expect(await name()).toEqual([{ name: 'Acme' }]);
    const { hits } = database.cache.stats;
    expect(await name()).toEqual([{ name: 'Acme' }]);
    expect(database.cache.stats.hits).toBe(hits + 1);
    await rename('Acme Corp');
    expect(await name()).toEqual([{ name: 'Acme Corp' }]);
  });

  it('shows a transaction its own writes, and forgets them when it rolls back', async () => {
    await name();
    const failed = database.write(async (c) => {
      await execute(c, `UPDATE "organization" SET name = 'Inside' WHERE id = 1`);
      expect(await query(c, FIND, { id: 1 })).toEqual([{ name: 'Inside' }]);
      throw new Error('roll back');
    });
    await expect(failed).rejects.toThrow('roll back');
    expect(await name()).toEqual([{ name: 'Acme Corp' }]);
  });

  it('sees writes made outside sql.ts, and forgets everything after a write it cannot place', async () => {
    await name();
    await database.write((c) => c.run(`UPDATE "organization" SET name = 'Raw' WHERE id = 1`));
    expect(await name()).toEqual([{ name: 'Raw' }]);
    await database.write(async (c) => {
      await c.run(`CREATE TEMP TABLE scratch AS SELECT 1 AS x`);
      expect(await query(c, FIND, { id: 1 })).toEqual([{ name: 'Raw' }]);
      expect(database.cache.stats.entries).toBeGreaterThan(0);
    });
    expect(database.cache.stats.entries).toBe(0);
  });

  it('hands out answers that cannot be changed by accident', async () => {
    const [row] = await name();
    expect(() => Object.assign(row as object, { name: 'x' })).toThrow(TypeError);
  });

  it('is not used on reader connections', async () => {
    await rename('Read');
    const { hits, misses } = database.cache.stats;
    await database.read((c) => query(c, FIND, { id: 1 }));
    expect(database.cache.stats).toMatchObject({ hits, misses });
  });
});
