import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { builtinModelModules } from '../plugins/models/index.js';
import type { BoundaryJob } from '../core/index.js';
import { computeBoundaries, INLINE_MAX_VALUES } from '../workers/compute-boundaries.js';
import { WorkerPool } from '../workers/pool.js';
import { percentile } from './lib/measure.js';
import { BenchReport, formatNumber } from './lib/report.js';
import { copyJob, seededJob } from './lib/series.js';

/**
 * Where a worker round trip starts to pay: jobs of 1..8192 series x 64 samples (t_test, upper 0.99), each
 * timed inline and as one pool task (what a job just above the threshold costs) on a warm pool. One task in
 * one worker does the same work plus the hop, so it is never faster than inline; what the hop buys is a main
 * thread that stays free. The hop's cost is pool - inline on tiny jobs (1..16 series, where the work is
 * negligible); the work blocks the event loop for the inline time. The crossover is the smallest job whose
 * inline time reaches the hop's cost: below it, inline blocks the loop for less than the worker would add to
 * the request. Times are the 25th percentile of many runs, which shrugs off other processes on a shared host.
 */
const SAMPLES = 64;
const models = [{ module: builtinModelModules.t_test, id: 't_test', params: { upper_boundary: 0.99 } }];
const threads = availableParallelism();
const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), {
  minThreads: threads,
  maxThreads: threads,
});
const report = new BenchReport('boundary job: inline vs one pool round trip (t_test, 64 samples per series)');

async function typicalMs(jobs: BoundaryJob[], run: (job: BoundaryJob) => Promise<unknown>): Promise<number> {
  const durations: number[] = [];
  for (const job of jobs) {
    const start = performance.now();
    await run(job);
    durations.push(performance.now() - start);
  }
  return percentile(
    durations.sort((a, b) => a - b),
    0.5,
  );
}

const inline = (job: BoundaryJob) => computeBoundaries(pool, job, { mode: 'inline' });
const roundTrip = (job: BoundaryJob) =>
  pool.run(
    'boundaries',
    job,
    [job.offsets, job.values, job.modelIndex].map((a) => a.buffer as ArrayBuffer),
  );

const warm = seededJob(64, SAMPLES, models);
for (let i = 0; i < 20 * threads; i++) await Promise.all([roundTrip(copyJob(warm)), inline(warm)]);

const rows: { series: number; inlineMs: number; poolMs: number }[] = [];
for (let series = 1; series <= 8192; series *= 2) {
  const base = seededJob(series, SAMPLES, models, { seed: series });
  const runs = Math.max(15, Math.min(300, Math.round(40_000 / series)));
  const jobs = () => Array.from({ length: runs }, () => copyJob(base));
  await typicalMs(jobs().slice(0, 5), inline);
  const inlineMs = await typicalMs(jobs(), inline);
  const poolMs = await typicalMs(jobs(), roundTrip);
  rows.push({ series, inlineMs, poolMs });
  const label = `boundaries/crossover/${series}x${SAMPLES}`;
  report.add(`${label}/inline`, 'latency', inlineMs * 1e6, `${formatNumber(inlineMs)} ms`);
  report.add(`${label}/pool`, 'latency', poolMs * 1e6, `${formatNumber(poolMs)} ms`);
}
await pool.close();

const hops = rows.filter((row) => row.series <= 16).map((row) => row.poolMs - row.inlineMs);
const hopMs = percentile(
  hops.sort((a, b) => a - b),
  0.5,
);
const crossover = rows.find((row) => row.inlineMs >= hopMs);
report.add(
  'boundaries/crossover/hop',
  'latency',
  hopMs * 1e6,
  `${formatNumber(hopMs)} ms (pool - inline, tiny jobs)`,
);
if (crossover === undefined) {
  report.add(
    'boundaries/crossover',
    'values',
    Number.NaN,
    'the work never outweighed the hop up to 8192 series',
  );
} else {
  const values = crossover.series * SAMPLES;
  report.add(
    'boundaries/crossover',
    'values',
    values,
    `${values} values (${crossover.series} series x ${SAMPLES})`,
  );
}
report.add('boundaries/crossover/current_threshold', 'values', INLINE_MAX_VALUES);
report.print();
