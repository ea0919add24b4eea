import type { ProjectJson } from '../../../core/schemas/accounts.js';
import type { BranchJson, DimensionJson, MeasureJson, ModelJson } from '../../../core/schemas/dimensions.js';

/** The perf query's answer and pinned plots (reference 2.4 and JsonPlot), as GET /v0/projects/{p}/perf sends them. */
export interface PerfPoint {
  readonly report: string;
  readonly iteration: number;
  readonly start_time: string;
  readonly end_time: string;
  readonly version: { readonly number: number; readonly hash: string | null };
  readonly metric: {
    readonly uuid: string;
    readonly value: number;
    readonly lower_value: number | null;
    readonly upper_value: number | null;
  };
  readonly threshold: { readonly uuid: string; readonly model: ModelJson } | null;
  readonly boundary: {
    readonly baseline: number | null;
    readonly lower_limit: number | null;
    readonly upper_limit: number | null;
  } | null;
  readonly alert: {
    readonly uuid: string;
    readonly limit: 'lower' | 'upper';
    readonly status: 'active' | 'dismissed' | 'silenced';
    readonly modified: string;
  } | null;
}

export interface PerfSeries {
  readonly branch: BranchJson;
  readonly testbed: DimensionJson;
  readonly benchmark: DimensionJson;
  readonly measure: MeasureJson;
  readonly metrics: readonly PerfPoint[];
}

export interface PerfJson {
  readonly project: ProjectJson;
  readonly start_time: string | null;
  readonly end_time: string | null;
  readonly results: readonly PerfSeries[];
}

export type XAxis = 'date_time' | 'version';
export type YAxis = 'auto' | 'linear' | 'log';

export interface PlotJson {
  readonly uuid: string;
  readonly project: string;
  readonly index: number;
  readonly title: string | null;
  readonly lower_value: boolean;
  readonly upper_value: boolean;
  readonly lower_boundary: boolean;
  readonly upper_boundary: boolean;
  readonly x_axis: XAxis;
  readonly y_axis: YAxis;
  readonly window: number;
  readonly branches: readonly string[];
  readonly testbeds: readonly string[];
  readonly benchmarks: readonly string[];
  readonly measures: readonly string[];
  readonly created: string;
  readonly modified: string;
}

/** At most this many permutations per perf query, and lines per image (the API's limits). */
export const PERF_PERMUTATIONS_MAX = 255;
export const PERF_IMAGE_LINES_MAX = 8;
export const PLOTS_MAX = 64;
