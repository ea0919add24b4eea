import { textWidth } from './text-width.js';
import type { AxisTicks, Tick } from './ticks.js';
import { formatTimeTick, WIDEST_LABEL, type TimeUnit } from './time-format.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365.2425 * DAY;
const MONTH = YEAR / 12;
/** Beyond ±8.64e15 ms a Date is invalid (ECMA-262 time range). */
const MAX_TIME = 8.64e15;

interface Interval {
  readonly unit: TimeUnit;
  readonly step: number;
  /** Typical length in ms (months and years vary). */
  readonly ms: number;
}

/** Tick intervals from finest to coarsest: each divides the next unit evenly, so ticks land on round times. */
const INTERVALS: readonly Interval[] = [
  ...[1, 2, 5, 10, 15, 30].map((step) => ({ unit: 'second' as const, step, ms: step * SECOND })),
  ...[1, 2, 5, 10, 15, 30].map((step) => ({ unit: 'minute' as const, step, ms: step * MINUTE })),
  ...[1, 2, 3, 6, 12].map((step) => ({ unit: 'hour' as const, step, ms: step * HOUR })),
  ...[1, 2].map((step) => ({ unit: 'day' as const, step, ms: step * DAY })),
  { unit: 'week', step: 1, ms: 7 * DAY },
  ...[1, 2, 3, 6].map((step) => ({ unit: 'month' as const, step, ms: step * MONTH })),
  ...[1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000].map((step) => ({
    unit: 'year' as const,
    step,
    ms: step * YEAR,
  })),
];

/** How long the context line (date under times, year under dates) stays the same. */
const CONTEXT_PERIOD: Readonly<Record<TimeUnit, number>> = {
  second: DAY,
  minute: DAY,
  hour: DAY,
  day: YEAR,
  week: YEAR,
  month: YEAR,
  year: Number.POSITIVE_INFINITY,
};

/** Pixels between neighbouring labels, and between ticks whatever the labels: denser axes read as clutter. */
const LABEL_GAP = 32;
const MIN_SPACING = 70;

/** Whether epoch milliseconds in [min, max] can be shown as dates at all. */
export function isTimeRange(min: number, max: number): boolean {
  return Number.isFinite(min) && Number.isFinite(max) && min >= -MAX_TIME && max <= MAX_TIME;
}

/**
 * The finest interval whose ticks are at least a label's width plus a gap, and at least 70 pixels, apart on an
 * axis `width` pixels wide showing `span` ms. A date under times of day may recur every few ticks, so it has to fit too.
 */
export function chooseInterval(span: number, width: number, fontSize: number): Interval {
  for (const interval of INTERVALS) {
    const spacing = (interval.ms / span) * width;
    const widest = WIDEST_LABEL[interval.unit];
    const ticksPerContext = Math.max(1, CONTEXT_PERIOD[interval.unit] / interval.ms);
    const needed = Math.max(
      MIN_SPACING,
      textWidth(widest.label, fontSize) + LABEL_GAP,
      textWidth(widest.context, fontSize) / ticksPerContext + LABEL_GAP,
    );
    if (spacing >= needed) return interval;
  }
  return INTERVALS[INTERVALS.length - 1] as Interval;
}

/** Tick times of `interval` in [min, max], on round UTC times (midnight, Mondays, first of month, Jan 1). */
export function tickTimes(min: number, max: number, interval: Interval): number[] {
  const { unit, step } = interval;
  if (unit === 'second' || unit === 'minute' || unit === 'hour') {
    // fixed intervals that divide a day: multiples since the epoch land on round UTC times
    const out: number[] = [];
    for (let k = Math.ceil(min / interval.ms); k * interval.ms <= max; k++) out.push(k * interval.ms);
    return out;
  }
  if (unit === 'day' || unit === 'week') return dayTicks(min, max, unit === 'week' ? 7 : step);
  return monthTicks(min, max, unit === 'year' ? step * 12 : step);
}

/** Midnights; every `step`th day of each month (1, 3, 5, ... restarting at each month), or Mondays when 7. */
function dayTicks(min: number, max: number, step: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(min / DAY); k * DAY <= max; k++) {
    const date = new Date(k * DAY);
    if (step === 7) {
      // 1970-01-01 was a Thursday: day k is a Monday when (k + 3) % 7 === 0
      if ((((k + 3) % 7) + 7) % 7 === 0) out.push(k * DAY);
      continue;
    }
    const day = date.getUTCDate();
    const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    // skip the 31st when counting by 2: it would sit one day before the 1st
    if ((day - 1) % step === 0 && day + step - 1 <= daysInMonth) out.push(k * DAY);
  }
  return out;
}

/** First days of months whose index since year 0 is a multiple of `months` (so 12 gives Jan 1 of each year). */
function monthTicks(min: number, max: number, months: number): number[] {
  const start = new Date(min);
  let index = start.getUTCFullYear() * 12 + start.getUTCMonth();
  index = Math.ceil(index / months) * months;
  const out: number[] = [];
  for (; ; index += months) {
    const time = Date.UTC(Math.floor(index / 12), ((index % 12) + 12) % 12, 1);
    if (time > max) break;
    if (time >= min) out.push(time);
  }
  return out;
}

/**
 * Ticks of a time axis showing exactly [min, max] (epoch ms; a time axis is not widened to round times, a year
 * of data would gain months of blank). The context line appears on the first tick and wherever it changes.
 */
export function timeTicks(
  min: number,
  max: number,
  width: number,
  fontSize: number,
): AxisTicks & { unit: TimeUnit } {
  const interval = chooseInterval(max - min, width, fontSize);
  let previous = '';
  const ticks: Tick[] = tickTimes(min, max, interval).map((value) => {
    const { label, context } = formatTimeTick(value, interval.unit);
    const shown = context === previous ? '' : context;
    previous = context;
    return shown === '' ? { value, label } : { value, label, context: shown };
  });
  return { domain: [min, max], ticks, unit: interval.unit };
}
