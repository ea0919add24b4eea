import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { MetricCompactor } from './compaction.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { query } from './sql.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-compaction-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
let open: { database: Database; compactor: MetricCompactor } | undefined;
afterEach(async () => {
  await open?.compactor.stop();
  await open?.database.close();
  open = undefined;
});

async function setup(
  minTailRows: number,
  keepRecentRows = 0,
  beforeSwap?: () => Promise<void>,
  segmentRows?: number,
) {
  const database = await Database.open({ file: join(root, `c-${counter++}.db`), readers: 2 }, logger);
  await migrate(database.setupConnection, migrations, database.path);
  const compactor = new MetricCompactor(database, logger, {
    minTailRows,
    keepRecentRows,
    beforeSwap,
    segmentRows,
  });
  open = { database, compactor };
  return open;
}

/** Appends `reports` reports of `series` metrics each, in time order as ingest does; ids continue from `firstId`. */
function insertReports(c: DuckDBConnection, firstReport: number, reports: number, series: number) {
  return c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT (r * ${series} + s + 1)::BIGINT, uuidv7(), 1, r, 0, s, 1, r,
      make_timestamp(r::BIGINT * 60000000), make_timestamp(r::BIGINT * 60000000 + 1000000), r * 1000 + s
    FROM range(${firstReport}, ${firstReport + reports}) a(r), range(${series}) b(s) ORDER BY r, s`);
}

/** The table's rows in storage order. */
const layout = (c: DuckDBConnection) =>
  query<{ id: bigint; series_id: number; value: number }>(c, 'SELECT id, series_id, value FROM metric');
/** The series of the rows with ids in (from, to], in storage order. */
const seriesIn = async (c: DuckDBConnection, from: number, to: number) =>
  (await layout(c)).filter((row) => row.id > from && row.id <= to).map((row) => row.series_id);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const contents = async (c: DuckDBConnection) =>
  (await query<{ id: bigint; value: number }>(c, 'SELECT id, value FROM metric ORDER BY id')).map(
    (row) => `${row.id}:${row.value}`,
  );

describe('metric compaction', () => {
  it('rewrites the table in series order once the tail is due, and records what it covers', async () => {
    const { database, compactor } = await setup(1_000);
    await database.write((c) => insertReports(c, 0, 50, 10));
    expect(await compactor.run(false)).toMatchObject({ compacted: false, rows: 500, tailRows: 500 });

    await database.write((c) => insertReports(c, 50, 100, 10));
    const before = await database.read(contents);
    const result = await compactor.run(false);
    expect(result).toMatchObject({ compacted: true, rows: 1_500, tailRows: 1_500 });

    const rows = await database.read(layout);
    const series = rows.map((row) => row.series_id);
    expect(series).toEqual([...series].sort((a, b) => a - b));
    expect(await database.read(contents)).toEqual(before);
    expect(
      await database.read((c) =>
        query(c, `SELECT value FROM server_meta WHERE key = 'metric.clustered_through'`),
      ),
    ).toEqual([{ value: '1500' }]);
    // The columns keep their constraints: the copy was made from the table's own DDL.
    await expect(
      database.write((c) => c.run(`INSERT INTO metric (id, uuid, project_id) VALUES (1, uuidv7(), 1)`)),
    ).rejects.toThrow(/NOT NULL/);

    // A fresh tail smaller than the open segment (and the minimum) is not worth a rewrite.
    await database.write((c) => insertReports(c, 150, 20, 10));
    expect(await compactor.run(false)).toMatchObject({ compacted: false, rows: 1_700, tailRows: 200 });
  });

  it('seals a full segment and from then on sorts only the rows that came after it', async () => {
    const { database, compactor } = await setup(100, 0, undefined, 1_000);
    await database.write((c) => insertReports(c, 0, 40, 10));
    expect(await compactor.run(false)).toMatchObject({ compacted: true, rewrittenRows: 400 });
    // The open segment (400 rows) and a tail as large are sorted together: 800 rows.
    await database.write((c) => insertReports(c, 40, 40, 10));
    expect(await compactor.run(false)).toMatchObject({ compacted: true, rewrittenRows: 800 });
    await database.write((c) => insertReports(c, 80, 80, 10));
    expect(await compactor.run(false)).toMatchObject({ compacted: true, rewrittenRows: 1_600 });
    // 1,600 rows fill a segment of 1,000: it is sealed, and the next compaction reads none of it.
    const sealed = await database.read(layout);
    await database.write((c) => insertReports(c, 160, 20, 10));
    const before = await database.read(contents);
    expect(await compactor.run(false)).toMatchObject({ compacted: true, rows: 1_800, rewrittenRows: 200 });
    expect(await database.read(contents)).toEqual(before);
    const rows = await database.read(layout);
    expect(rows.filter((row) => row.id <= 1_600)).toEqual(sealed);
    const segments = [
      await database.read((c) => seriesIn(c, 0, 1_600)),
      await database.read((c) => seriesIn(c, 1_600, 1_800)),
    ];
    for (const segment of segments) expect(segment).toEqual(sorted(segment));
    expect(
      await database.read((c) =>
        query(c, `SELECT key, value FROM server_meta WHERE key LIKE 'metric.%' ORDER BY key`),
      ),
    ).toEqual([
      { key: 'metric.clustered_through', value: '1800' },
      { key: 'metric.sealed_through', value: '1600' },
    ]);
  });

  it('after migration 8, sorts none of what an older version clustered, however small', async () => {
    const database = await Database.open({ file: join(root, `c-${counter++}.db`), readers: 2 }, logger);
    const compactor = new MetricCompactor(database, logger, { minTailRows: 100, keepRecentRows: 0 });
    open = { database, compactor };
    await migrate(database.setupConnection, migrations.slice(0, 6), database.path);
    // as the compaction before segments left it: 400 rows clustered, recorded, and a tail after them
    await database.write(async (c) => {
      await insertReports(c, 0, 40, 10);
      await c.run(`INSERT INTO server_meta VALUES ('metric.clustered_through', '400')`);
      await insertReports(c, 40, 40, 10);
    });
    await migrate(database.setupConnection, migrations, database.path);
    expect(await compactor.run(true)).toMatchObject({ compacted: true, rows: 800, rewrittenRows: 400 });
    expect(await database.read((c) => seriesIn(c, 400, 800))).toEqual(
      sorted(await database.read((c) => seriesIn(c, 400, 800))),
    );
  });

  it('compacts when forced while a compaction that found nothing due is still running', async () => {
    const { database, compactor } = await setup(10_000);
    await database.write((c) => insertReports(c, 0, 50, 10));
    // what opening the storage does: a compaction in the background, here with nothing due
    compactor.poke();
    expect(await compactor.run(true)).toMatchObject({ compacted: true, rows: 500, rewrittenRows: 500 });
  });

  it('folds the usage entries of past days into one per organization and day, and keeps those of today', async () => {
    const { database, compactor } = await setup(100);
    const today = new Date().toISOString().slice(0, 10);
    const entries = [
      [1, '2026-03-01', 5],
      [1, '2026-03-01', 7],
      [2, '2026-03-01', 100],
      [1, '2026-03-02', 1],
      [1, '2026-03-02', 2],
      [1, today, 3],
      [1, today, 4],
    ];
    await database.write(async (c) => {
      await insertReports(c, 0, 50, 10);
      for (const [organization, day, metrics] of entries)
        await c.run(
          `INSERT INTO usage_entry (organization_id, day, metrics) VALUES (${organization}, DATE '${day}', ${metrics})`,
        );
    });
    expect(await compactor.run(false)).toMatchObject({ compacted: true });
    const rows = await database.read((c) =>
      query<{ organization_id: number; day: string; metrics: bigint }>(
        c,
        `SELECT organization_id, strftime(day, '%Y-%m-%d') AS day, metrics FROM usage_entry
          ORDER BY day, organization_id, metrics`,
      ),
    );
    expect(rows.map((r) => [r.organization_id, r.day, Number(r.metrics)])).toEqual([
      [1, '2026-03-01', 12],
      [2, '2026-03-01', 100],
      [1, '2026-03-02', 3],
      [1, today, 3],
      [1, today, 4],
    ]);
  });

  it('leaves the newest rows in insertion order beside the clustered part', async () => {
    const { database, compactor } = await setup(500, 300);
    await database.write((c) => insertReports(c, 0, 70, 10));
    // 700 rows, 300 kept recent: 400 to cluster is under the minimum of 500.
    expect(await compactor.run(false)).toMatchObject({ compacted: false, tailRows: 700 });
    await database.write((c) => insertReports(c, 70, 80, 10));
    const before = await database.read(contents);
    expect(await compactor.run(false)).toMatchObject({ compacted: true, rows: 1_500 });
    const clustered = await database.read((c) => seriesIn(c, 0, 1_200));
    expect(clustered).toHaveLength(1_200);
    expect(clustered).toEqual(sorted(clustered));
    const recent = (await database.read(layout)).filter((row) => row.id > 1_200);
    expect(recent.map((row) => Number(row.id))).toEqual(Array.from({ length: 300 }, (_, i) => 1_201 + i));
    expect(await database.read(contents)).toEqual(before);
    expect(
      await database.read((c) =>
        query(c, `SELECT value FROM server_meta WHERE key = 'metric.clustered_through'`),
      ),
    ).toEqual([{ value: '1200' }]);
    // The 300 recent rows count as tail, but clustering them is not due until the rest of the tail is.
    expect(await compactor.run(false)).toMatchObject({ compacted: false, tailRows: 300 });
  });

  it('keeps rows written and deleted while the sorted copy is built', async () => {
    let expected: string[] = [];
    // Ingest and deletes go on after the sorted copy is made, before it replaces the table.
    const { database, compactor } = await setup(1, 0, async () => {
      await database.write((c) => insertReports(c, 100, 10, 50));
      await database.write((c) => c.run('DELETE FROM metric WHERE report_id IN (3, 105)'));
      expected = await database.read(contents);
    });
    await database.write((c) => insertReports(c, 0, 100, 50));
    const result = await compactor.run(true);
    expect(result).toMatchObject({ compacted: true, rows: 110 * 50 - 100 });
    expect(expected).toHaveLength(110 * 50 - 100);
    expect(await database.read(contents)).toEqual(expected);
    // The copy is clustered as a whole; rows that arrived meanwhile stay in insertion order.
    const copied = await database.read((c) => seriesIn(c, 0, 100 * 50));
    const tailIds = (await database.read(layout))
      .filter((row) => row.id > 100 * 50)
      .map((row) => Number(row.id));
    expect(copied).toHaveLength(99 * 50);
    expect(copied).toEqual(sorted(copied));
    expect(tailIds).toEqual(sorted(tailIds));
    expect(tailIds).toHaveLength(9 * 50);
  });

  it('leaves statements prepared before the rewrite working, on readers and the writer', async () => {
    const { database, compactor } = await setup(1);
    await database.write((c) => insertReports(c, 0, 10, 10));
    const sql = 'SELECT count(*)::INTEGER AS n FROM metric WHERE series_id = $series';
    expect(await database.read((c) => query(c, sql, { series: 3 }))).toEqual([{ n: 10 }]);
    expect(await database.write((c) => query(c, sql, { series: 3 }))).toEqual([{ n: 10 }]);
    await compactor.run(true);
    await database.write((c) => insertReports(c, 10, 1, 10));
    expect(await database.read((c) => query(c, sql, { series: 3 }))).toEqual([{ n: 11 }]);
    expect(await database.write((c) => query(c, sql, { series: 3 }))).toEqual([{ n: 11 }]);
  });

  it('stops between its steps without touching the table', async () => {
    const { database, compactor } = await setup(1, 0, async () => {
      void compactor.stop();
    });
    await database.write((c) => insertReports(c, 0, 100, 50));
    const before = await database.read(contents);
    await expect(compactor.run(true)).rejects.toThrow(/interrupted: the storage is closing/);
    expect(await database.read(contents)).toEqual(before);
    expect(
      await database.read((c) =>
        query(c, `SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'metric%'`),
      ),
    ).toEqual([{ table_name: 'metric' }]);
  });

  it('stops a copy under way without touching the table', async () => {
    const { database, compactor } = await setup(1);
    await database.write((c) => insertReports(c, 0, 1_000, 500));
    const before = await database.read((c) =>
      query(c, 'SELECT count(*)::INTEGER AS n, sum(value) AS s FROM metric'),
    );
    const running = compactor.run(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await compactor.stop();
    // Interrupted in a statement or between two: either way it ends without a swap.
    await expect(running).rejects.toThrow(/interrupt/i);
    expect(
      await database.read((c) => query(c, 'SELECT count(*)::INTEGER AS n, sum(value) AS s FROM metric')),
    ).toEqual(before);
  }, 60_000);
});
