import { z } from 'zod';
import { FOLDS } from '../adapters/fold.js';
import { publicUserSchema, projectSchema } from './accounts.js';
import { dateTimeSchema, listQuerySchema, uuidSchema } from './common.js';
import {
  branchSchema,
  dimensionSchema,
  gitHashSchema,
  measureSchema,
  modelSchema,
  nameIdSchema,
  newModelSchema,
  thresholdSchema,
  updateStartPointSchema,
  versionSchema,
} from './dimensions.js';
import { regressionSchema } from './regressions.js';

/** Wire format of reports, runs, metrics, boundaries and alerts. */

export const settingsSchema = z.strictObject({
  adapter: z.string().min(1).default('magic').describe('Adapter id, alias, language group or magic'),
  average: z.enum(['mean', 'median']).optional(),
  fold: z
    .enum(FOLDS as [string, ...string[]])
    .optional()
    .describe('Combine iterations into one'),
});

export const reportThresholdsSchema = z.strictObject({
  models: z
    .record(nameIdSchema, newModelSchema)
    .optional()
    .describe('Model per measure (UUID, slug or name)'),
  reset: z.boolean().optional().describe("Remove the models of this branch and testbed's other thresholds"),
});

const reportFields = {
  hash: gitHashSchema.nullish(),
  start_point: updateStartPointSchema.optional(),
  thresholds: reportThresholdsSchema.optional(),
  start_time: dateTimeSchema,
  end_time: dateTimeSchema,
  results: z
    .array(z.string(), { error: 'must be a list of strings (one per iteration)' })
    .min(1, { error: 'must hold at least one iteration' })
    .max(1024, { error: 'must hold at most 1024 iterations' }),
  settings: settingsSchema.optional(),
};

function timesInOrder(report: { start_time: string; end_time: string }, ctx: z.RefinementCtx): void {
  if (Date.parse(report.end_time) < Date.parse(report.start_time)) {
    ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'must not be before start_time' });
  }
}

/** The job a runner's report finishes: its UUID and the attempt the runner holds. */
export const reportJobSchema = z
  .strictObject({ uuid: uuidSchema, attempt: z.int().min(1) })
  .describe(
    "Runners only (Authorization: Bearer <runner key>): the report finishes this job; branch, testbed, hash, start point, thresholds and settings are the job's",
  );

export const newReportSchema = z
  .strictObject({
    branch: nameIdSchema,
    testbed: nameIdSchema,
    ...reportFields,
    job: reportJobSchema.optional(),
  })
  .superRefine(timesInOrder);

export const newRunSchema = z
  .strictObject({
    project: nameIdSchema.optional().describe('Project UUID or slug; created when it does not exist'),
    branch: nameIdSchema.optional().describe('Default: the git branch of the run context, else main'),
    testbed: nameIdSchema
      .optional()
      .describe('Default: the OS of the run context (Linux, macOS, Windows), else localhost'),
    idempotency_key: uuidSchema
      .optional()
      .describe('A repeated key returns the first report and creates nothing'),
    context: z
      .record(z.string(), z.string())
      .optional()
      .describe('Run context: git repository, branch, hash, OS'),
    ...reportFields,
  })
  .superRefine(timesInOrder);

export const metricSchema = z.object({
  uuid: uuidSchema,
  value: z.number(),
  lower_value: z.number().nullable(),
  upper_value: z.number().nullable(),
});
export const boundarySchema = z.object({
  baseline: z.number().nullable(),
  lower_limit: z.number().nullable(),
  upper_limit: z.number().nullable(),
});
export const thresholdModelSchema = z.object({
  uuid: uuidSchema.describe('Threshold UUID'),
  project: uuidSchema,
  model: modelSchema,
  created: dateTimeSchema,
});
export const reportMeasureSchema = z.object({
  measure: measureSchema,
  metric: metricSchema,
  threshold: thresholdModelSchema.nullable(),
  boundary: boundarySchema.nullable(),
});
export const reportResultSchema = z.object({
  iteration: z.int(),
  benchmark: dimensionSchema,
  measures: z.array(reportMeasureSchema),
});
export const alertStatusSchema = z.enum(['active', 'dismissed', 'silenced']);
export const alertChangePointSchema = z
  .object({
    report: uuidSchema.describe('The report holding the metric that starts the new regime'),
    before: z
      .number()
      .describe('Mean of the segment before that metric, when the change point was confirmed'),
    after: z.number().describe('Mean of the segment from that metric on'),
    change: z.number().nullable().describe('after / before - 1; null when before is 0'),
    p_value: z.number().describe('Two-sided Student t-test of the two segments'),
  })
  .describe(
    'A change_point threshold alert: `report` of the alert is the report that confirmed it, `metric` the one that starts the new regime',
  );
