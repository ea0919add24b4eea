/**
 * The API's memory under 12 concurrent heavy anonymous requests (issue 14 item 4): a public project of 127
 * benchmarks x 2 measures x 1,000 reports (254,000 metrics), served by a real `benchtrack-api` process whose
 * resident memory is read from /proc (VmRSS at rest, VmHWM = peak during each scenario).
 *   (a) 12 x the whole history of all 254 series at once (254,000 points; before the limits, 102 MB each)
 *   (b) 12 x the largest answer the limits allow (254 series x 196 reports = 49,784 points, about 20 MB)
 * While each scenario runs, GET /v0/server/version every 50 ms measures the event loop (p99).
 *
 * Run: npm run bench -- load
 * Against another checkout of the server (the code before the limits, say), with this bench and its seed:
 *   BENCH_SERVER_ROOT=/path/to/checkout npm run bench -- load
 *
 * Figures, 2026-11-23, 2 vCPUs shared with other jobs (load average 13); peak RSS, answers, time for all 12,
 * p99 of the version endpoint meanwhile:
 *   before (commit 01a116f)  (a) 1,363 MB, 12 x 200 (1,011 MB), 159 s, 5.95 s   (b) 1,155 MB, 12 x 200, 30 s, 1.30 s
 *   after                    (a)   547 MB, 12 x 400,             32 s, 0.47 s   (b)   589 MB, 12 x 200, 40 s, 1.46 s
 * At rest about 220 MB; (b) runs after (a) in the same process, so its peak includes what (a) left in DuckDB's
 * buffer pool (1,139 MB before, 491 MB after).
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

const startApi = () => startApiProcess(root, { file });

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

/** Fires `CONCURRENT` copies of `url` at once, reading every answer whole, while probing the event loop. */
async function scenario(api: ApiProcess, path: string): Promise<Outcome> {
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
    Array.from({ length: CONCURRENT }, async () => {
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
const report = new BenchReport(
  `load: ${CONCURRENT} concurrent heavy anonymous requests, ${BENCHMARKS} benchmarks x 2 measures x ${REPORTS} reports`,
);
let api: ApiProcess | undefined;
try {
  await seed();
  api = await startApi();
  await fetch(`${api.url}${perf(`&end_time=${START}`)}`).then((r) => r.arrayBuffer()); // warm the worker pool
  const largest = `&end_time=${START + 195 * STEP + 60_000}`; // reports 0..195: 196 x 254 = 49,784 points
  for (const [name, path] of [
    ['all-time', perf()],
    ['largest-allowed', perf(largest)],
  ] as const) {
    const o = await scenario(api, path);
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
      .add(name, 'latency', o.wallMs * 1e6, `${(o.wallMs / 1000).toFixed(1)} s for all ${CONCURRENT}`)
      .add(
        name,
        'version-p99',
        o.versionP99Ms * 1e6,
        `${o.versionP99Ms.toFixed(1)} ms p99 of /v0/server/version`,
      );
  }
  report.print();
} finally {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
}
