import { DETECTION_DEFAULTS } from '../detection/params.js';
import type { ServiceContext } from '../services/context.js';
import type { ReadRepositories } from '../storage/storage.js';

/** Reports of a branch and testbed whose points the analysis reads: the newest hundred. */
export const ANALYSIS_REPORTS = 100;

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
  const found = await ctx.changePoints({ offsets, values, params: DETECTION_DEFAULTS });
  return series.map((seriesId, k) => {
    const { from, to } = ranges[k]!;
    const versions = lines.version.slice(from, to);
    const changes: SeriesChange[] = [];
    for (let j = found.offsets[k]!; j < found.offsets[k + 1]!; j++) {
      const index = found.index[j]!;
      changes.push({
        index,
        version: versions[index]!,
        before: found.before[j]!,
        after: found.after[j]!,
        pValue: found.pValue[j]!,
        pointsAfter: versions.length - index,
      });
    }
    return { seriesId, versions, changes };
  });
}
