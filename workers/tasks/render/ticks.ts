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
 * A range narrower than this share of its magnitude is drawn as flat: a double cannot tell its steps apart (past
 * 2^53 steps from zero, adding one step changes nothing), and no label could show them.
 */
const RESOLUTION = 1e-12;
/** More ticks than any axis draws; a computation past it has gone wrong, and the axis keeps its two ends. */
const MAX_TICKS = 100;

/** `value` moved inside the finite doubles: a padded bound never overflows to Infinity. */
export function clampFinite(value: number): number {
  return Math.min(Number.MAX_VALUE, Math.max(-Number.MAX_VALUE, value));
}

/**
 * Ticks of a linear axis showing [min, max] (finite), about `count` steps apart. With `widen` (y axes) the domain
 * grows to whole steps, so the top and bottom gridlines are labelled, unless that would pass the largest double;
 * without it (x axes) the domain stays and only the ticks inside it are kept. A zero-width range (or one too
 * narrow for a double to resolve) is widened first (a flat line sits mid-axis, not on an edge). `integer` keeps
 * the step at least 1, for version numbers.
 */
export function linearTicks(
  min: number,
  max: number,
  count: number,
  { integer = false, widen = true }: { integer?: boolean; widen?: boolean } = {},
): AxisTicks {
  let lo = min;
  let hi = max;
  if (!(hi - lo > Math.max(Math.abs(lo), Math.abs(hi)) * RESOLUTION)) {
    const pad = integer ? 1 : lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo = clampFinite(lo - pad);
    hi = clampFinite(hi + pad);
  }
  const step = Math.max(linearStep(lo, hi, count), integer ? 1 : 0);
  let first = widen ? Math.floor(lo / step) : Math.ceil(lo / step);
  let last = widen ? Math.ceil(hi / step) : Math.floor(hi / step);
  if (!Number.isFinite(first * step)) first = Math.ceil(lo / step);
  if (!Number.isFinite(last * step)) last = Math.floor(hi / step);
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(last) && last - first <= MAX_TICKS)) {
    return {
      domain: [lo, hi],
      ticks: [lo, hi].map((value) => ({ value, label: formatNumber(value, value) })),
    };
  }
  const ticks: Tick[] = [];
  for (let k = first; k <= last; k++) {
    // k * step, not a running sum: repeated addition drifts (0.1 + 0.2) and labels would show it
    const value = k * step;
    ticks.push({ value, label: formatNumber(value, step) });
  }
  const from = widen && Math.floor(lo / step) === first ? first * step : lo;
  const to = widen && Math.ceil(hi / step) === last ? last * step : hi;
  return { domain: [from, to], ticks };
}

/** The nice step of [lo, hi]; a span past the largest double (-MAX to MAX) is measured in tenths. */
function linearStep(lo: number, hi: number, count: number): number {
  const span = hi - lo;
  return Number.isFinite(span) ? niceStep(span, count) : niceStep(hi / 10 - lo / 10, count) * 10;
}

/**
 * Ticks of a base-10 log axis showing exactly [min, max] (both > 0; the caller pads; bounds past the positive
 * doubles are clamped to them). Powers of ten inside it,
 * or every second, third, sixth, ... one (multiples of 3 keep to 1, 1k, 1M) when all would be more than
 * `count`. Fewer than three powers fit: 1, 2 and 5 times each power, or 1 and 3 times when those are too many;
 * still fewer than three: linear ticks (a log axis forced on data that varies by a few percent).
 */
export function logTicks(minimum: number, maximum: number, count: number): AxisTicks {
  // inside the positive doubles, so the decades below are finite and the loops over them end
  const min = Math.min(Math.max(minimum, Number.MIN_VALUE), Number.MAX_VALUE);
  const max = Math.min(Math.max(maximum, min), Number.MAX_VALUE);
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
 * decimals down to 0.001, exponent notation below (2.5e-6) and from 1e18 up (past P, 1e300). Units are on the axis title, so the suffix is the
 * only scale a label carries.
 */
export function formatNumber(value: number, step: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const prefix = PREFIXES.find((p) => magnitude >= p.scale);
  if (magnitude >= 1e18) return trimmedExponent(value, step);
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
