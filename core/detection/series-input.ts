import { InputError } from '../errors.js';
import { MIN_SEGMENT } from './detect.js';

/** Fewer points leave no split with a whole segment on each side. */
export const SERIES_MIN_POINTS = 2 * MIN_SEGMENT;

/**
 * A series from JSON text: `{"values": [...]}` or a bare array of numbers, oldest first. Every entry must be a
 * finite number and there must be at least {@link SERIES_MIN_POINTS}; anything else is an InputError that says
 * which entry is wrong and what is expected.
 */
export function parseSeriesJson(text: string): Float64Array {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(
      `the series is not JSON (${(error as Error).message}); give {"values": [1.5, 2, ...]} or a bare array of numbers`,
    );
  }
  const values = Array.isArray(data) ? data : (data as { values?: unknown } | null)?.values;
  if (!Array.isArray(values)) {
    throw new InputError('the series must be {"values": [numbers...]} or a bare array of numbers');
  }
  const bad = values.findIndex((value) => typeof value !== 'number' || !Number.isFinite(value));
  if (bad >= 0) {
    throw new InputError(
      `the series' values[${bad}] must be a finite number, got ${JSON.stringify(values[bad]) ?? 'nothing'}`,
      { index: bad },
    );
  }
  if (values.length < SERIES_MIN_POINTS) {
    throw new InputError(
      `the series must have at least ${SERIES_MIN_POINTS} values to be split, got ${values.length}`,
    );
  }
  return Float64Array.from(values as number[]);
}

/** The relative change from `before` to `after` (0.1 = +10%), or null when `before` is 0. */
export function relativeChange(before: number, after: number): number | null {
  return before === 0 ? null : after / before - 1;
}
