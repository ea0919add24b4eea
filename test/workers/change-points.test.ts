import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { detectChangePoints, errorName, DETECTION_DEFAULTS, type ChangePointJob } from '../../core/index.js';
import { detectInPool } from '../../workers/detect-changes.js';
import { WorkerPool } from '../../workers/pool.js';

const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), { maxThreads: 1 });
afterAll(() => pool.close());

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

  it('rejects bad settings with an InputError that names the field, across the thread boundary', async () => {
    const bad = { ...job(), params: { ...DETECTION_DEFAULTS, window_len: 1 } };
    const error = await detectInPool(pool, bad).catch((e: unknown) => e);
    expect(errorName(error)).toBe('InputError');
    expect((error as Error).message).toBe('change-point window_len must be an integer from 3 to 1000, got 1');
  });
});
