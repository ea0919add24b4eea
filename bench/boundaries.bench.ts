import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { builtinModelModules } from '../plugins/models/index.js';
import { computeBoundaries, type BoundaryJob } from '../workers/boundaries.js';
import { WorkerPool } from '../workers/pool.js';
import { percentile } from './lib/measure.js';
import { BenchReport, formatNumber } from './lib/report.js';
import { copyJob, seededJob } from './lib/series.js';

/**
 * Boundary throughput: 100,000 series x 64 samples with t_test (upper and lower 0.99), inline on the main
 * thread vs the worker pool (split across every core), series/s and the speedup, and the event-loop delay
 * (perf_hooks.monitorEventLoopDelay, 1 ms resolution) while each runs: inline blocks the loop for the whole job,
 * the pool should leave it free.
 */
const SERIES = 100_000;
const SAMPLES = 64;
const RUNS = 5;
const models = [
  {
    module: builtinModelModules.t_test,
    id: 't_test',
    params: { lower_boundary: 0.99, upper_boundary: 0.99 },
  },
];
const threads = availableParallelism();
const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), {
  minThreads: threads,
  maxThreads: threads,
});
const base = seededJob(SERIES, SAMPLES, models, { seed: 42 });

interface Run {
  readonly seconds: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

/** Times `RUNS` runs (after one warm-up), each on a fresh copy of the job, watching the event loop. */
async function measure(mode: 'inline' | 'pool'): Promise<Run> {
  const jobs: BoundaryJob[] = Array.from({ length: RUNS + 1 }, () => copyJob(base));
  await computeBoundaries(pool, jobs.pop() as BoundaryJob, { mode });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const times: number[] = [];
  // a timer keeps the loop busy, so a blocked loop shows up as delay even when nothing else is scheduled
  const ticker = setInterval(() => undefined, 1);
  histogram.enable();
  for (const job of jobs) {
    const start = performance.now();
    await computeBoundaries(pool, job, { mode });
    times.push((performance.now() - start) / 1000);
    // let the ticker fire, so a loop blocked by the run is recorded as delay
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  histogram.disable();
  clearInterval(ticker);
  return {
    seconds: percentile(
      times.sort((a, b) => a - b),
      0.5,
    ),
    loopP99Ms: histogram.percentile(99) / 1e6,
    loopMaxMs: histogram.max / 1e6,
  };
}

const inline = await measure('inline');
const pooled = await measure('pool');
await pool.close();

const report = new BenchReport(
  `boundaries: ${SERIES} series x ${SAMPLES} samples, t_test, ${threads} threads`,
);
for (const [name, run] of [
  ['inline', inline],
  ['pool', pooled],
] as const) {
  const rate = SERIES / run.seconds;
  const label = `boundaries/t_test/100k_x_64/${name}`;
  report.add(
    label,
    'throughput',
    rate,
    `${formatNumber(rate)} series/s (${formatNumber(run.seconds * 1000)} ms)`,
  );
  report.add(
    label,
    'event_loop_p99',
    run.loopP99Ms * 1e6,
    `${formatNumber(run.loopP99Ms)} ms p99 event-loop delay`,
  );
  report.add(
    label,
    'event_loop_max',
    run.loopMaxMs * 1e6,
    `${formatNumber(run.loopMaxMs)} ms max event-loop delay`,
  );
}
report.ratio('boundaries/t_test/100k_x_64/speedup', 'inline', inline.seconds, pooled.seconds);
report.print();
