/**
 * The web console (issues 10 and 19) in Debian's Chromium (the headless shell, as the browser tests): the perf explorer opening 255 series x 100 points with
 * boundaries (the API's largest selection) until it draws, and until it answers a hover; the longest main-thread
 * task meanwhile; the perf request's time and bytes; and the initial bundle's gzip size. Five cold runs (a fresh
 * browser profile each) over each wire, interleaved: the Arrow answer (the explorer's default) and the JSON one
 * (localStorage benchtrack.perf-wire=json), with the ratio of Arrow to JSON. After each cold run, a repeat view
 * in a new tab of the same browser (`.../repeat`): its HTTP cache holds the answer and asks again with
 * If-None-Match, which the unchanged data answers with a 304 (0 bytes on the wire).
 *
 *   npm run bench -- console
 *
 * Figures, 2026-11-27 08:16-08:20 UTC, commit ead29a7, 2 cores shared with three other engineers (load average
 * 14.9-16.1), p50 of 5 cold runs: Arrow (fields=plot) interactive 2.36 s (API answer in the browser 1.23 s, the
 * console after it 388 ms: decode 35, reshape 35, draw 301 ms), 570 KiB on the wire; repeat view 1.87 s (a 304,
 * 0 bytes of answer); JSON 4.26 s, 2,352 KiB (Arrow 0.55x the time, 0.24x the bytes); initial bundle 36.3 KiB
 * gzip. The code before (d312f4a) just before it, load 8.4-14.9: Arrow 3.64 s (API 2.44 s, console 507 ms), 1,042
 * KiB. All three before/after pairs: docs/console.md.
 *
 * 2026-11-27 10:43-10:44 UTC, commit ef4f0fa, no other jobs (load average 3.3-4.9: the bench's own Chromium, API
 * and seeding), p50 of 5 cold runs: Arrow interactive 964 ms, max 1,274 ms (API answer in the browser 553 ms, the
 * console after it 197 ms: decode 31, reshape 29, draw 129), 570 KiB; repeat view 478 ms; JSON 1,563 ms, 2,351
 * KiB (Arrow 0.62x the time, 0.24x the bytes); initial bundle 36.3 KiB gzip. Aim 1 s p50: met on a quiet machine.
 *
 * 2026-11-27 17:48 UTC, commit 57e5e83 with the browser switched from `chromium` (headless mode) to
 * `chromium-headless-shell`, no other jobs (load average 2.2-3.8): Arrow interactive 599 ms p50, max 907 ms (the
 * console after the answer 166 ms); JSON 1,051 ms (Arrow 0.57x the time, 0.24x the bytes). The shell does less
 * besides the page than the full browser did, so these figures are not comparable with the ones above.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hostOptions } from '../console/host/options.js';
import { createConsoleHost } from '../console/host/serve.js';
import { buildConsole, CONSOLE_BUILD } from '../test/helpers/build-dist.js';
import type { BrowserContext } from 'playwright-core';
import { launchBrowser } from '../test/helpers/console.js';
import { summarize } from './lib/measure.js';
import {
  CONSOLE_POINTS,
  CONSOLE_PROJECT,
  CONSOLE_SERIES,
  consoleSelection,
  seedConsoleProject,
} from './lib/console-seed.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const SERIES = CONSOLE_SERIES;
const POINTS = CONSOLE_POINTS;
const RUNS = 5;

/** index.html and the files it loads at once (not the chunks loaded later, such as the plot's). */
function initialBundle(root: string): { files: string[]; raw: number; gzip: number } {
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const files = ['index.html', ...assets];
  const bodies = files.map((file) => readFileSync(join(root, file)));
  return {
    files,
    raw: bodies.reduce((sum, b) => sum + b.length, 0),
    gzip: bodies.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0),
  };
}

type Wire = 'arrow' | 'json';

interface Run {
  /** Navigation start to the plot drawn (the page's clock). */
  readonly ready: number;
  /** Mouse move to the point's details shown. */
  readonly hover: number;
  readonly longestTask: number;
  /** The perf request: sent at, and its answer complete at. */
  readonly perfStart: number;
  readonly perfEnd: number;
  /** The answer decoded into columns, and reshaped into the plot's data (the explorer's marks). */
  readonly parsed: number;
  readonly shaped: number;
  /** The perf answer's body: as sent (gzip when the API compressed it) and decoded. */
  readonly wireBytes: number;
  readonly bodyBytes: number;
}

