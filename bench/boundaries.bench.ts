import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { builtinModelModules } from '../plugins/models/index.js';
import { computeBoundaries } from '../workers/compute-boundaries.js';
import { WorkerPool } from '../workers/pool.js';
import { percentile } from './lib/measure.js';
import { BenchReport, formatNumber } from './lib/report.js';
import { copyJob, seededJob } from './lib/series.js';

/**
 * Boundary throughput: 100,000 series x 64 samples with t_test (upper and lower 0.99), inline on the main
 * thread vs the worker pool split across every core, and across every core but one (which leaves the event
 * loop a core of its own); series/s, the speedup, and the event-loop delay (perf_hooks.monitorEventLoopDelay,
 * 1 ms resolution) while each runs: inline blocks the loop for the whole job, the pool should leave it free.
 * The machine's parallel capacity is measured in the same run (a fixed compute loop in 1 and in N threads at
 * once), since a shared or throttled host caps any speedup below the core count.
 *
 * `npm run bench -- boundaries`, 2-vCPU Xeon VM shared with other jobs (load average 3.5-6), Node 20.20, six
 * runs: inline 281k-567k series/s, blocking the event loop 0.2-0.67 s per job; pool of 2 threads 251k-554k
 * series/s (0.64x-1.21x inline) with event-loop p99 9-23 ms; pool of 1 thread 0.58x-1.21x, p99 4-7 ms. The
 * host gave 0.87-1.65 cores' worth of work from 2 threads during those runs, which bounds the speedup.
 */
const SERIES = 100_000;
const SAMPLES = 64;
const RUNS = 7;
const models = [
  {
    module: builtinModelModules.t_test,
    id: 't_test',
    params: { lower_boundary: 0.99, upper_boundary: 0.99 },
  },
];
const threads = availableParallelism();
const base = seededJob(SERIES, SAMPLES, models, { seed: 42 });

interface Run {
  readonly seconds: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

/**
 * Times `RUNS` runs (after one warm-up), each on a fresh copy of the job made just before it (copies alive at
 * once would add GC pressure that is not the service's), watching the event loop only while a run is going.
 */
async function measure(mode: 'inline' | 'pool', pool: WorkerPool): Promise<Run> {
  await computeBoundaries(pool, copyJob(base), { mode });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const times: number[] = [];
  // a timer keeps the loop busy, so a blocked loop shows up as delay even when nothing else is scheduled
  const ticker = setInterval(() => undefined, 1);
  for (let run = 0; run < RUNS; run++) {
    const job = copyJob(base);
    await new Promise((resolve) => setTimeout(resolve, 20));
    histogram.enable();
    const start = performance.now();
    await computeBoundaries(pool, job, { mode });
    times.push((performance.now() - start) / 1000);
    // let the ticker fire, so a loop blocked by the run is recorded as delay
    await new Promise((resolve) => setTimeout(resolve, 5));
    histogram.disable();
  }
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

async function withPool<T>(size: number, use: (pool: WorkerPool) => Promise<T>): Promise<T> {
  const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), {
    minThreads: size,
    maxThreads: size,
  });
  try {
    return await use(pool);
  } finally {
    await pool.close();
  }
}

/** How many cores' worth of work N threads get done here: N x (time of 1 thread) / (time of N at once). */
async function parallelCapacity(n: number): Promise<number> {
  const spin = 'let x = 0; for (let i = 0; i < 2e8; i++) x += i % 7; if (x < 0) console.log(x);';
  const run = async (count: number) => {
    const start = performance.now();
    await Promise.all(
      Array.from(
        { length: count },
        () => new Promise((resolve) => new Worker(spin, { eval: true }).on('exit', resolve)),
      ),
    );
    return performance.now() - start;
  };
  const one = Math.min(await run(1), await run(1));
  const many = Math.min(await run(n), await run(n));
  return (n * one) / many;
}

const capacity = await parallelCapacity(threads);
const inline = await withPool(1, (pool) => measure('inline', pool));
const pooled = await withPool(threads, (pool) => measure('pool', pool));
const spared = threads > 1 ? await withPool(threads - 1, (pool) => measure('pool', pool)) : undefined;

const report = new BenchReport(
  `boundaries: ${SERIES} series x ${SAMPLES} samples, t_test, ${threads} threads`,
);
report.add(
  'boundaries/parallel_capacity',
  'cores',
  capacity,
  `${capacity.toFixed(2)} cores' worth of work from ${threads} threads`,
);
const runs: [string, Run][] = [
  ['inline', inline],
  [`pool_${threads}_threads`, pooled],
];
if (spared) runs.push([`pool_${threads - 1}_threads`, spared]);
for (const [name, run] of runs) {
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
for (const [name, run] of runs.slice(1)) {
  const speedup = inline.seconds / run.seconds;
  report.add(
    `boundaries/t_test/100k_x_64/${name}`,
    'speedup',
    speedup,
    `${speedup.toFixed(2)}x inline's rate`,
  );
}
report.print();
