import { Random } from './random.js';

/**
 * A second seeded stress corpus, written independently of bench/lib/change-corpus.ts for a competing detector:
 * other noise shapes (a slow curve, a mix of heavy tails, outliers and drift), other lengths and noise levels
 * (0.5-8%), other labels. No setting of core/detection was chosen on it; it measures what the detector does on
 * series whose generator it has never seen.
 */
export const SECOND_NOISE_SHAPES = [
  'gaussian',
  'student_t3',
  'bimodal',
  'outliers',
  'drift',
  'wander',
  'seasonal',
  'variance_change',
  'quantized',
  'gaps',
  'mixed',
] as const;
export type SecondShape = (typeof SECOND_NOISE_SHAPES)[number];

/** One labelled series, in the corpus's convention: each index is the first point of a new level. */
export interface SecondSeries {
  readonly id: string;
  readonly shape: SecondShape;
  readonly values: Float64Array;
  readonly truth: number[];
  /** Steps too small to require: below 4 standard errors of a 20-point mean of the noise. */
  readonly optional: number[];
  /** The noise's standard deviation relative to the level. */
  readonly cv: number;
}

export interface SecondOptions {
  /** Series per shape. */
  readonly perShape: number;
  readonly shapes?: readonly SecondShape[];
  /** Length range (inclusive). */
  readonly length?: readonly [number, number];
  /** Noise range, relative standard deviation, drawn log-uniformly. */
  readonly cv?: readonly [number, number];
  /** Step count of series that have steps (every sixth series has none). */
  readonly steps?: readonly [number, number];
  /** Relative step size range (each step's sign is random). */
  readonly stepSize?: readonly [number, number];
  /** Fewest points between two steps or a step and an end. */
  readonly minSegment?: number;
}

const MIN_SEGMENT = 20;

/**
 * A seeded stress corpus for change-point detectors: benchmark-like series (a level with multiplicative steps of
 * 4-40% and noise of 0.5-4% relative standard deviation, every sixth series without a step) under eleven noise
 * shapes: Gaussian; Student-t with 3 degrees of freedom; bimodal (two modes 1.8 sd apart); Gaussian with 1% of
 * points 8 sd off (either side); Gaussian on a linear drift of up to ±2% over the series; Gaussian on a slow curve (two sines of 0.5-2 periods over the series, together at most ±1%); a sine of 4-14 points
 * period and 0.5-1 sd amplitude; the sd doubled or halved from a random point on (no level change); values
 * rounded to a grid of 0.5-1.5 sd; 1-3 runs of 5-30 points removed (gaps); and Student-t with outliers and
 * drift at once. The same seed gives the same corpus.
 */
export function secondCorpus(seed: number, options: SecondOptions): SecondSeries[] {
  const random = new Random(seed);
  const shapes = options.shapes ?? SECOND_NOISE_SHAPES;
  const out: SecondSeries[] = [];
  for (const shape of shapes) {
    for (let k = 0; k < options.perShape; k++) {
      const flat = k % 6 === 5;
      out.push(series(random, shape, `${shape}/${seed}/${k}`, flat, options));
    }
  }
  return out;
}

function uniform(random: Random, [lo, hi]: readonly [number, number]): number {
  return lo + (hi - lo) * random.next();
}

function integer(random: Random, [lo, hi]: readonly [number, number]): number {
  return lo + Math.floor(random.next() * (hi - lo + 1));
}

/** Student-t with 3 degrees of freedom, scaled to unit variance. */
function studentT3(random: Random): number {
  const z = random.normal();
  let chi = 0;
  for (let i = 0; i < 3; i++) chi += random.normal() ** 2;
  return z / Math.sqrt(chi / 3) / Math.sqrt(3);
}

/** Step positions with every segment at least `minSegment` long (rejection sampling). */
function stepPositions(random: Random, n: number, count: number, minSegment: number): number[] {
  for (;;) {
    const at = Array.from(
      { length: count },
      () => minSegment + Math.floor(random.next() * (n - 2 * minSegment + 1)),
    );
    at.sort((a, b) => a - b);
    const edges = [0, ...at, n];
    if (edges.every((e, i) => i === 0 || e - edges[i - 1]! >= minSegment)) return at;
  }
}