const IN_PAGE = `
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener('mousemove', () => { window.__hoverAt ??= performance.now(); }, true);
  new MutationObserver(() => {
    if (window.__tooltipAt === undefined && document.querySelector('[data-testid="plot-tooltip"]')) {
      window.__tooltipAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** Opens the explorer in a new tab of `context` and measures it until it answers a hover. */
async function view(context: BrowserContext, url: string, wire: Wire): Promise<Run> {
  const page = await context.newPage();
  try {
    const answer = page.waitForResponse((r) => r.url().includes('/perf?'), { timeout: 30_000 });
    await page.goto(url);
    const response = await answer;
    const type = response.headers()['content-type'] ?? '';
    // a revalidated answer (304) comes from the browser's cache: its type is the stored answer's
    if (response.status() !== 304 && !type.includes(wire === 'arrow' ? 'apache.arrow' : 'json'))
      throw new Error(`${wire} run got ${type}`);
    const bodyBytes = await response.body().then(
      (body) => body.length,
      () => 0,
    );
    const wireBytes = (await response.request().sizes()).responseBodySize;
    const plot = page.locator('.plot[data-ready="true"]');
    await plot.waitFor({ timeout: 30_000 });
    const status = (await page.getByTestId('plot-status').textContent()) ?? '';
    if (!status.startsWith(`${SERIES} series, ${(SERIES * POINTS).toLocaleString('en-US')} points`)) {
      throw new Error(`the explorer shows "${status}"`);
    }
    const box = (await plot.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByTestId('plot-tooltip').waitFor();
    const timings = (await page.evaluate(`({
      ready: performance.getEntriesByName('benchtrack:plot-ready')[0].startTime,
      hover: window.__tooltipAt - window.__hoverAt,
      longestTask: window.__longest,
      perfStart: performance.getEntriesByType('resource').find((e) => e.name.includes('/perf?')).startTime,
      perfEnd: performance.getEntriesByType('resource').find((e) => e.name.includes('/perf?')).responseEnd,
      parsed: performance.getEntriesByName('benchtrack:perf-parsed')[0].startTime,
      shaped: performance.getEntriesByName('benchtrack:plot-data')[0].startTime,
    })`)) as Omit<Run, 'wireBytes' | 'bodyBytes'>;
    return { ...timings, wireBytes, bodyBytes };
  } finally {
    await page.close();
  }
}

/**
 * A cold view (a fresh browser profile: nothing cached) and then a repeat view in a new tab of the same browser,
 * whose HTTP cache holds the answer and revalidates it with If-None-Match (a 304 while the data is unchanged).
 */
async function openExplorer(url: string, wire: Wire): Promise<{ cold: Run; repeat: Run }> {
  const browser = await launchBrowser();
  try {
    await browser.context.addInitScript(
      `${IN_PAGE}\nlocalStorage.setItem('benchtrack.perf-wire', '${wire}');`,
    );
    const cold = await view(browser.context, url, wire);
    const repeat = await view(browser.context, url, wire);
    return { cold, repeat };
  } finally {
    await browser.close();
  }
}

const report = new BenchReport(
  `console: perf explorer, ${SERIES} series x ${POINTS} points, ${RUNS} cold runs in Chromium`,
);
const dir = mkdtempSync(join(tmpdir(), 'console-bench-'));
await buildConsole();
const server = await startBenchServer(join(dir, 'bench.db'));
const host = createConsoleHost(
  hostOptions(['--api-url', server.url, '--host', '127.0.0.1', '--port', '0'], {}, CONSOLE_BUILD),
);
try {
  const seeded = performance.now();
  await seedConsoleProject(server.url);
  process.stderr.write(
    `seeded ${(SERIES * POINTS).toLocaleString()} metrics in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`,
  );
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  const consoleUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const url = `${consoleUrl}/perf/${CONSOLE_PROJECT}?${await consoleSelection(server.url)}`;

  const runs: Record<Wire, Run[]> = { arrow: [], json: [] };
  const repeats: Record<Wire, Run[]> = { arrow: [], json: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const wire of ['arrow', 'json'] as const) {
      const { cold, repeat } = await openExplorer(url, wire);
      runs[wire].push(cold);
      repeats[wire].push(repeat);
    }
  }
  const interactiveOf = (wire: Wire) => summarize(runs[wire].map((r) => r.ready + r.hover)).p50Ms;
  for (const wire of ['arrow', 'json'] as const) {
    addWire(report, wire, runs[wire]);
    addWire(report, `${wire}/repeat`, repeats[wire]);
  }
  report.ratio(
    'console/explorer-255x100/arrow/interactive',
    'the JSON wire',
    interactiveOf('arrow'),
    interactiveOf('json'),
  );
  const bytesOf = (wire: Wire) => summarize(runs[wire].map((r) => r.wireBytes)).p50Ms;
  report.ratio(
    'console/explorer-255x100/arrow/answer-bytes',
    'the JSON wire',
    bytesOf('arrow'),
    bytesOf('json'),
  );
  const bundle = initialBundle(CONSOLE_BUILD);
  report.add(
    'console/initial-bundle',
    'file-size',
    bundle.gzip,
    `${(bundle.gzip / 1024).toFixed(1)} KiB gzip (${(bundle.raw / 1024).toFixed(1)} KiB raw): ${bundle.files.join(', ')}`,
  );
  report.print();
} finally {
  host.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

/** One wire's figures. */
function addWire(report: BenchReport, wire: Wire | `${Wire}/repeat`, runs: readonly Run[]): void {
  const name = (what: string) => `console/explorer-255x100/${wire}/${what}`;
  const ready = summarize(runs.map((r) => r.ready));
  const interactive = summarize(runs.map((r) => r.ready + r.hover));
  const hover = summarize(runs.map((r) => r.hover));
  const longest = summarize(runs.map((r) => r.longestTask));
  const sent = summarize(runs.map((r) => r.perfStart));
  const api = summarize(runs.map((r) => r.perfEnd - r.perfStart));
  const after = summarize(runs.map((r) => r.ready - r.perfEnd));
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const max = (pick: (r: Run) => number) => ms(Math.max(...runs.map(pick)));
  const bytes = (pick: (r: Run) => number) => summarize(runs.map(pick)).p50Ms;
  report
    .add(
      name('answer-bytes'),
      'file-size',
      bytes((r) => r.wireBytes),
      `${(bytes((r) => r.wireBytes) / 1024).toFixed(0)} KiB on the wire, ${(bytes((r) => r.bodyBytes) / 1024).toFixed(0)} KiB decoded`,
    )
    .add(
      name('plot-drawn'),
      'latency',
      ready.p50Ms * 1e6,
      `p50 ${ms(ready.p50Ms)}, max ${max((r) => r.ready)}`,
    )
    .add(
      name('interactive'),
      'latency',
      interactive.p50Ms * 1e6,
      `p50 ${ms(interactive.p50Ms)}, max ${max((r) => r.ready + r.hover)} (drawn + first hover answered)`,
    )
    .add(name('perf-request-sent'), 'latency', sent.p50Ms * 1e6, `p50 ${ms(sent.p50Ms)} after navigation`)
    .add(
      name('api-answer'),
      'latency',
      api.p50Ms * 1e6,
      `p50 ${ms(api.p50Ms)} (the API: query, ${wire.startsWith('arrow') ? 'Arrow' : 'JSON'}, transfer)`,
    )
    .add(
      name('console-after-answer'),
      'latency',
      after.p50Ms * 1e6,
      `p50 ${ms(after.p50Ms)}, max ${max((r) => r.ready - r.perfEnd)} (parse, reshape, draw)`,
    )
    .add(
      name('decode'),
      'latency',
      summarize(runs.map((r) => r.parsed - r.perfEnd)).p50Ms * 1e6,
      `p50 ${ms(summarize(runs.map((r) => r.parsed - r.perfEnd)).p50Ms)} (answer to columns, reader included)`,
    )
    .add(
      name('reshape'),
      'latency',
      summarize(runs.map((r) => r.shaped - r.parsed)).p50Ms * 1e6,
      `p50 ${ms(summarize(runs.map((r) => r.shaped - r.parsed)).p50Ms)} (columns to the plot's data)`,
    )
    .add(
      name('draw'),
      'latency',
      summarize(runs.map((r) => r.ready - r.shaped)).p50Ms * 1e6,
      `p50 ${ms(summarize(runs.map((r) => r.ready - r.shaped)).p50Ms)} (the plot's data to the plot drawn)`,
    )
    .add(name('hover'), 'latency', hover.p50Ms * 1e6, `p50 ${hover.p50Ms.toFixed(1)} ms`)
    .add(name('longest-task'), 'latency', longest.p50Ms * 1e6, `p50 ${ms(longest.p50Ms)}`);
}
