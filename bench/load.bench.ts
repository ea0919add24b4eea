/**
 * The API's memory under concurrent heavy anonymous requests: a public project of 127 benchmarks x 2 measures x
 * 1,000 reports (254,000 metrics), served by a real `benchtrack-api` process whose resident memory is read from
 * /proc (VmRSS at rest, VmHWM = peak during each scenario).
 *   (a) 12 x the whole history of all 254 series at once (254,000 points; refused as too large)
 *   (b) 12 x the largest answer the limits allow (254 series x 196 reports = 49,784 points, about 20 MB)
 *   (c) a storm: 12 each of (b) as JSON, as CSV and as Arrow, 12 PNG images of it and 12 expanded report lists,
 *       all at once (60 requests: 2 built at a time, 16 waiting, the rest refused with 503)
 * Each runs with the default database.memory_limit (1GiB) and with 256MiB, in a process of its own, to show what
 * the engine's share of the ceiling is. While each scenario runs, GET /v0/server/version every 50 ms measures the
 * event loop (p99).
 *
 * Run: npm run bench -- load
 * Against another checkout of the server (the code before the limits, say), with this bench and its seed:
 *   BENCH_SERVER_ROOT=/path/to/checkout npm run bench -- load
 *
 * Figures: docs/limits.md ("Memory under load"), with the machine's load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { memory, resetPeak, startApi as startApiProcess, type ApiProcess } from './lib/api-process.js';
import { fillHistory, seedRun } from './lib/seed-history.js';
import { summarize } from './lib/measure.js';
import { BenchReport } from './lib/report.js';

const BENCHMARKS = 127;
const REPORTS = 1_000;
const CONCURRENT = 12;
const START = Date.UTC(2025, 0, 1);
const STEP = 3_600_000;
const root = process.env.BENCH_SERVER_ROOT ?? resolve(fileURLToPath(import.meta.url), '../..');
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-load-'));
const file = join(dir, 'load.db');

const startApi = (memoryLimit?: string) =>
  startApiProcess(root, { file, ...(memoryLimit ? { memory_limit: memoryLimit } : {}) });

/** Creates the public project through the API (anonymous run), then fills the fact table with bare SQL. */
async function seed(): Promise<void> {
  const api = await startApi();
  await seedRun(api.url, 'load', START);
  await api.stop();
  await fillHistory(file, {
    benchmarks: BENCHMARKS,
    reports: REPORTS,
    startMs: START,
    stepMs: STEP,
    order: 'series',
  });
}

interface Outcome {
  readonly statuses: Record<number, number>;
  readonly bytes: number;
  readonly wallMs: number;
  readonly rssBefore: number;
  readonly peak: number;
  readonly versionP99Ms: number;
}

/** Fires every path of `paths` at once, reading every answer whole, while probing the event loop. */
async function scenario(api: ApiProcess, paths: readonly string[]): Promise<Outcome> {
  const pid = api.child.pid as number;
  const rssBefore = memory(pid).rss;
  resetPeak(pid);
  let probing = true;
  const probes: number[] = [];
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      await fetch(`${api.url}/v0/server/version`).then((r) => r.arrayBuffer());
      probes.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, 50));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(
    paths.map(async (path) => {
      const response = await fetch(`${api.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    }),
  );
  const wallMs = performance.now() - started;
  probing = false;
  await probe;
  const statuses: Record<number, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    statuses,
    bytes: answers.reduce((sum, a) => sum + a.bytes, 0),
    wallMs,
    rssBefore,
    peak: memory(pid).peak,
    versionP99Ms: summarize(probes).p99Ms,
  };
}

const MB = 1024 * 1024;
const benchmarks = Array.from({ length: BENCHMARKS }, (_, i) => `b-${i}`).join(',');
const perf = (extra = '') =>
  `/v0/projects/load/perf?branches=main&testbeds=ci&benchmarks=${benchmarks}&measures=latency,throughput${extra}`;
const times = (path: string) => Array.from({ length: CONCURRENT }, () => path);
const largest = `&end_time=${START + 195 * STEP + 60_000}`; // reports 0..195: 196 x 254 = 49,784 points
const image = perf(largest).replace('/perf?', '/perf/img?');
const SCENARIOS = [
  ['all-time', times(perf())],
  ['largest-allowed', times(perf(largest))],
  [
    'storm',
    [
      ...times(perf(largest)),
      ...times(perf(`${largest}&format=csv`)),
      ...times(perf(`${largest}&format=arrow`)),
      ...times(image),
      ...times('/v0/projects/load/reports?expand=true&per_page=39'),
    ],
  ],
] as const;

const report = new BenchReport(
  `load: ${CONCURRENT} concurrent heavy anonymous requests, ${BENCHMARKS} benchmarks x 2 measures x ${REPORTS} reports`,
);
let api: ApiProcess | undefined;
try {
  await seed();
  for (const memoryLimit of [undefined, '256MiB']) {
    api = await startApi(memoryLimit);
    await fetch(`${api.url}${perf(`&end_time=${START}`)}`).then((r) => r.arrayBuffer()); // warm the worker pool
    const limit = memoryLimit ?? 'default';
    for (const [scenarioName, paths] of SCENARIOS) {
      const o = await scenario(api, paths);
      const name = `${scenarioName} (memory_limit ${limit})`;
      const statuses = Object.entries(o.statuses)
        .map(([status, n]) => `${n} x ${status}`)
        .join(', ');
      report
        .add(
          name,
          'peak-rss-mb',
          o.peak / MB,
          `${(o.peak / MB).toFixed(0)} MB (at rest ${(o.rssBefore / MB).toFixed(0)} MB)`,
        )
        .add(name, 'answers-mb', o.bytes / MB, `${(o.bytes / MB).toFixed(1)} MB in all: ${statuses}`)
        .add(name, 'latency', o.wallMs * 1e6, `${(o.wallMs / 1000).toFixed(1)} s for all ${paths.length}`)
        .add(
          name,
          'version-p99',
          o.versionP99Ms * 1e6,
          `${o.versionP99Ms.toFixed(1)} ms p99 of /v0/server/version`,
        );
    }
    await api.stop();
    api = undefined;
  }
  report.print();
} finally {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
}