function series(
  random: Random,
  shape: SecondShape,
  id: string,
  flat: boolean,
  o: SecondOptions,
): SecondSeries {
  const minSegment = o.minSegment ?? MIN_SEGMENT;
  const n = integer(random, o.length ?? [100, 800]);
  const [cvLo, cvHi] = o.cv ?? [0.005, 0.08];
  const cv = cvLo * (cvHi / cvLo) ** random.next();
  const count = flat ? 0 : integer(random, o.steps ?? [1, 4]);
  const at = stepPositions(random, n, count, minSegment);
  const base = 10 ** uniform(random, [-1, 5]);
  const levels = new Float64Array(n);
  const sizes: number[] = [];
  let level = base;
  for (let i = 0, next = 0; i < n; i++) {
    if (next < at.length && i === at[next]) {
      const size = uniform(random, o.stepSize ?? [0.04, 0.4]) * (random.next() < 0.5 ? -1 : 1);
      sizes.push(size);
      level *= 1 + size;
      next++;
    }
    levels[i] = level;
  }
  const noiseSd = new Float64Array(n).fill(cv);
  if (shape === 'variance_change') {
    const from = integer(random, [minSegment, n - minSegment]);
    const factor = random.next() < 0.5 ? 2 : 0.5;
    for (let i = from; i < n; i++) noiseSd[i] = cv * factor;
  }
  const drift = shape === 'drift' || shape === 'mixed' ? uniform(random, [-0.02, 0.02]) : 0;
  // a slow curve: two sines of 0.5-2 periods over the series, at most ±1% of the level together
  const wander = [0, 1].map(() => ({
    amplitude: shape === 'wander' ? uniform(random, [0, 0.005]) : 0,
    cycles: uniform(random, [0.5, 2]),
    phase: uniform(random, [0, 2 * Math.PI]),
  }));
  const period = uniform(random, [4, 14]);
  const amplitude = uniform(random, [0.5, 1]);
  const phase = uniform(random, [0, 2 * Math.PI]);
  const quantum = uniform(random, [0.5, 1.5]) * cv * base;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let e: number;
    switch (shape) {
      case 'student_t3':
        e = studentT3(random);
        break;
      case 'bimodal':
        e = (random.next() < 0.5 ? -0.9 : 0.9) + 0.4359 * random.normal();
        break;
      case 'outliers':
        e = random.normal() + (random.next() < 0.01 ? (random.next() < 0.5 ? -8 : 8) : 0);
        break;
      case 'seasonal':
        e = random.normal() + amplitude * Math.SQRT2 * Math.sin((2 * Math.PI * i) / period + phase);
        break;
      case 'mixed':
        e = studentT3(random) + (random.next() < 0.01 ? 8 : 0);
        break;
      default:
        e = random.normal();
    }
    const curve = wander.reduce(
      (sum, w) => sum + w.amplitude * Math.sin((2 * Math.PI * w.cycles * i) / n + w.phase),
      0,
    );
    let v = levels[i]! * (1 + (drift * i) / n + curve) + levels[i]! * noiseSd[i]! * e;
    if (shape === 'quantized') v = Math.round(v / quantum) * quantum;
    values[i] = v;
  }
  // a step is required when it is at least 4 standard errors of a 20-point mean of the noise on either side
  const required = (k: number) => {
    const sd =
      Math.max(noiseSd[at[k]! - 1]!, noiseSd[at[k]!]!) *
      (shape === 'seasonal' ? Math.sqrt(1 + amplitude ** 2) : 1);
    return Math.abs(sizes[k]!) >= (4 * sd) / Math.sqrt(20);
  };
  let truth = at.filter((_, k) => required(k));
  let optional = at.filter((_, k) => !required(k));
  let kept = values;
  if (shape === 'gaps') {
    const keep = new Uint8Array(n).fill(1);
    const runs = integer(random, [1, 3]);
    for (let r = 0; r < runs; r++) {
      const length = integer(random, [5, 30]);
      const from = integer(random, [0, n - length]);
      keep.fill(0, from, from + length);
    }
    const position = new Int32Array(n + 1);
    for (let i = 0, j = 0; i <= n; i++) {
      position[i] = j;
      if (i < n && keep[i]) j++;
    }
    kept = values.filter((_, i) => keep[i] === 1);
    const map = (points: number[]) =>
      [...new Set(points.map((p) => position[p]!))].filter((p) => p > 0 && p < kept.length);
    truth = map(truth);
    optional = map(optional).filter((p) => !truth.includes(p));
  }
  return { id, shape, values: kept, truth, optional, cv };
}
