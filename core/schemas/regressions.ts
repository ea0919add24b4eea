import { z } from 'zod';
import { dateTimeSchema, listQuerySchema, uuidSchema } from './common.js';
import { dimensionSchema, measureSchema, versionSchema } from './dimensions.js';

export const regressionStatusSchema = z
  .enum(['suspected', 'untriaged', 'acknowledged', 'invalid', 'fixed', 'expected'], {
    error: 'must be one of suspected, untriaged, acknowledged, invalid, fixed, expected',
  })
  .describe(
    'suspected: alerts raised it and the change-point detector has not confirmed it (never counted as open); untriaged: a confirmed change nobody has triaged; acknowledged: someone is on it; invalid, fixed, expected: closed',
  );
export const regressionKindSchema = z
  .enum(['regression', 'improvement'], { error: 'must be regression or improvement' })
  .describe("By the measure's direction: a change to the worse side is a regression");

const userRefSchema = z.object({ uuid: uuidSchema, name: z.string(), slug: z.string() });
const reportRefSchema = z.object({ uuid: uuidSchema, start_time: dateTimeSchema });

export const regressionSeriesSchema = z.object({
  benchmark: dimensionSchema,
  measure: measureSchema,
  state: z
    .enum(['suspected', 'confirmed'])
    .describe('confirmed once the change-point detector finds the change in this series'),
  before: z.number().describe('The level before the change'),
  after: z.number().describe('The level after the change'),
  change: z.number().nullable().describe('Relative change: 0.15 for +15%; null when the level before is 0'),
  p_value: z.number().nullable().describe("The detector's p-value of the change, once confirmed"),
  alerts: z.array(uuidSchema).describe('The alerts of this series that belong to the regression'),
});

export const regressionSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  branch: dimensionSchema,
  testbed: dimensionSchema,
  kind: regressionKindSchema,
  status: regressionStatusSchema,
  last_good: versionSchema.nullable().describe('The version before the change'),
  first_bad: versionSchema.describe('The version of the first report at the new level'),
  reports: z
    .object({ last_good: reportRefSchema.nullable(), first_bad: reportRefSchema.nullable() })
    .describe("The branch and testbed's reports at last_good and first_bad (the first at each version)"),
  fixed_by: versionSchema
    .nullable()
    .describe('The version whose reports came back to the old level (status fixed by the service)'),
  series: z
    .array(regressionSeriesSchema)
    .describe(
      'The series that changed, largest change first: the confirmed ones (every one while the regression is suspected)',
    ),
  unconfirmed_series: z
    .array(regressionSeriesSchema)
    .describe(
      'Series whose alerts joined a confirmed regression and that the detector has not confirmed (yet): removed when it denies them',
    ),
  note: z.string().nullable(),
  issue_url: z.string().nullable(),
  assignee: userRefSchema.nullable(),
  reason: z
    .string()
    .nullable()
    .describe('Why the service changed the status itself; null after a person did'),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});

export const regressionEventSchema = z.object({
  status: regressionStatusSchema,
  previous_status: regressionStatusSchema.nullable(),
  user: userRefSchema.nullable().describe('Who made the change; null when the service did'),
  reason: z.string().nullable(),
  changes: z.record(z.string(), z.unknown()).nullable().describe('What else changed (triage fields, series)'),
  created: dateTimeSchema,
});

export const regressionListQuerySchema = listQuerySchema(['status', 'created', 'modified', 'version'])
  .omit({ name: true })
  .extend({
    direction: z.enum(['asc', 'desc']).default('desc'),
    status: z
      .string()
      .optional()
      .describe(
        'Comma-separated statuses; `open` stands for untriaged and acknowledged (default: every status but suspected)',
      ),
    kind: regressionKindSchema.optional(),
    branch: z.string().min(1).optional().describe('Branch UUID, slug or name'),
    testbed: z.string().min(1).optional().describe('Testbed UUID, slug or name'),
    benchmark: z
      .string()
      .min(1)
      .optional()
      .describe('Benchmark UUID, slug or name: regressions with a series of it'),
    measure: z.string().min(1).optional().describe('Measure UUID, slug or name'),
    assignee: z
      .string()
      .min(1)
      .optional()
      .describe('User UUID or slug: the regressions assigned to them; `none`: those assigned to nobody'),
    search: z
      .string()
      .min(1)
      .optional()
      .describe("Case-insensitive substring of the UUID, note, issue URL or a series' benchmark name"),
  });

/** The list's filters but status: what the counts of each status are counted under. */
export const regressionCountsQuerySchema = regressionListQuerySchema.pick({
  kind: true,
  branch: true,
  testbed: true,
  benchmark: true,
  measure: true,
  assignee: true,
  search: true,
});

const count = z.int().min(0);
export const regressionCountsSchema = z
  .object({
    open: count.describe('untriaged and acknowledged'),
    suspected: count,
    untriaged: count,
    acknowledged: count,
    invalid: count,
    fixed: count,
    expected: count,
  })
  .describe('How many regressions each status has under the filters');

/** A person's triage; `null` clears a text field or the assignee. */
export const updateRegressionSchema = z
  .strictObject({
    status: z
      .enum(['untriaged', 'acknowledged', 'invalid', 'fixed', 'expected'], {
        error:
          'must be one of untriaged, acknowledged, invalid, fixed, expected (suspected is the detector’s)',
      })
      .optional(),
    note: z.string().max(10_000, { error: 'must be at most 10000 characters' }).nullable().optional(),
    issue_url: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .nullable()
      .optional(),
    assignee: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe('A member of the project’s organization: user UUID or slug; null for nobody'),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error: 'name at least one of status, note, issue_url, assignee',
  });

export type RegressionJson = z.infer<typeof regressionSchema>;
export type RegressionEventJson = z.infer<typeof regressionEventSchema>;
export type RegressionListQuery = z.infer<typeof regressionListQuerySchema>;
export type RegressionCountsQuery = z.infer<typeof regressionCountsQuerySchema>;
export type RegressionCountsJson = z.infer<typeof regressionCountsSchema>;
export type UpdateRegression = z.infer<typeof updateRegressionSchema>;
