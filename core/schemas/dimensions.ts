import { z } from 'zod';
import {
  dateTimeSchema,
  listQuerySchema,
  nameSchema,
  slugSchema,
  uuidSchema,
  withNameRule,
} from './common.js';

/** Wire format of branches (with heads and start points), testbeds, benchmarks, measures and thresholds. */

export const branchNameSchema = withNameRule(
  z.string().min(1, { error: 'must not be empty' }).max(256, { error: 'must be at most 256 characters' }),
);
export const benchmarkNameSchema = withNameRule(
  z.string().min(1, { error: 'must not be empty' }).max(1024, { error: 'must be at most 1024 characters' }),
);
export const gitHashSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?$/, {
    error: 'must be a full git commit hash (40 or 64 hex digits)',
  })
  .transform((hash) => hash.toLowerCase());
/** A key that may create the dimension it names (reports, inline thresholds) follows the name rule. */
export const nameIdSchema = withNameRule(
  z.string().min(1, { error: 'must not be empty' }).max(1024),
).describe('UUID, slug or name');

export const versionSchema = z.object({ number: z.int(), hash: z.string().nullable() });
export const headSchema = z.object({
  uuid: uuidSchema,
  start_point: z
    .object({ branch: uuidSchema, head: uuidSchema, version: versionSchema.nullable() })
    .nullable()
    .describe('Where this head branched off (its history includes those versions)'),
  version: versionSchema.nullable().describe('The latest version of this head'),
  created: dateTimeSchema,
  replaced: dateTimeSchema.nullable(),
});
export const branchSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  name: z.string(),
  slug: z.string(),
  head: headSchema,
  archived: z.boolean(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});

const maxVersions = z.int().min(1, { error: 'must be at least 1' }).max(65_535).describe('default 255');
export const newStartPointSchema = z.strictObject({
  branch: nameIdSchema,
  hash: gitHashSchema.optional(),
  max_versions: maxVersions.optional(),
  clone_thresholds: z.boolean().optional(),
});
export const updateStartPointSchema = z.strictObject({
  branch: nameIdSchema.optional(),
  hash: gitHashSchema.optional(),
  max_versions: maxVersions.optional(),
  clone_thresholds: z.boolean().optional(),
  reset: z.boolean().optional().describe('Start a new head even when the start point did not change'),
});
export const newBranchSchema = z.strictObject({
  name: branchNameSchema,
  slug: slugSchema.optional(),
  start_point: newStartPointSchema.optional(),
});
export const updateBranchSchema = z.strictObject({
  name: branchNameSchema.optional(),
  slug: slugSchema.optional(),
  start_point: updateStartPointSchema.optional(),
  archived: z.boolean().optional(),
});

export const dimensionSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  name: z.string(),
  slug: z.string(),
  archived: z.boolean(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export const measureDirectionSchema = z
  .enum(['lower_is_better', 'higher_is_better'], {
    error: 'must be lower_is_better or higher_is_better (or null for none)',
  })
  .describe(
    'Which way the measure gets better: it decides whether a change is a regression or an improvement',
  );
export const measureSchema = dimensionSchema.extend({
  units: z.string(),
  direction: measureDirectionSchema
    .nullable()
    .describe(
      "The declared direction, or a built-in measure's own (latency lower, throughput higher); null when none",
    ),
});
export const newTestbedSchema = z.strictObject({ name: nameSchema, slug: slugSchema.optional() });
export const newBenchmarkSchema = z.strictObject({ name: benchmarkNameSchema, slug: slugSchema.optional() });
export const newMeasureSchema = z.strictObject({
  name: nameSchema,
  slug: slugSchema.optional(),
  units: nameSchema,
  direction: measureDirectionSchema.nullable().optional(),
});
export const updateTestbedSchema = z.strictObject({
  name: nameSchema.optional(),
  slug: slugSchema.optional(),
  archived: z.boolean().optional(),
});
export const updateBenchmarkSchema = updateTestbedSchema.extend({ name: benchmarkNameSchema.optional() });
export const updateMeasureSchema = updateTestbedSchema.extend({
  units: nameSchema.optional(),
  direction: measureDirectionSchema.nullable().optional(),
});

export const modelSchema = z.object({
  uuid: uuidSchema,
  test: z.string(),
  min_sample_size: z.int().nullable(),
  max_sample_size: z.int().nullable(),
  window: z.int().nullable().describe('Seconds'),
  lower_boundary: z.number().nullable(),
  upper_boundary: z.number().nullable(),
  created: dateTimeSchema,
  replaced: dateTimeSchema.nullable(),
});
export const thresholdSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  branch: branchSchema,
  testbed: dimensionSchema,
  measure: measureSchema,
  model: modelSchema.nullable(),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
const modelFields = {
  min_sample_size: z.int().nullish(),
  max_sample_size: z.int().nullish(),
  window: z.int().nullish().describe('Seconds'),
  lower_boundary: z.number().nullish(),
  upper_boundary: z.number().nullish(),
};
export const newModelSchema = z.strictObject({
  test: z.string().min(1).describe('Model id, e.g. t_test'),
  ...modelFields,
});
export const newThresholdSchema = newModelSchema.extend({
  branch: nameIdSchema,
  testbed: nameIdSchema,
  measure: nameIdSchema,
});
export const updateThresholdSchema = z.strictObject({
  test: z.string().min(1).nullable().describe('Model id for a new model, or null to remove the model'),
  ...modelFields,
});

const archivedQuery = z.stringbool().default(false).describe('true lists only archived ones');
export function dimensionListQuerySchema<const S extends readonly [string, ...string[]]>(sorts: S) {
  return listQuerySchema(sorts).extend({ archived: archivedQuery });
}
export const thresholdListQuerySchema = listQuerySchema(['created', 'modified']).extend({
  branch: nameIdSchema.optional(),
  testbed: nameIdSchema.optional(),
  measure: nameIdSchema.optional(),
  archived: archivedQuery,
  search: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Case-insensitive substring of the threshold's UUID or of its branch's, testbed's or measure's name or slug",
    ),
  name: z.string().min(1).optional().describe('Exact name of its branch, testbed or measure'),
});
export const deleteQuerySchema = z.object({
  cascade: z
    .stringbool()
    .default(false)
    .describe('Also delete every report, metric and threshold that uses it'),
});

export type BranchJson = z.infer<typeof branchSchema>;
export type DimensionJson = z.infer<typeof dimensionSchema>;
export type MeasureJson = z.infer<typeof measureSchema>;
export type ModelJson = z.infer<typeof modelSchema>;
export type ThresholdJson = z.infer<typeof thresholdSchema>;
