import { Random } from './random.js';

/**
 * The noise shapes of the stress corpus. The first five are those the change-point detector must hold on
 * (Gaussian, Student-t with 3 degrees of freedom, bimodal, 1% outliers at 8 sigma, slow drift); the others are
 * shapes no setting was tuned on: seasonality, a variance change without a level change, quantized values, and
 * gaps in time under a drift.
 */
export const NOISE_SHAPES = [
  'gaussian',
  'student_t3',
  'bimodal',
  'outliers',
  'drift',
  'seasonal',
  'variance_change',
  'quantized',
  'gaps',
] as const;
export type NoiseShape = (typeof NOISE_SHAPES)[number];

/** A labelled series, in the change-point corpus's convention: each index is the first point after a change. */
export interface LabelledSeries {
  readonly id: string;
  readonly shape: NoiseShape;
  /** Coefficient of variation of the noise's scale (the Gaussian part's standard deviation / level). */
  readonly cv: number;
  readonly values: Float64Array;
  /** Steps a detector must find. */
  readonly truth: number[];
  /** Steps below 4 standard errors of a 20-point mean, and jumps made by a drift across a gap: neither rewarded nor punished. */
  readonly optional: number[];
}

export interface CorpusShape {
  /** Shortest and longest series. */
  readonly length: readonly [number, number];
  /** Smallest and largest relative step. */
  readonly step: readonly [number, number];
  /** Smallest and largest noise scale, as a coefficient of variation. */
  readonly cv: readonly [number, number];
  /** Fewest points between two steps and between a step and either end. */
  readonly segment: number;
}

/**
 * The description of the hidden sets (0-4 steps of 4-40%, segments of at least 20 points); lengths and
 * noise scales are not given there and were fixed before any detector was tuned: 80 to 1,000 points, noise scale
 * 0.5% to 2% of the level (log-uniform).
 */
export const STRESS_CORPUS: CorpusShape = {
  length: [80, 1000],
  step: [0.04, 0.4],
  cv: [0.005, 0.02],
  segment: 20,
};

/**
 * `count` seeded series: series i has noise shape i mod 9 and every sixth series (i mod 6 = 5) has no step; the
 * others have 1 to 4 steps up or down, at random places that leave every segment `segment` points or more. Values
 * are level · (1 + drift) + level · cv · noise, the level starting anywhere from 0.01 to 10⁶ so that nothing
 * depends on units. Two calls with the same seed give the same series.
 */
export function stressCorpus(seed: number, count = 48, shape: CorpusShape = STRESS_CORPUS): LabelledSeries[] {
  return Array.from({ length: count }, (_, i) =>
    labelledSeries(
      new Random(seed * 7919 + i),
      `${seed}/${i}`,
      NOISE_SHAPES[i % NOISE_SHAPES.length] as NoiseShape,
      i % 6 === 5,
      shape,
    ),
  );
}

/** One series of a given shape, flat or with steps. */
export function labelledSeries(
  random: Random,
  id: string,
  noise: NoiseShape,
  flat: boolean,
  shape: CorpusShape = STRESS_CORPUS,
): LabelledSeries {
  const logUniform = ([lo, hi]: readonly [number, number]) =>
    Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * random.next());
  const steps = flat ? 0 : 1 + Math.floor(random.next() * 4);
  const n = Math.max(Math.round(logUniform(shape.length)), shape.segment * (steps + 1));
  const cv = logUniform(shape.cv);
  const base = 10 ** (-2 + 8 * random.next());
  const cuts = cutPoints(random, n, steps, shape.segment);
  const level = new Float64Array(n);
  let current = base;
  for (let i = 0, k = 0; i < n; i++) {
    if (i === cuts[k]) {
      current *= 1 + logUniform(shape.step) * (random.next() < 0.5 ? -1 : 1);
      k++;
    }
    level[i] = current;
  }
  const noisy = makeNoise(random, noise, n);
  const values = Float64Array.from(level, (l, i) => l * (1 + noisy.drift[i]!) + l * cv * noisy.noise[i]!);
  if (noise === 'quantized') {
    const quantum = base * cv * (0.5 + 1.5 * random.next());
    for (let i = 0; i < n; i++) values[i] = Math.round(values[i]! / quantum) * quantum;
  }
  const truth: number[] = [];
  const optional = [...noisy.optional];
  for (const at of cuts) {
    const before = level[at - 1]!;
    const sd = cv * noisy.sd * noisy.scale[at]! * ((before + level[at]!) / 2);
    const small = Math.abs(level[at]! - before) < (4 * sd) / Math.sqrt(20);
    (small ? optional : truth).push(at);
  }
  return { id, shape: noise, cv, values, truth, optional: optional.sort((a, b) => a - b) };
}

