/**
 * The Alerts page in Debian's Chromium (the headless shell, as the browser tests), on the embedded database: from
 * navigation to the first row of its table, over the console's triage scenario (bench/lib/alert-steps.ts: 40
 * benchmarks x 60 reports, one +20% step, a few hundred alerts), the project's public page so no login is needed.
 * Each visit alternates with one to the Branches page (a list of one) in the same tab, the reference: what any page
 * of the console costs on this machine at this moment. The aim is the first rows within 1 s.
 *
 *   npm run bench -- alerts-page
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hostOptions } from '../console/host/options.js';
import { createConsoleHost } from '../console/host/serve.js';
import { buildConsole, CONSOLE_BUILD } from '../test/helpers/build-dist.js';
import { launchBrowser } from '../test/helpers/console.js';
import { ALERT_STEPS, seedAlertSteps } from './lib/alert-steps.js';
import { summarize } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const VISITS = 8;
const PROJECT = 'alerts-page-bench';

/** Milliseconds from navigation to the first element matching `selector`. */
async function visit(page: Page, url: string, selector: string): Promise<number> {
  const start = performance.now();
  await page.goto(url);
  await page.locator(selector).first().waitFor({ timeout: 30_000 });
  return performance.now() - start;
}

const report = new BenchReport(
  `console: Alerts page, ${ALERT_STEPS.benchmarks} benchmarks x ${ALERT_STEPS.reports} reports with one step, in Chromium`,
);
const dir = mkdtempSync(join(tmpdir(), 'alerts-page-bench-'));
await buildConsole();
const server = await startBenchServer(join(dir, 'bench.db'));
const host = createConsoleHost(
  hostOptions(['--api-url', server.url, '--host', '127.0.0.1', '--port', '0'], {}, CONSOLE_BUILD),
);
const browser = await launchBrowser();
try {
  await seedAlertSteps(server.url, PROJECT);
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}/perf/${PROJECT}`;
  const page = await browser.context.newPage();
  // the bundle and the plot chunk cached, as for anyone who opened a console page before
  await visit(page, `${base}/branches`, 'table tbody tr');
  const alerts: number[] = [];
  const branches: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < VISITS; i++) {
    loads.push(loadavg()[0]!);
    alerts.push(await visit(page, `${base}/alerts`, 'table.stack tbody tr'));
    branches.push(await visit(page, `${base}/branches`, 'table tbody tr'));
  }
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const a = summarize(alerts);
  const b = summarize(branches);
  const load = `load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`;
  report
    .add(
      'console/alerts-page/first-rows',
      'latency',
      a.p50Ms * 1e6,
      `p50 ${ms(a.p50Ms)}, ${ms(Math.min(...alerts))}-${ms(Math.max(...alerts))} over ${VISITS} visits, ${alerts.filter((t) => t <= 1000).length} within 1 s (${load})`,
    )
    .add(
      'console/branches-page/first-rows',
      'latency',
      b.p50Ms * 1e6,
      `p50 ${ms(b.p50Ms)}, ${ms(Math.min(...branches))}-${ms(Math.max(...branches))}`,
    )
    .ratio('console/alerts-page/first-rows', 'the Branches page', a.p50Ms, b.p50Ms);
  report.print();
} finally {
  await browser.close();
  host.closeAllConnections();
  host.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
