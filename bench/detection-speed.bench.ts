import { pino } from 'pino';
import { DETECTION_DEFAULTS, type Bmf } from '../core/index.js';
import { detectInPool } from '../workers/detect-changes.js';
import { WorkerPool } from '../workers/pool.js';
import { time } from './lib/measure.js';
import { Random } from './lib/random.js';

/**
 * Change-point detection time per series in a worker (the path the API takes), at 1,000, 10,000 and 100,000
 * points, default settings (window_len 50), and the growth ratio between sizes: 10 means linear. Seeded
 * series: a level that steps by ±5-10% every 500 points, Gaussian noise of 2%. Each timing includes the
 * round trip to the worker (the series is copied, then moved).
 */
const SIZES = [1_000, 10_000, 100_000];
const ITERATIONS: Record<number, number> = { 1_000: 20, 10_000: 10, 100_000: 5 };

function seeded(n: number): Float64Array {
  const random = new Random(n);
  let level = 100;
  return Float64Array.from({ length: n }, (_, i) => {
    if (i > 0 && i % 500 === 0) level *= 1 + (random.next() < 0.5 ? -1 : 1) * (0.05 + 0.05 * random.next());
    return level * (1 + 0.02 * random.normal());
  });
}

const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), { maxThreads: 1 });
const bmf: Bmf = {};
const lines: string[] = [];
let previous: number | undefined;
for (const n of SIZES) {
  const series = seeded(n);
  let found = 0;
  const timing = await time(
    async () => {
      const columns = await detectInPool(pool, {
        offsets: Uint32Array.of(0, n),
        values: series.slice(),
        params: DETECTION_DEFAULTS,
      });
      found = columns.index.length;
    },
    { iterations: ITERATIONS[n], warmup: 1 },
  );
  const growth = previous === undefined ? '' : `, ${(timing.p50Ms / previous).toFixed(1)}x the previous size`;
  previous = timing.p50Ms;
  lines.push(
    `${String(n).padStart(7)} points: p50 ${timing.p50Ms.toFixed(1)} ms, min ${timing.minMs.toFixed(1)} ms, ${found} change points${growth}`,
  );
  bmf[`detection_speed/${n}`] = { latency: { value: timing.p50Ms * 1e6, lower_value: timing.minMs * 1e6 } };
}
await pool.close();
process.stderr.write(
  `\n== detection speed: one series in a worker, default settings (window_len ${DETECTION_DEFAULTS.window_len}) ==\n${lines.join('\n')}\n`,
);
process.stdout.write(`${JSON.stringify(bmf)}\n`);