/** `steps` indexes in (0, n) that leave every segment at least `segment` points long, ascending. */
function cutPoints(random: Random, n: number, steps: number, segment: number): number[] {
  const spare = n - segment * (steps + 1);
  const weights = Array.from({ length: steps + 1 }, () => -Math.log(1 - random.next()));
  const total = weights.reduce((s, w) => s + w, 0);
  const cuts: number[] = [];
  let at = 0;
  for (let k = 0; k < steps; k++) {
    at += segment + Math.floor((spare * (weights[k] as number)) / total);
    cuts.push(at);
  }
  return cuts;
}

interface Noise {
  /** Unit-scale noise per point (multiplied by level · cv). */
  readonly noise: Float64Array;
  /** Relative drift per point (multiplied by the level). */
  readonly drift: Float64Array;
  /** Standard deviation of the noise in units of its scale (outliers left out). */
  readonly sd: number;
  /** Per point, a factor on the noise's standard deviation (variance changes). */
  readonly scale: Float64Array;
  readonly optional: number[];
}

function makeNoise(random: Random, shape: NoiseShape, n: number): Noise {
  const noise = Float64Array.from({ length: n }, () => random.normal());
  const drift = new Float64Array(n);
  const scale = new Float64Array(n).fill(1);
  const optional: number[] = [];
  let sd = 1;
  switch (shape) {
    case 'student_t3':
      for (let i = 0; i < n; i++) {
        const chi2 = random.normal() ** 2 + random.normal() ** 2 + random.normal() ** 2;
        noise[i] = noise[i]! / Math.sqrt(chi2 / 3);
      }
      sd = Math.sqrt(3);
      break;
    case 'bimodal': {
      const p = 0.25 + 0.5 * random.next();
      for (let i = 0; i < n; i++) noise[i] = (random.next() < p ? 1 : -1) + 0.35 * noise[i]!;
      sd = Math.sqrt(1 - (2 * p - 1) ** 2 + 0.35 ** 2);
      break;
    }
    case 'outliers':
      for (let i = 0; i < n; i++) if (random.next() < 0.01) noise[i]! += random.next() < 0.8 ? 8 : -8;
      break;
    case 'drift':
      slowDrift(random, drift, n);
      break;
    case 'seasonal': {
      const period = [7, 12, 24][Math.floor(random.next() * 3)] as number;
      const amplitude = 0.5 + random.next();
      const phase = 2 * Math.PI * random.next();
      for (let i = 0; i < n; i++) noise[i]! += amplitude * Math.sin((2 * Math.PI * i) / period + phase);
      break;
    }
    case 'variance_change': {
      const changes = 1 + Math.floor(random.next() * 2);
      for (let c = 0; c < changes; c++) {
        const at = Math.floor(n * (0.15 + 0.7 * random.next()));
        const factor = random.next() < 0.5 ? 2 + 2 * random.next() : 1 / (2 + 2 * random.next());
        for (let i = at; i < n; i++) scale[i]! *= factor;
      }
      for (let i = 0; i < n; i++) noise[i]! *= scale[i]!;
      break;
    }
    case 'gaps': {
      // the series is sampled on a time axis with 1 to 3 gaps of 5 to 40 time units; a drift goes on in time
      const time = Float64Array.from({ length: n }, (_, i) => i);
      const gaps = 1 + Math.floor(random.next() * 3);
      for (let g = 0; g < gaps; g++) {
        const at = 1 + Math.floor(random.next() * (n - 1));
        const length = 5 + Math.floor(random.next() * 36);
        for (let i = at; i < n; i++) time[i]! += length;
        optional.push(at);
      }
      const total = 0.02 * (2 * random.next() - 1);
      const span = time[n - 1]! || 1;
      for (let i = 0; i < n; i++) drift[i] = total * (time[i]! / span);
      break;
    }
    default:
      break;
  }
  return { noise, drift, sd, scale, optional };
}

/** A drift of at most 2% over the series: linear, quadratic, an S-curve or a half sine, up or down. */
function slowDrift(random: Random, drift: Float64Array, n: number): void {
  const total = 0.02 * (2 * random.next() - 1);
  const form = Math.floor(random.next() * 4);
  for (let i = 0; i < n; i++) {
    const u = n === 1 ? 0 : i / (n - 1);
    const g = [u, u * u, u * u * (3 - 2 * u), Math.sin(Math.PI * u)][form] as number;
    drift[i] = total * g;
  }
}
