/** A labelled position on an axis. `context` is a second, coarser line under time labels (date, year). */
export interface Tick {
  readonly value: number;
  readonly label: string;
  readonly context?: string;
}

/** An axis's domain and the ticks inside it. */
export interface AxisTicks {
  readonly domain: readonly [number, number];
  readonly ticks: readonly Tick[];
}

/** The 1, 2 or 5 times a power of ten closest above `span / count`: what people read as round steps. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Ticks of a linear axis showing [min, max], about `count` steps apart. With `widen` (y axes) the domain grows to
 * whole steps, so the top and bottom gridlines are labelled; without it (x axes) the domain stays and only the
 * ticks inside it are kept. A zero-width range is widened first (a flat line sits mid-axis, not on an edge).
 * `integer` keeps the step at least 1, for version numbers.
 */
export function linearTicks(
  min: number,
  max: number,
  count: number,
  { integer = false, widen = true }: { integer?: boolean; widen?: boolean } = {},
): AxisTicks {
  let lo = min;
  let hi = max;
  if (!(hi > lo)) {
    const pad = integer ? 1 : lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const step = Math.max(niceStep(hi - lo, count), integer ? 1 : 0);
  const first = widen ? Math.floor(lo / step) : Math.ceil(lo / step);
  const last = widen ? Math.ceil(hi / step) : Math.floor(hi / step);
  const ticks: Tick[] = [];
  for (let k = first; k <= last; k++) {
    // k * step, not a running sum: repeated addition drifts (0.1 + 0.2) and labels would show it
    const value = k * step;
    ticks.push({ value, label: formatNumber(value, step) });
  }
  return { domain: widen ? [first * step, last * step] : [lo, hi], ticks };
}

/**
 * Ticks of a base-10 log axis showing exactly [min, max] (both > 0; the caller pads). Powers of ten inside it,
 * or every second, third, sixth, ... one (multiples of 3 keep to 1, 1k, 1M) when all would be more than
 * `count`. Fewer than three powers fit: 1, 2 and 5 times each power, or 1 and 3 times when those are too many;
 * still fewer than three: linear ticks (a log axis forced on data that varies by a few percent).
 */
export function logTicks(min: number, max: number, count: number): AxisTicks {
  const lo = Math.ceil(Math.log10(min) - 1e-9);
  const hi = Math.floor(Math.log10(max) + 1e-9);
  if (hi - lo + 1 >= 3) {
    let every = Math.ceil((hi - lo + 1) / Math.max(1, count));
    if (every > 2) every = Math.ceil(every / 3) * 3;
    return { domain: [min, max], ticks: multiples(min, max, lo, hi, [1], every) };
  }
  for (const factors of [
    [1, 2, 5],
    [1, 3],
  ]) {
    const ticks = multiples(min, max, lo - 1, hi, factors, 1);
    if (ticks.length >= 3 && ticks.length <= count + 2) return { domain: [min, max], ticks };
  }
  return { domain: [min, max], ticks: linearTicks(min, max, count, { widen: false }).ticks };
}

/** `factor` times 10^d for d in [from, to] with d a multiple of `every`, inside [min, max]. */
function multiples(
  min: number,
  max: number,
  from: number,
  to: number,
  factors: number[],
  every: number,
): Tick[] {
  const ticks: Tick[] = [];
  for (let d = from; d <= to; d++) {
    if (d % every !== 0) continue;
    const power = 10 ** d;
    for (const factor of factors) {
      const value = factor * power;
      if (value >= min && value <= max) ticks.push({ value, label: formatNumber(value, power) });
    }
  }
  return ticks;
}

const PREFIXES = [
  { scale: 1e15, suffix: 'P' },
  { scale: 1e12, suffix: 'T' },
  { scale: 1e9, suffix: 'G' },
  { scale: 1e6, suffix: 'M' },
  { scale: 1e3, suffix: 'k' },
];

/**
 * A tick value with as many decimals as its axis step needs: SI suffixes from a thousand up (1.5k, 250M), plain
 * decimals down to 0.001, exponent notation below (2.5e-6). Units are on the axis title, so the suffix is the
 * only scale a label carries.
 */
export function formatNumber(value: number, step: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const prefix = PREFIXES.find((p) => magnitude >= p.scale);
  if (prefix) return `${trimmed(value / prefix.scale, step / prefix.scale)}${prefix.suffix}`;
  if (magnitude < 1e-3) return trimmedExponent(value, step);
  return trimmed(value, step);
}

/** Decimals that show multiples of `step` exactly (0.25 needs 2, 0.2 needs 1, 500 none). */
function decimalsFor(step: number): number {
  for (let d = 0; d < 12; d++) {
    const scaled = Math.abs(step) * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 12;
}

function trimmed(value: number, step: number): string {
  const fixed = value.toFixed(decimalsFor(step));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function trimmedExponent(value: number, step: number): string {
  const digits = Math.max(
    0,
    Math.floor(Math.log10(Math.abs(value))) - Math.floor(Math.log10(Math.abs(step))),
  );
  const [mantissa = '', exponent = ''] = value.toExponential(Math.min(digits, 6)).split('e');
  const mantissaTrimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return `${mantissaTrimmed}e${exponent.replace('+', '')}`;
}
