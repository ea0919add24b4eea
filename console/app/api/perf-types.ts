import type { z } from 'zod';
import type { perfChangesSchema } from '../../../core/schemas/changes.js';
import type { perfPointSchema, perfSchema } from '../../../core/schemas/perf.js';

/** The perf query's answer and pinned plots, inferred from core's schemas (type-only: nothing reaches the bundle). */
export type { PlotJson } from '../../../core/schemas/perf.js';
export type PerfJson = z.infer<typeof perfSchema>;
export type PerfSeries = PerfJson['results'][number];
export type PerfPoint = z.infer<typeof perfPointSchema>;
/** GET /v0/projects/{p}/perf/changes: each series' change points, for the same selection as the perf query. */
export type PerfChangesJson = z.infer<typeof perfChangesSchema>;
export type ChangePointJson = PerfChangesJson['results'][number]['change_points'][number];
export type XAxis = 'date_time' | 'version';
export type YAxis = 'auto' | 'linear' | 'log';

/**
 * The API's limits (core/schemas/perf.ts: PERF_PERMUTATIONS_MAX, PERF_IMAGE_LINES_MAX, PLOTS_MAX), repeated
 * because the console may take only types from core; perf-types.test.ts keeps them equal.
 */
export const PERF_PERMUTATIONS_MAX = 255;
export const PERF_IMAGE_LINES_MAX = 8;
export const PLOTS_MAX = 64;
