import { setOwn, type Bmf, type BmfMeasures, type BmfMetric } from '../../core/bmf.js';

export interface MockSettings {
  readonly count: number;
  readonly measures: readonly string[];
  readonly pow: number;
  /** Without a seed the output differs on every run. */
  readonly seed?: number | undefined;
}

/**
 * Mock BMF as the reference's `mock` command makes it: benchmark c is `benchtrack::mock_c`, and each of its
 * measures is Uniform[10^pow * c, 10^pow * (c + 1)) with bounds at 0.9x and 1.1x. `flakyFails` is the
 * coin toss `--flaky` uses, from the same generator, so a seed also fixes the exit status.
 */
export function mockResults(settings: MockSettings): { bmf: Bmf; flakyFails: boolean } {
  const next = settings.seed === undefined ? Math.random : mulberry32(settings.seed);
  const scale = 10 ** settings.pow;
  const bmf: Bmf = {};
  for (let c = 0; c < settings.count; c++) {
    const measures: BmfMeasures = {};
    for (const measure of settings.measures) {
      const value = scale * (c + next());
      setOwn<BmfMetric>(measures, measure, { value, lower_value: value * 0.9, upper_value: value * 1.1 });
    }
    setOwn(bmf, `benchtrack::mock_${c}`, measures);
  }
  return { bmf, flakyFails: next() < 0.5 };
}

/** A small seeded generator (mulberry32): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
