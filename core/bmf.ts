/**
 * Benchmark Metric Format (BMF): benchmark name -> measure slug -> metric. The exchange format between
 * adapters, the CLI and the API (spec: "Metric Format (BMF) JSON").
 */
export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

/** Measures of one benchmark, keyed by measure slug (or any name; custom measures are created on the fly). */
export type BmfMeasures = Record<string, BmfMetric>;

/** One iteration's results: benchmark name -> measures. */
export type Bmf = Record<string, BmfMeasures>;
