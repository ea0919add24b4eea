import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { copyMigratedDuckdb } from '../helpers/duckdb-template.js';
import { onPostgres } from '../helpers/engine.js';

// A core table dropped behind the server's back (by hand, by another program): health says so, on both engines,
// instead of ok until a request needs the table.

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A test app whose database has lost its `alert` table. */
async function withoutAlertTable(): Promise<TestApp> {
  if (onPostgres) {
    const t = await createTestApp();
    const sql = postgres(t.config.database.url as string, { max: 1, onnotice: () => undefined });
    try {
      await sql.unsafe('DROP TABLE alert CASCADE');
    } finally {
      await sql.end();
    }
    return t;
  }
  // DuckDB holds its file for one process: the table goes before the server opens it
  const file = join(dir, 'damaged.db');
  await copyMigratedDuckdb(file);
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run('DROP TABLE alert');
  connection.closeSync();
  instance.closeSync();
  return createTestApp({ database: { file } });
}

describe('health with a core table missing', () => {
  it('answers 503 naming the database as damaged', async () => {
    const t = await withoutAlertTable();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/v0/server/health' });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({
        status: 'unavailable',
        message: 'database: damaged',
        database: { status: 'damaged' },
      });
      expect(response.body).not.toContain('alert');
    } finally {
      await t.close();
    }
  });

  it('answers 200 on an intact database (control)', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/v0/server/health' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().database.status).toBe('ok');
    } finally {
      await t.close();
    }
  });
});
