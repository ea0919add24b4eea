import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { DETECTION_DEFAULTS, detectChangePoints, type ChangePointJob } from '../core/index.js';
import { OTAVA_DEFAULTS, otavaChangePoints } from '../core/detection/otava.js';
import { builtinModelModules } from '../plugins/models/index.js';
import { computeBoundaries } from '../workers/compute-boundaries.js';
import { detectInPool } from '../workers/detect-changes.js';
import { WorkerPool } from '../workers/pool.js';
import { labelledSeries, NOISE_SHAPES, STRESS_CORPUS } from './lib/change-corpus.js';
import { naiveBinarySegmentation } from './lib/naive-binseg.js';
import { Random } from './lib/random.js';
import { BenchReport } from './lib/report.js';

/**
 * Change-point detection speed, `npm run bench -- detection-speed`:
 *
 * 1. Per series, on the main thread: the product's detector (core/detection, default settings), Otava's as it
 *    ships (window 50, p 0.001) and a naive robust binary segmentation, on the same seeded stress-corpus series
 *    of 50, 200 and 1,000 points (every noise shape, 0 to 4 steps), the three interleaved in each round; the
 *    median of the rounds, and the ratio to Otava.
 * 2. Throughput: 10,000 series x 1,000 points through the real worker pool, one job split between the threads
 *    (workers/detect-changes.ts), with as many threads as cores and with the API's default (cores - 1).
 * 3. Cost in the ingest path: a report of 100 benchmarks x 2 measures under a change_point threshold is detected
 *    twice per metric (history without and with the new value, core/reports/change-alerts.ts), one job through
 *    the pool; histories of 64, 200 and 1,000 points. The reference is the same report's t_test boundary job
 *    (64 samples), computed as ingest computes it.
 *
 * The machine's load average is printed: every figure here is CPU time on a machine shared with other work.
 */
