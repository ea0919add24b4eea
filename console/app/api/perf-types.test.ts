import { expect, it } from 'vitest';
import * as core from '../../../core/schemas/perf.js';
import { PERF_IMAGE_LINES_MAX, PERF_PERMUTATIONS_MAX, PLOTS_MAX } from './perf-types.js';

it("repeats the API's perf limits exactly (the console may take only types from core)", () => {
  expect([PERF_PERMUTATIONS_MAX, PERF_IMAGE_LINES_MAX, PLOTS_MAX]).toEqual([
    core.PERF_PERMUTATIONS_MAX,
    core.PERF_IMAGE_LINES_MAX,
    core.PLOTS_MAX,
  ]);
});
