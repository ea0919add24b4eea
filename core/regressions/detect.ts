import type { ChangePointColumns, ChangePointJob } from '../detection/columns.js';
import { detectChangePoints } from '../detection/detect.js';
import { DETECTION_DEFAULTS } from '../detection/params.js';
import type { ServiceContext } from '../services/context.js';
import type { ReadRepositories } from '../storage/storage.js';

/** Reports of a branch and testbed whose points the analysis reads: the newest hundred. */
export const ANALYSIS_REPORTS = 100;

/**
 * Jobs of at most this many points are detected in this thread: the analysis after a report of a few series costs
 * well under a millisecond, less than a worker's round trip. Larger ones go to the worker pool.
 */
const INLINE_MAX_POINTS = 2048;

/** One change point of a series, with the version of its first point at the new level. */
export interface SeriesChange {
  readonly index: number;
  /** The version number of the point that starts the new level. */
  readonly version: number;
  readonly before: number;
  readonly after: number;
  readonly pValue: number;
  /** Points at the new level and after it in the read window. */
  readonly pointsAfter: number;
  /**
   * The step in units of its uncertainty: the difference of the medians of the segments on either side (to the
   * neighbouring change points) over its standard error from the series' noise. A t that outliers do not inflate.
   */
  readonly strength: number;
}

/** A series as the analysis saw it: the version of each point (oldest first) and its change points. */
export interface SeriesDetection {
  readonly seriesId: number;
  readonly versions: Int32Array;
  readonly changes: readonly SeriesChange[];
}

/**
 * Reads the newest {@link ANALYSIS_REPORTS} reports' points of `series` on the head (one perf query), and
 * detects the change points of every series at once with the change-point detector in the worker pool.
 */
export async function detectSeries(
  ctx: ServiceContext,
  r: ReadRepositories,
  target: { projectId: number; branchId: number; headId: number; testbedId: number },
  series: readonly number[],
): Promise<SeriesDetection[]> {
  const recent = await r.reports.listFiltered(
    {
      project_id: target.projectId,
      branch_id: target.branchId,
      testbed_id: target.testbedId,
      archived: false,
    },
    { page: 1, perPage: ANALYSIS_REPORTS, direction: 'desc' },
  );
  const oldest = recent.items.at(-1);
  if (!oldest || series.length === 0) return [];
  const lines = await r.metrics.perfLines({
    series: Int32Array.from(series),
    heads: new Int32Array(series.length).fill(target.headId),
    start: oldest.start_time.getTime(),
  });
  const ranges = series.map(() => ({ from: 0, to: 0 }));
  for (let i = 0; i < lines.count; i++) {
    const range = ranges[lines.permutation[i] as number]!;
    if (range.to === 0) range.from = i;
    range.to = i + 1;
  }
  const offsets = new Uint32Array(series.length + 1);
  ranges.forEach((range, k) => (offsets[k + 1] = offsets[k]! + range.to - range.from));
  const values = new Float64Array(offsets[series.length]!);
  ranges.forEach((range, k) => values.set(lines.value.subarray(range.from, range.to), offsets[k]));
  const job = { offsets, values, params: DETECTION_DEFAULTS };
  const found = values.length <= INLINE_MAX_POINTS ? detectInline(job) : await ctx.changePoints(job);
  return series.map((seriesId, k) => {
    const { from, to } = ranges[k]!;
    const versions = lines.version.slice(from, to);
    const own = lines.value.subarray(from, to);
    const indexes = Array.from(found.index.subarray(found.offsets[k]!, found.offsets[k + 1]!));
    const noise = seriesNoise(own);
    const changes: SeriesChange[] = indexes.map((index, n) => {
      const j = found.offsets[k]! + n;
      return {
        index,
        version: versions[index]!,
        before: found.before[j]!,
        after: found.after[j]!,
        pValue: found.pValue[j]!,
        pointsAfter: versions.length - index,
        strength: robustStep(own, noise, indexes[n - 1] ?? 0, index, indexes[n + 1] ?? own.length),
      };
    });
    return { seriesId, versions, changes };
  });
}

function median(sorted: Float64Array): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The noise of a series as a normal standard deviation: the median absolute difference of consecutive values,
 * scaled. Steps and outliers touch few differences, so they barely move it.
 */
export function seriesNoise(values: Float64Array): number {
  if (values.length < 3) return 0;
  const differences = new Float64Array(values.length - 1);
  for (let i = 1; i < values.length; i++) differences[i - 1] = Math.abs(values[i]! - values[i - 1]!);
  return (1.4826 * median(differences.sort())) / Math.SQRT2;
}

/** Points each side of a change point needs before its strength counts. */
export const STRENGTH_MIN_SIDE = 8;

/**
 * `values[from..at)` against `values[at..to)`: the difference of their medians over its standard error, from the
 * series' noise (a median's error is about 1.25 times a mean's). 0 when a side has fewer than
 * {@link STRENGTH_MIN_SIDE} points; infinite for a step in a series without noise.
 */
export function robustStep(
  values: Float64Array,
  noise: number,
  from: number,
  at: number,
  to: number,
): number {
  if (at - from < STRENGTH_MIN_SIDE || to - at < STRENGTH_MIN_SIDE) return 0;
  const difference = median(values.slice(at, to).sort()) - median(values.slice(from, at).sort());
  const error = 1.2533 * noise * Math.sqrt(1 / (at - from) + 1 / (to - at));
  if (error === 0) return difference === 0 ? 0 : Math.sign(difference) * Infinity;
  return difference / error;
}

/** The change points of a job, in this thread, by the same detector the worker task runs. */
function detectInline(job: ChangePointJob): ChangePointColumns {
  const count = job.offsets.length - 1;
  const offsets = new Uint32Array(count + 1);
  const found = [];
  for (let i = 0; i < count; i++) {
    found.push(...detectChangePoints(job.values.subarray(job.offsets[i], job.offsets[i + 1]), job.params));
    offsets[i + 1] = found.length;
  }
  return {
    offsets,
    index: Uint32Array.from(found, (p) => p.index),
    before: Float64Array.from(found, (p) => p.meanBefore),
    after: Float64Array.from(found, (p) => p.meanAfter),
    pValue: Float64Array.from(found, (p) => p.pValue),
  };
}
