import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import type { Db } from '../shared/sql.js';
import { metricRows, REPORTS as REPORT_REPOSITORIES } from '../shared/reports.js';
import { Database } from './database.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { duckDb } from './sql.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-report-summaries-'));
const profile = join(root, 'profile.json');
const REPORTS = 1_000;
const SERIES = 1_000;
let database: Database;

beforeAll(async () => {
  database = await Database.open({ file: join(root, 'summaries.db'), readers: 1 }, logger);
  const c = database.setupConnection;
  await migrate(c, migrations, database.path);
  // 1,000 reports of 1,000 metrics in time order, as ingest appends them: about 8 row groups of the table
  await c.run(`INSERT INTO series (id, project_id, testbed_id, benchmark_id, measure_id)
    SELECT s, 1, 1, s, 1 FROM range(${SERIES}) t(s)`);
  await c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT (r * ${SERIES} + s + 1)::BIGINT, uuidv7(), 1, r, 0, s, 1, r, make_timestamp(r::BIGINT * 60000000),
      make_timestamp(r::BIGINT * 60000000 + 1000000), s
    FROM range(${REPORTS}) a(r), range(${SERIES}) b(s) ORDER BY r, s`);
  await c.run('CHECKPOINT');
});

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The statements' metric rows DuckDB scanned (its JSON profile of each), beside the connection's Db. */
function profiled(): { db: Db; scanned: () => number } {
  const c = database.setupConnection;
  const db = duckDb(c);
  let scanned = 0;
  const count = (node: {
    operator_type?: string;
    extra_info?: { Table?: string };
    operator_rows_scanned?: number;
    children?: unknown[];
  }): void => {
    if (node.operator_type === 'TABLE_SCAN' && node.extra_info?.Table?.endsWith('.metric'))
      scanned += node.operator_rows_scanned ?? 0;
    for (const child of node.children ?? []) count(child as typeof node);
  };
  const after = async <T>(result: Promise<T>) => {
    const value = await result;
    count(JSON.parse(readFileSync(profile, 'utf8')));
    return value;
  };
  return {
    db: { ...db, query: (sql, params) => after(db.query(sql, params)) },
    scanned: () => scanned,
  };
}

describe('reading the metrics of a page of reports', () => {
  beforeAll(async () => {
    await database.setupConnection.run(`SET enable_profiling = 'json'`);
    await database.setupConnection.run(`SET profiling_output = '${profile}'`);
  });
  afterAll(async () => {
    await database.setupConnection.run(`RESET enable_profiling`);
  });

  // the oldest and the newest reports on one page (a report posted with a late start time sorts with the newest)
  const page = [
    ...Array.from({ length: 40 }, (_, i) => i),
    ...Array.from({ length: 60 }, (_, i) => REPORTS - 1 - i),
  ];

  it('reads the row groups of its reports, not the history between them', async () => {
    const { db, scanned } = profiled();
    const summaries = await REPORT_REPOSITORIES.reports.reader(db).summaries(page);
    expect(summaries.size).toBe(100);
    expect(summaries.get(0)?.iterations).toEqual([{ benchmarks: SERIES, measures: SERIES }]);
    expect(summaries.get(REPORTS - 1)?.iterations).toEqual([{ benchmarks: SERIES, measures: SERIES }]);
    // 100,000 rows of the page's reports, in a few row groups at each end of a 1,000,000-row table
    expect(scanned()).toBeGreaterThanOrEqual(100 * SERIES);
    expect(scanned()).toBeLessThan((REPORTS * SERIES) / 2);
  });

  it('reads the metrics of an expanded page the same way, ordered by report', async () => {
    const { db, scanned } = profiled();
    const rows = await metricRows(db).byReports(page);
    expect(rows).toHaveLength(100 * SERIES);
    expect(new Set(rows.map((row) => row.report_id))).toEqual(new Set(page));
    const reports = rows.map((row) => row.report_id);
    expect(reports).toEqual([...reports].sort((a, b) => a - b));
    expect(scanned()).toBeGreaterThanOrEqual(100 * SERIES);
    expect(scanned()).toBeLessThan((REPORTS * SERIES) / 2);
  });
});