const report = new BenchReport('change-point detection speed');
const logger = pino({ level: 'silent', customLevels: { critical: 60 } });
const notes: string[] = [
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the start`,
];

/** `count` seeded series of `n` points, cycling through the stress corpus's noise shapes. */
function corpusOf(n: number, count: number, seed: number): Float64Array[] {
  return Array.from(
    { length: count },
    (_, i) =>
      labelledSeries(
        new Random(seed * 100_003 + i),
        `${n}/${i}`,
        NOISE_SHAPES[i % NOISE_SHAPES.length]!,
        i % 6 === 5,
        {
          ...STRESS_CORPUS,
          length: [n, n],
          segment: Math.min(STRESS_CORPUS.segment, Math.floor(n / 5)),
        },
      ).values,
  );
}

const detectors: [string, (values: Float64Array) => unknown][] = [
  ['ours', (values) => detectChangePoints(values, DETECTION_DEFAULTS)],
  ['otava', (values) => otavaChangePoints(values, OTAVA_DEFAULTS)],
  ['binseg', (values) => naiveBinarySegmentation(values)],
];

// 1. per series, interleaved rounds
const ROUNDS = 5;
for (const [n, count] of [
  [50, 2000],
  [200, 500],
  [1000, 100],
] as const) {
  const series = corpusOf(n, count, n);
  const rounds = new Map<string, number[]>(detectors.map(([name]) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, detect] of detectors) {
      const start = performance.now();
      for (const values of series) detect(values);
      const us = ((performance.now() - start) * 1000) / count;
      if (round > 0) rounds.get(name)?.push(us); // round 0 warms up
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] as number;
  const otava = median(rounds.get('otava') as number[]);
  for (const [name] of detectors) {
    const us = median(rounds.get(name) as number[]);
    report.add(`detection_speed/${name}/${n}`, 'latency', us * 1000, `${us.toFixed(1)} us per series`);
    if (name !== 'otava') report.ratio(`detection_speed/${name}/${n}`, 'otava', us, otava);
  }
}

// 2. throughput through the pool
const SERIES = 10_000;
const POINTS = 1_000;
const throughputJob = (() => {
  const series = corpusOf(POINTS, SERIES, 7);
  const offsets = Uint32Array.from({ length: SERIES + 1 }, (_, i) => i * POINTS);
  const values = new Float64Array(SERIES * POINTS);
  series.forEach((s, i) => values.set(s, i * POINTS));
  return { offsets, values, params: DETECTION_DEFAULTS } satisfies ChangePointJob;
})();
const cores = availableParallelism();
for (const threads of [...new Set([cores, Math.max(1, cores - 1)])]) {
  const pool = new WorkerPool(logger, { maxThreads: threads, minThreads: threads, taskTimeLimit: 600_000 });
  const copy = () => ({
    ...throughputJob,
    offsets: throughputJob.offsets.slice(),
    values: throughputJob.values.slice(),
  });
  await detectInPool(pool, {
    ...throughputJob,
    offsets: Uint32Array.of(0, POINTS),
    values: throughputJob.values.slice(0, POINTS),
  });
  const times: number[] = [];
  let found = 0;
  for (let run = 0; run < 3; run++) {
    const job = copy();
    const start = performance.now();
    const columns = await detectInPool(pool, job);
    times.push((performance.now() - start) / 1000);
    found = columns.index.length;
  }
  await pool.close();
  times.sort((a, b) => a - b);
  const best = times[0] as number;
  report.add(
    `detection_throughput/${threads}_threads`,
    'latency',
    { value: (times[1] as number) * 1e9, lower_value: best * 1e9 },
    `${SERIES.toLocaleString('en')} x ${POINTS.toLocaleString('en')} in ${(times[1] as number).toFixed(2)} s (best ${best.toFixed(2)} s), ${Math.round(SERIES / best)} series/s, ${found} change points`,
  );
}

// 3. the ingest path
const METRICS = 200;
const boundaryJob = {
  offsets: Uint32Array.from({ length: METRICS + 1 }, (_, i) => i * 64),
  values: Float64Array.from({ length: METRICS * 64 }, (_, i) => 100 + ((i * 7919) % 13)),
  modelIndex: new Uint16Array(METRICS),
  models: [{ module: builtinModelModules.t_test, id: 't_test', params: { upper_boundary: 0.99 } }],
};
const pool = new WorkerPool(logger, { minThreads: 1 });
const time = async (run: () => Promise<unknown>) => {
  await run();
  const times: number[] = [];
  for (let k = 0; k < 15; k++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[7] as number;
};
const boundaryMs = await time(() =>
  computeBoundaries(pool, {
    ...boundaryJob,
    offsets: boundaryJob.offsets.slice(),
    values: boundaryJob.values.slice(),
  }),
);
report.add(
  'detection_ingest/t_test_boundaries',
  'latency',
  boundaryMs * 1e6,
  `${boundaryMs.toFixed(2)} ms per report`,
);
for (const history of [64, 200, 1000]) {
  const series = corpusOf(history + 1, METRICS, history);
  const offsets = new Uint32Array(2 * METRICS + 1);
  for (let i = 0; i < 2 * METRICS; i++) offsets[i + 1] = (offsets[i] as number) + history + (i % 2);
  const values = new Float64Array(offsets[2 * METRICS] as number);
  series.forEach((s, m) => {
    values.set(s.subarray(0, history), offsets[2 * m] as number);
    values.set(s, offsets[2 * m + 1] as number);
  });
  const ms = await time(() =>
    detectInPool(pool, { offsets: offsets.slice(), values: values.slice(), params: DETECTION_DEFAULTS }),
  );
  report.add(
    `detection_ingest/change_point_${history}`,
    'latency',
    ms * 1e6,
    `${ms.toFixed(2)} ms per report`,
  );
  report.ratio(`detection_ingest/change_point_${history}`, 't_test boundaries', ms, boundaryMs);
}
await pool.close();
notes.push(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end`,
);
report.print();
process.stderr.write(`${notes.join('; ')}\n`);
