import { z } from 'zod';
import { detectionParamsSchema } from '../detection/params.js';
import { dateTimeSchema, uuidSchema } from './common.js';
import { perfAnswerSchema, perfQuerySchema, perfSeriesSchema } from './perf.js';
import { metricSchema } from './reports.js';

/** The perf query's selection (branches, heads, testbeds, benchmarks, measures, time window) plus the detector's settings. */
export const perfChangesQuerySchema = perfQuerySchema
  .omit({ format: true, threshold_models: true, fields: true })
  .extend(detectionParamsSchema.shape);
export type PerfChangesQuery = z.output<typeof perfChangesQuerySchema>;

/** One change point, told by the first point of the new regime. */
export const changePointSchema = z.object({
  index: z
    .int()
    .describe('Position in the series (0-based, oldest first) of the first point after the change'),
  report: uuidSchema,
  iteration: z.int(),
  start_time: dateTimeSchema,
  version: z.object({ number: z.int(), hash: z.string().nullable() }),
  metric: metricSchema,
  before: z.number().describe('Mean of the segment before the change'),
  after: z.number().describe('Mean of the segment from this point to the next change'),
  change: z.number().nullable().describe('Relative change, after / before - 1 (null when before is 0)'),
  p_value: z
    .number()
    .describe(
      'Two-sided rank-sum (Mann-Whitney) p-value of the two sides, corrected for the change being the best split of its window',
    ),
});

export const perfChangesSchema = perfAnswerSchema.extend({
  results: z.array(
    perfSeriesSchema.extend({
      points: z.int().describe('Points in the series the detector read'),
      change_points: z.array(changePointSchema),
    }),
  ),
});
export type PerfChangesJson = z.infer<typeof perfChangesSchema>;