export const alertSchema = z.object({
  uuid: uuidSchema,
  report: uuidSchema,
  iteration: z.int(),
  benchmark: dimensionSchema,
  measure: measureSchema,
  metric: metricSchema,
  threshold: thresholdSchema,
  boundary: boundarySchema,
  limit: z.enum(['lower', 'upper']),
  change_point: alertChangePointSchema.nullable(),
  status: alertStatusSchema,
  start_time: dateTimeSchema.describe(
    "The report's start time: when the benchmarks ran (created is when the report reached the API)",
  ),
  version: versionSchema.nullable().describe("The report's version: its number and commit hash"),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export const reportSchema = z.object({
  uuid: uuidSchema,
  user: publicUserSchema.nullable(),
  project: projectSchema,
  branch: branchSchema.describe(
    "The branch, with head = the head used and head.version = this report's version",
  ),
  testbed: dimensionSchema,
  start_time: dateTimeSchema,
  end_time: dateTimeSchema,
  adapter: z.string(),
  results: z
    .array(z.array(reportResultSchema))
    .optional()
    .describe('Per iteration; in lists only with expand=true'),
  alerts: z.array(alertSchema).optional(),
  regressions: z
    .array(
      z.object({
        how: z
          .enum(['opened', 'joined', 'attached'])
          .describe(
            "opened: the report's alerts opened it; joined: a series of the report joined it; attached: the report's alerts continue a known change",
          ),
        regression: regressionSchema,
      }),
    )
    .optional()
    .describe("The regressions the report's alerts belong to (with its alerts)"),
  counts: z.object({
    results: z.array(z.object({ benchmarks: z.int(), measures: z.int() })),
    alerts: z.object({ active: z.int(), total: z.int() }),
  }),
  job: uuidSchema
    .nullable()
    .describe(
      'The job whose runner produced the report (GET .../jobs/{job} names the runner); null for others',
    ),
  created: dateTimeSchema,
});

export const reportListQuerySchema = listQuerySchema(['date_time']).extend({
  direction: z.enum(['asc', 'desc']).default('desc'),
  branch: nameIdSchema.optional(),
  testbed: nameIdSchema.optional(),
  start_time: z.coerce
    .number()
    .int()
    .optional()
    .describe('Epoch milliseconds: reports that started at or after it'),
  end_time: z.coerce
    .number()
    .int()
    .optional()
    .describe('Epoch milliseconds: reports that ended at or before it'),
  archived: z
    .stringbool()
    .default(false)
    .describe('true lists only reports on archived branches or testbeds'),
  expand: z
    .stringbool()
    .default(false)
    .describe('Include results and alerts (at most 10,000 results in all per page)'),
});

/** The dimensions alerts are filtered by: the threshold's branch, testbed and measure, the metric's benchmark. */
export const alertScopeQuerySchema = z.object({
  branch: nameIdSchema.optional().describe("The alert's branch: UUID, slug or name"),
  testbed: nameIdSchema.optional().describe("The alert's testbed: UUID, slug or name"),
  benchmark: nameIdSchema.optional().describe("The alert's benchmark: UUID, slug or name"),
  measure: nameIdSchema.optional().describe("The alert's measure: UUID, slug or name"),
});
export const alertListQuerySchema = listQuerySchema(['status', 'created', 'modified'])
  .omit({ name: true, search: true })
  .extend({
    ...alertScopeQuerySchema.shape,
    status: alertStatusSchema.optional(),
    direction: z
      .enum(['asc', 'desc'])
      .optional()
      .describe('Default: asc for status (active first, then most recently changed), desc otherwise'),
  });
export const alertCountsSchema = z
  .object({ active: z.int(), dismissed: z.int(), silenced: z.int() })
  .describe('How many alerts each status has under the filters');
export const updateAlertSchema = z.strictObject({ status: z.enum(['active', 'dismissed']) });
export const dismissAlertsSchema = z.strictObject({
  status: z.literal('dismissed'),
});
export type AlertScopeQuery = z.infer<typeof alertScopeQuerySchema>;
export type AlertCountsJson = z.infer<typeof alertCountsSchema>;

/** The alert of one metric as metric and perf answers show it. */
export const alertBriefSchema = z.object({
  uuid: uuidSchema,
  limit: z.enum(['lower', 'upper']),
  status: alertStatusSchema,
  modified: dateTimeSchema,
});

export const oneMetricSchema = z.object({
  uuid: uuidSchema,
  report: uuidSchema,
  iteration: z.int(),
  start_time: dateTimeSchema,
  end_time: dateTimeSchema,
  branch: branchSchema,
  testbed: dimensionSchema,
  benchmark: dimensionSchema,
  measure: measureSchema,
  metric: metricSchema,
  threshold: thresholdModelSchema.nullable(),
  boundary: boundarySchema.nullable(),
  alert: alertBriefSchema.nullable(),
});

export type ReportJson = z.infer<typeof reportSchema>;
export type AlertJson = z.infer<typeof alertSchema>;
export type NewReport = z.output<typeof newReportSchema>;
export type NewRun = z.output<typeof newRunSchema>;
