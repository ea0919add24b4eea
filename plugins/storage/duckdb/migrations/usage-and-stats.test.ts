import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { migrations } from './index.js';

it('migration 3 counts the metrics already stored per organization and UTC day of their report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-migration-3-'));
  const instance = await DuckDBInstance.create(join(dir, 'm.db'));
  const connection = await instance.connect();
  try {
    await migrate(connection, migrations.slice(0, 2), 'm.db');
    const t = `TIMESTAMP '2026-01-01 00:00:00'`;
    await connection.run(`INSERT INTO organization VALUES
      (1, uuid(), 'a', 'a', NULL, NULL, NULL, ${t}, ${t}), (2, uuid(), 'b', 'b', NULL, NULL, NULL, ${t}, ${t})`);
    await connection.run(`INSERT INTO project VALUES
      (1, uuid(), 1, 'p', 'p', NULL, 'public', ${t}, ${t}), (2, uuid(), 2, 'q', 'q', NULL, 'public', ${t}, ${t})`);
    const report = (id: number, project: number, created: string) =>
      `(${id}, uuid(), ${project}, NULL, 1, 1, 1, 1, 'json', NULL, ${t}, ${t}, TIMESTAMP '${created}')`;
    await connection.run(
      `INSERT INTO report VALUES ${[
        report(1, 1, '2026-03-01 23:59:59'),
        report(2, 1, '2026-03-02 00:00:00'),
        report(3, 2, '2026-03-01 12:00:00'),
      ].join(', ')}`,
    );
    const metrics = (report: number, project: number, n: number) =>
      Array.from(
        { length: n },
        (_, i) => `(${report * 100 + i}, uuid(), ${project}, ${report}, 0, 1, 1, 1, ${t}, ${t}, 1.0,
          NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
      );
    await connection.run(
      `INSERT INTO metric VALUES ${[...metrics(1, 1, 3), ...metrics(2, 1, 2), ...metrics(3, 2, 4)].join(', ')}`,
    );
    await migrate(connection, migrations.slice(0, 3), 'm.db');
    const rows = (
      await connection.runAndReadAll(
        `SELECT organization_id, strftime(day, '%Y-%m-%d'), metrics FROM organization_usage ORDER BY 1, 2`,
      )
    ).getRows();
    expect(rows).toEqual([
      [1, '2026-03-01', 3n],
      [1, '2026-03-02', 2n],
      [2, '2026-03-01', 4n],
    ]);
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('migration 4 keeps the counts of migration 3 as usage entries, and ids go on after them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-migration-4-'));
  const instance = await DuckDBInstance.create(join(dir, 'm.db'));
  const connection = await instance.connect();
  try {
    await migrate(connection, migrations.slice(0, 3), 'm.db');
    await connection.run(`INSERT INTO organization_usage VALUES
      (2, DATE '2026-03-01', 4), (1, DATE '2026-03-02', 2), (1, DATE '2026-03-01', 3)`);
    await migrate(connection, migrations, 'm.db');
    await connection.run(
      `INSERT INTO usage_entry (organization_id, day, metrics) VALUES (1, DATE '2026-03-02', 5)`,
    );
    const rows = (
      await connection.runAndReadAll(
        `SELECT id, organization_id, strftime(day, '%Y-%m-%d'), metrics FROM usage_entry ORDER BY id`,
      )
    ).getRows();
    expect(rows).toEqual([
      [1n, 1, '2026-03-01', 3n],
      [2n, 2, '2026-03-01', 4n],
      [3n, 1, '2026-03-02', 2n],
      [4n, 1, '2026-03-02', 5n],
    ]);
    const tables = (
      await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '%usage%'`)
    ).getRows();
    expect(tables).toEqual([['usage_entry']]);
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});
