import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { detectChangePoints, errorName, DETECTION_DEFAULTS, type ChangePointJob } from '../../core/index.js';
import { Random } from '../../bench/lib/random.js';
import { DETECTION_PIECE_MIN_VALUES, detectInPool } from '../../workers/detect-changes.js';
import { WorkerPool } from '../../workers/pool.js';
import { computeChangePoints } from '../../workers/tasks/change-points.js';

const logger = pino({ level: 'silent', customLevels: { critical: 60 } });
const pool = new WorkerPool(logger, { maxThreads: 1 });
const pair = new WorkerPool(logger, { maxThreads: 2 });
afterAll(() => Promise.all([pool.close(), pair.close()]));

/** Deterministic series: a 10% step at 40 with ±1% ripple, a flat series, and a series too short to split. */
const series = [
  Float64Array.from({ length: 80 }, (_, i) => (i < 40 ? 100 : 110) + ((i * 37) % 11) / 5 - 1),
  Float64Array.from({ length: 60 }, (_, i) => 100 + ((i * 37) % 11) / 5 - 1),
  Float64Array.of(1, 2),
];

function job(): ChangePointJob {
  const offsets = new Uint32Array(series.length + 1);
  series.forEach((s, i) => (offsets[i + 1] = (offsets[i] as number) + s.length));
  const values = new Float64Array(offsets[series.length] as number);
  series.forEach((s, i) => values.set(s, offsets[i]));
  return { offsets, values, params: DETECTION_DEFAULTS };
}

describe('detectInPool', () => {
  it('gives each series the change points the detector finds inline, from a worker thread', async () => {
    const input = job();
    const columns = await detectInPool(pool, input);
    expect(input.values.byteLength).toBe(0); // moved to the worker, not copied
    expect(Array.from(columns.offsets)).toEqual([0, 1, 1, 1]);
    const inline = detectChangePoints(series[0] as Float64Array, DETECTION_DEFAULTS);
    expect(inline.map((p) => p.index)).toEqual([40]);
    expect(columns.index[0]).toBe(40);
    expect(columns.before[0]).toBe(inline[0]?.meanBefore);
    expect(columns.after[0]).toBe(inline[0]?.meanAfter);
    expect(columns.pValue[0]).toBe(inline[0]?.pValue);
  });

  it('splits a large job between the threads and gives the answer of one job', async () => {
    const random = new Random(3);
    const lengths = Array.from({ length: 100 }, (_, i) => 300 + ((i * 53) % 1700));
    const offsets = new Uint32Array(lengths.length + 1);
    lengths.forEach((n, i) => (offsets[i + 1] = (offsets[i] as number) + n));
    const values = Float64Array.from(
      { length: offsets[lengths.length] as number },
      (_, i) => (i % 700 < 350 ? 100 : 104) + random.normal(),
    );
    expect(values.length).toBeGreaterThan(2 * DETECTION_PIECE_MIN_VALUES);
    const whole = computeChangePoints({ offsets, values, params: DETECTION_DEFAULTS });
    expect(whole.index.length).toBeGreaterThan(100);
    const run = vi.spyOn(pair, 'run');
    try {
      const split = await detectInPool(pair, {
        offsets: offsets.slice(),
        values: values.slice(),
        params: DETECTION_DEFAULTS,
      });
      expect(run.mock.calls.map(([task]) => task)).toEqual(['change-points', 'change-points']);
      expect(split).toEqual(whole);
    } finally {
      run.mockRestore();
    }
  });

  it('rejects bad settings with an InputError that names the field, across the thread boundary', async () => {
    const bad = { ...job(), params: { ...DETECTION_DEFAULTS, window_len: 1 } };
    const error = await detectInPool(pool, bad).catch((e: unknown) => e);
    expect(errorName(error)).toBe('InputError');
    expect((error as Error).message).toBe('change-point window_len must be an integer from 3 to 1000, got 1');
  });
});
