/**
 * A page of 255 reports through the API (a client in this process), plain and with `expand=true` (every result
 * and alert), on DuckDB and PostgreSQL, against the reference: the same reports joined with their metrics in one
 * statement on a bare connection of the engine, rows read as objects. Each report holds 10 benchmarks on one of two
 * branches, with a static threshold that alerts on some.
 *
 *   npm run bench -- report-list [--engine duckdb,postgres]
 *
 * Figures, 2026-11-27 14:59 UTC, load 1.8, p50 of 10: DuckDB plain 405 ms, expand=true 2,570 ms (56x of its bare
 * SQL, 45.9 ms); PostgreSQL plain 272 ms, expand=true 1,244 ms (17x of 71.3 ms). Lists read each shared row once
 * since 1da69bf; before it (57f8a91's reports.ts, two runs each, alternated, load 2-3) on PostgreSQL: plain 412
 * and 851 -> 275 and 94 ms, expand=true 1,926 and 1,564 -> 1,245 and 433 ms. On DuckDB no difference shows
 * (expand=true 2,923-4,218 ms before, 2,711-5,576 after): its read cache already serves those small tables.
 *
 * 2026-11-27 18:08-18:10 UTC, load 1.4-2.2, p50 of 10, a page read in a fixed number of statements (contexts,
 * metrics and alerts each for the whole page, `metrics.byReports`) against the code just before it (1d2c869, a
 * worktree, run just before): DuckDB plain 328 -> 54 ms, expand=true 3,184 -> 234 ms (94x -> 4.2x of its bare SQL);
 * PostgreSQL plain 110 -> 39 ms, expand=true 534 -> 216 ms (14.5x -> 3.4x).
 */
import { benchDatabase, selectedEngines } from './lib/engines.js';
import { postRun } from './lib/post-run.js';
import { time } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { bareRows } from './lib/bare-rows.js';
import { startBenchServer } from './lib/server.js';

const REPORTS = 255;
const BENCHMARKS = 10;
const PROJECT = 'report-list-bench';

async function seed(api: string): Promise<void> {
  const start = Date.now() - (REPORTS + 1) * 60_000;
  for (let k = 0; k < REPORTS; k++) {
    const results = Object.fromEntries(
      Array.from({ length: BENCHMARKS }, (_, b) => [
        `bench-${b}`,
        { latency: { value: 100 + ((k * 7 + b) % 13) } },
      ]),
    );
    const at = new Date(start + k * 60_000);
    await postRun(api, {
      project: PROJECT,
      branch: k % 2 ? 'main' : 'dev',
      testbed: 'bench',
      start_time: at.toISOString(),
      end_time: new Date(at.getTime() + 1000).toISOString(),
      results: [JSON.stringify(results)],
      settings: { adapter: 'json' },
      thresholds: { models: { latency: { test: 'static', upper_boundary: 110 } } },
    });
  }
}

const SQL = `SELECT r.*, m.* FROM report r JOIN metric m ON m.report_id = r.id
  WHERE r.project_id = (SELECT id FROM project WHERE slug = '${PROJECT}') ORDER BY r.created DESC, m.id`;

const closers: (() => Promise<void>)[] = [];

for (const engine of selectedEngines()) {
  const db = await benchDatabase(engine, 'report-list');
  const report = new BenchReport(`report list on ${engine}: ${REPORTS} reports of ${BENCHMARKS} metrics`);
  try {
    const server = await startBenchServer(db.database);
    let expanded: number;
    try {
      await seed(server.url);
      const page = (expand: boolean) => async () => {
        const response = await fetch(
          `${server.url}/v0/projects/${PROJECT}/reports?per_page=${REPORTS}&expand=${expand}`,
        );
        if (response.status !== 200) throw new Error(`list answered ${response.status}`);
        const reports = (await response.json()) as unknown[];
        if (reports.length !== REPORTS) throw new Error(`list held ${reports.length} reports`);
      };
      const plain = (await time(page(false), { iterations: 10, warmup: 2 })).p50Ms;
      expanded = (await time(page(true), { iterations: 10, warmup: 2 })).p50Ms;
      report.add(`${engine} list, plain`, 'latency', plain * 1e6, `${plain.toFixed(0)} ms p50`);
      report.add(`${engine} list, expand=true`, 'latency', expanded * 1e6, `${expanded.toFixed(0)} ms p50`);
    } finally {
      await server.close();
    }
    const { read, close } = await bareRows(db, SQL);
    closers.push(close);
    const bare = (
      await time(
        async () => {
          const rows = await read();
          if (rows !== REPORTS * BENCHMARKS) throw new Error(`bare SQL read ${rows} rows`);
        },
        { iterations: 10, warmup: 2 },
      )
    ).p50Ms;
    report.add(`${engine} bare SQL`, 'latency', bare * 1e6, `${bare.toFixed(1)} ms p50`);
    report.ratio(`${engine} list, expand=true`, 'the bare SQL', expanded, bare);
  } finally {
    for (const close of closers.splice(0)) await close();
    await db.remove();
  }
  report.print();
}
