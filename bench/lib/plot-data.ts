import type { PlotImageInput } from '../../core/index.js';
import { Random } from './random.js';

type Series = PlotImageInput['series'][number];

const DAY = 86_400_000;
/** 2024-01-01T00:00:00Z: fixed, so images and benchmark work do not depend on the day they run. */
export const YEAR_START = Date.UTC(2024, 0, 1);

export interface HistoryOptions {
  readonly points: number;
  /** First x and the distance between points (epoch ms, or 1 for versions). */
  readonly start: number;
  readonly step: number;
  /** Typical value and coefficient of variation of the noise. */
  readonly level: number;
  readonly cv: number;
  /** Relative change of the level from point `at` on, e.g. a 25% regression: { at: 700, factor: 1.25 }. */
  readonly shift?: { readonly at: number; readonly factor: number };
  /** Draw a boundary: mean ± 3 standard deviations of the previous 30 points; alerts where a point leaves it. */
  readonly limits?: boolean;
}

/** A seeded benchmark history: noisy values around a level, optionally a step change and boundary limits. */
export function history(random: Random, label: string, options: HistoryOptions): Series {
  const { points, start, step, level, cv, shift } = options;
  const x = new Float64Array(points);
  const y = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    x[i] = start + i * step;
    const mean = shift && i >= shift.at ? level * shift.factor : level;
    // benchmark noise is skewed to the slow side: a normal draw, plus an occasional slow outlier
    const outlier = random.next() < 0.02 ? Math.abs(random.normal()) * 4 * cv : 0;
    y[i] = mean * (1 + cv * random.normal() + outlier);
  }
  if (!options.limits) return { label, x, y };
  return { label, x, y, ...limits(y, 30) };
}

/** Rolling mean ± 3 sd of the `window` points before each point (NaN until there are 5), and the alerts. */
function limits(y: Float64Array, window: number): Pick<Series, 'lower' | 'upper' | 'alert'> {
  const lower = new Float64Array(y.length).fill(Number.NaN);
  const upper = new Float64Array(y.length).fill(Number.NaN);
  const alert = new Uint8Array(y.length);
  for (let i = 5; i < y.length; i++) {
    const from = Math.max(0, i - window);
    let sum = 0;
    let squares = 0;
    for (let j = from; j < i; j++) sum += y[j] as number;
    const mean = sum / (i - from);
    for (let j = from; j < i; j++) squares += ((y[j] as number) - mean) ** 2;
    const sd = Math.sqrt(squares / (i - from - 1));
    lower[i] = mean - 3 * sd;
    upper[i] = mean + 3 * sd;
    const value = y[i] as number;
    alert[i] = value > (upper[i] as number) || value < (lower[i] as number) ? 1 : 0;
  }
  return { lower, upper, alert };
}

/** The benchmark's image: `lines` series of `points` points each over a year, with limits when asked. */
export function benchImage(lines: number, points: number, withLimits: boolean, seed = 7): PlotImageInput {
  const random = new Random(seed);
  const step = (365 * DAY) / points;
  const series = Array.from({ length: lines }, (_, i) =>
    history(random, `main / ubuntu-22.04-x64 / bench::parse::case_${i}`, {
      points,
      start: YEAR_START,
      step,
      level: 1000 * (1 + i * 0.35),
      cv: 0.03,
      shift: i === 1 ? { at: Math.floor(points * 0.7), factor: 1.25 } : undefined,
      limits: withLimits,
    }),
  );
  return {
    title: `${lines} lines x ${points} points`,
    xAxis: 'date_time',
    yAxis: 'auto',
    measure: { name: 'Latency', units: 'nanoseconds (ns)' },
    series,
  };
}

/** A copy of an input in new buffers (a pool run detaches the buffers it moves). */
export function copyImage(input: PlotImageInput): PlotImageInput {
  return {
    ...input,
    series: input.series.map((s) => ({
      ...s,
      x: s.x.slice(),
      y: s.y.slice(),
      lower: s.lower?.slice(),
      upper: s.upper?.slice(),
      alert: s.alert?.slice(),
    })),
  };
}
