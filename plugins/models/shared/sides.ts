import type { ModelLimits, ModelParams } from '../../../kit/index.js';

/**
 * Assembles limits: a side is computed only when its boundary is set (reference 3.2), from the boundary value.
 * Keeps each model's `limits` down to its math.
 */
export function sides(
  baseline: number | null,
  params: ModelParams,
  lower: (boundary: number) => number,
  upper: (boundary: number) => number,
): ModelLimits {
  return {
    baseline,
    lower: params.lower_boundary === undefined ? null : lower(params.lower_boundary),
    upper: params.upper_boundary === undefined ? null : upper(params.upper_boundary),
  };
}
