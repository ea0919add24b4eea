import type { ModelLimits } from '../plugins/contracts.js';

/**
 * The boundaries of many series, column by column (entry i of each array belongs to series i): the output of
 * the boundary task, moved between threads without copying.
 *
 * "No value" travels as NaN, because a Float64Array has no null: a NaN `lower` means the series has no lower
 * limit, and NaN in all three columns means the series has no boundary at all (too few samples, zero
 * variance, ...). Models never produce NaN themselves (see `evaluateModel`), so NaN is unambiguous. These
 * arrays are an internal format: decode them with {@link boundaryAt} before anything reaches an API consumer.
 */
export interface BoundaryColumns {
  readonly baseline: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/** One series' boundary as the API shows it (`JsonBoundary`); a missing value is `null`, never NaN. */
export interface Boundary {
  readonly baseline: number | null;
  readonly lower_limit: number | null;
  readonly upper_limit: number | null;
}

/** Columns for `count` series, every entry "no value". */
export function createBoundaryColumns(count: number): BoundaryColumns {
  return {
    baseline: new Float64Array(count).fill(Number.NaN),
    lower: new Float64Array(count).fill(Number.NaN),
    upper: new Float64Array(count).fill(Number.NaN),
  };
}

/** Writes series `index`'s limits; `null` (no boundary) leaves all three entries NaN. */
export function writeBoundary(columns: BoundaryColumns, index: number, limits: ModelLimits | null): void {
  columns.baseline[index] = limits?.baseline ?? Number.NaN;
  columns.lower[index] = limits?.lower ?? Number.NaN;
  columns.upper[index] = limits?.upper ?? Number.NaN;
}

/** True when series `index` has a boundary (at least one of baseline, lower, upper). */
export function hasBoundary(columns: BoundaryColumns, index: number): boolean {
  return !(
    Number.isNaN(columns.baseline[index]) &&
    Number.isNaN(columns.lower[index]) &&
    Number.isNaN(columns.upper[index])
  );
}

/**
 * Series `index`'s boundary with `null` for every missing value: the only way boundary columns should reach
 * an API consumer. A series without a boundary decodes to all three `null` (the API's "a threshold existed
 * but the test could not run").
 */
export function boundaryAt(columns: BoundaryColumns, index: number): Boundary {
  return {
    baseline: present(columns.baseline[index]),
    lower_limit: present(columns.lower[index]),
    upper_limit: present(columns.upper[index]),
  };
}

function present(value: number | undefined): number | null {
  return value === undefined || Number.isNaN(value) ? null : value;
}
