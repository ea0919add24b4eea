/**
 * The Alerts page's requests through the API (a client in this process), on DuckDB and PostgreSQL: a page of 50
 * active alerts (what the console asks for), a page of 255, and the counts by status; against the reference, the
 * same 50 alerts joined with their metrics in one statement on a bare connection of the engine. The data is the
 * console's triage scenario: 40 latency benchmarks x 60 daily reports with 2% noise under a two-sided t-test
 * threshold, every benchmark 20% slower from version 40 (a few hundred alerts).
 *
 *   npm run bench -- alert-list [--engine duckdb,postgres]
 */
import { ALERT_STEPS, seedAlertSteps } from './lib/alert-steps.js';
import { benchDatabase, selectedEngines } from './lib/engines.js';
import { time } from './lib/measure.js';
import { bareRows } from './lib/bare-rows.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const { reports: REPORTS, benchmarks: BENCHMARKS } = ALERT_STEPS;
const PROJECT = 'alert-list-bench';

const SQL = `SELECT a.*, m.* FROM alert a JOIN metric m ON m.id = a.metric_id
  WHERE a.project_id = (SELECT id FROM project WHERE slug = '${PROJECT}') AND a.status = 'active'
  ORDER BY a.modified DESC, a.id DESC LIMIT 50`;

const closers: (() => Promise<void>)[] = [];

for (const engine of selectedEngines()) {
  const db = await benchDatabase(engine, 'alert-list');
  const report = new BenchReport(
    `alert list on ${engine}: ${BENCHMARKS} benchmarks x ${REPORTS} reports, one step`,
  );
  try {
    const server = await startBenchServer(db.database);
    let page50: number;
    try {
      await seedAlertSteps(server.url, PROJECT);
      const get = (path: string, check: (body: unknown) => void) => async () => {
        const response = await fetch(`${server.url}/v0/projects/${PROJECT}${path}`);
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        check(await response.json());
      };
      const page = (size: number) =>
        get(`/alerts?status=active&per_page=${size}`, (body) => {
          if (!Array.isArray(body) || body.length === 0) throw new Error(`a page of ${size} held no alert`);
        });
      page50 = (await time(page(50), { iterations: 10, warmup: 2 })).p50Ms;
      const page255 = (await time(page(255), { iterations: 10, warmup: 2 })).p50Ms;
      const counts = (
        await time(
          get('/alerts/counts', () => undefined),
          { iterations: 10, warmup: 2 },
        )
      ).p50Ms;
      report.add(`${engine} alerts, a page of 50`, 'latency', page50 * 1e6, `${page50.toFixed(0)} ms p50`);
      report.add(`${engine} alerts, a page of 255`, 'latency', page255 * 1e6, `${page255.toFixed(0)} ms p50`);
      report.add(`${engine} alert counts`, 'latency', counts * 1e6, `${counts.toFixed(1)} ms p50`);
    } finally {
      await server.close();
    }
    const { read, close } = await bareRows(db, SQL);
    closers.push(close);
    const bare = (await time(async () => void (await read()), { iterations: 10, warmup: 2 })).p50Ms;
    report.add(`${engine} bare SQL`, 'latency', bare * 1e6, `${bare.toFixed(1)} ms p50`);
    report.ratio(`${engine} alerts, a page of 50`, 'the bare SQL', page50, bare);
  } finally {
    for (const close of closers.splice(0)) await close();
    await db.remove();
  }
  report.print();
}
