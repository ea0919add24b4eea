import { z } from 'zod';
import { projectSchema } from './accounts.js';
import { dateTimeSchema, uuidSchema, withNameRule } from './common.js';
import { branchSchema, dimensionSchema, measureSchema } from './dimensions.js';
import { alertBriefSchema, boundarySchema, metricSchema, thresholdModelSchema } from './reports.js';

/** Wire format of perf queries and pinned plots. */

/** At most this many branch x testbed x benchmark x measure permutations per query (spec: Limits). */
export const PERF_PERMUTATIONS_MAX = 255;
/**
 * At most this many points per perf answer (JSON, CSV, Arrow or image): about 20 MB of JSON with thresholds.
 * A larger query is refused with a 400 saying how to narrow it, before its JSON is built.
 */
export const PERF_POINTS_MAX = 50_000;
/** A perf image draws at most this many lines. */
export const PERF_IMAGE_LINES_MAX = 8;

const list = (what: string) =>
  z
    .string({ error: `is required: a comma-separated list of ${what} (UUID or slug)` })
    .transform((text) => text.split(',').map((item) => item.trim()))
    .refine((items) => items.every((item) => item.length > 0), {
      error: `must list ${what} without empty entries`,
    });

export const perfQuerySchema = z.object({
  branches: list('branches'),
  heads: z
    .string()
    .optional()
    .transform((text) => (text === undefined ? [] : text.split(',').map((item) => item.trim())))
    .describe('Head UUIDs aligned with branches; an empty entry means the current head'),
  testbeds: list('testbeds'),
  benchmarks: list('benchmarks'),
  measures: list('measures').refine((items) => items.length <= 2, {
    error: 'must list at most two measures',
  }),
  start_time: z.coerce
    .number()
    .int()
    .optional()
    .describe('Epoch milliseconds: points from reports that started at or after it'),
  end_time: z.coerce
    .number()
    .int()
    .optional()
    .describe('Epoch milliseconds: points from reports that ended at or before it'),
  format: z
    .enum(['json', 'csv', 'arrow'])
    .optional()
    .describe('Default json; also chosen by the Accept header'),
  threshold_models: z
    .stringbool()
    .default(true)
    .describe(
      "false leaves out each point's threshold and model (about half of a JSON answer with thresholds); boundaries and alerts stay",
    ),
  fields: z
    .enum(['all', 'plot'])
    .default('all')
    .describe(
      "JSON and Arrow: plot leaves out what a plot has no use for: each point's metric UUID and end_time (a JSON answer's points lose metric.uuid and end_time; the database skips reading metric UUIDs), and in Arrow also the branch, testbed, benchmark and measure names, which the schema's benchtrack.series metadata holds per series. Not for CSV. Default all",
    ),
});
export type PerfQuery = z.output<typeof perfQuerySchema>;
/** The columns of an Arrow perf answer (`fields`): every one, or what a plot shows. */
export type PerfFields = PerfQuery['fields'];

export const perfImageQuerySchema = perfQuerySchema
  .omit({ format: true, threshold_models: true, fields: true })
  .extend({
    measures: list('measures').refine((items) => items.length === 1, {
      error: 'must name exactly one measure for an image',
    }),
    title: z.string().max(256).optional(),
    x_axis: z.enum(['date_time', 'version']).default('date_time'),
    y_axis: z.enum(['auto', 'linear', 'log']).default('auto'),
    width: z.coerce.number().int().min(320).max(4000).optional(),
    height: z.coerce.number().int().min(240).max(3000).optional(),
    window: z.coerce
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .describe(
        'Seconds of history up to now, instead of start_time and end_time: an embedded image rolls forward',
      ),
    changes: z
      .stringbool()
      .default(false)
      .describe(
        "true draws each series' change points (default detector settings): a dashed marker at the first point of each new regime and the mean levels before and after it",
      ),
    regressions: z
      .stringbool()
      .default(false)
      .describe(
        'true marks the regressions of each series (untriaged, acknowledged, fixed or expected) at their first bad version: a solid vertical line with a triangle at the top, red for a regression, green for an improvement',
      ),
    theme: z
      .enum(['light', 'dark'])
      .default('light')
      .describe('dark draws on a dark background (#0d1117) with lighter lines and text, for dark pages'),
    format: z
      .enum(['png', 'svg'])
      .default('png')
      .describe(
        'svg answers the SVG document (image/svg+xml) instead of a PNG: smaller and sharp at any zoom. Chosen by this parameter only, not by Accept, which browsers fill with image/svg+xml for every image',
      ),
  })
  .superRefine((query, ctx) => {
    if (query.window !== undefined && (query.start_time !== undefined || query.end_time !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['window'],
        message: 'cannot be combined with start_time or end_time: give a window or times, not both',
      });
    }
  });

export const perfPointSchema = z.object({
  report: uuidSchema,
  iteration: z.int(),
  start_time: dateTimeSchema,
  end_time: dateTimeSchema.optional().describe('Absent when the query says fields=plot'),
  version: z.object({ number: z.int(), hash: z.string().nullable() }),
  metric: metricSchema.extend({
    uuid: metricSchema.shape.uuid.optional().describe('Absent when the query says fields=plot'),
  }),
  threshold: thresholdModelSchema
    .nullable()
    .optional()
    .describe('Absent when the query says threshold_models=false'),
  boundary: boundarySchema.nullable(),
  alert: alertBriefSchema.nullable(),
});
/** What every per-series answer (perf points, change points) starts with: the project and the time window. */
export const perfAnswerSchema = z.object({
  project: projectSchema,
  start_time: dateTimeSchema.nullable(),
  end_time: dateTimeSchema.nullable(),
});
/** One series of a perf selection: a branch, testbed, benchmark and measure. */
export const perfSeriesSchema = z.object({
  branch: branchSchema,
  testbed: dimensionSchema,
  benchmark: dimensionSchema,
  measure: measureSchema,
});
export const perfSchema = perfAnswerSchema.extend({
  results: z.array(perfSeriesSchema.extend({ metrics: z.array(perfPointSchema) })),
});

export const PLOTS_MAX = 64;
const plotFields = {
  title: withNameRule(z.string().min(1).max(256)).nullable().optional(),
  lower_value: z.boolean().default(false),
  upper_value: z.boolean().default(false),
  lower_boundary: z.boolean().default(false),
  upper_boundary: z.boolean().default(false),
  x_axis: z.enum(['date_time', 'version']).default('date_time'),
  y_axis: z.enum(['auto', 'linear', 'log']).default('auto'),
  window: z.int().min(1).max(2_147_483_647).describe('Seconds of history to show, up to now'),
  branches: z.array(z.string().min(1)).min(1).max(255),
  testbeds: z.array(z.string().min(1)).min(1).max(255),
  benchmarks: z.array(z.string().min(1)).min(1).max(255),
  measures: z.array(z.string().min(1)).min(1).max(2),
};
export const newPlotSchema = z.strictObject({
  index: z
    .int()
    .min(0)
    .max(PLOTS_MAX - 1)
    .optional()
    .describe('Position on the dashboard (default: last)'),
  ...plotFields,
});
export const updatePlotSchema = z.strictObject({
  index: z
    .int()
    .min(0)
    .max(PLOTS_MAX - 1)
    .optional(),
  title: withNameRule(z.string().min(1).max(256)).nullable().optional().describe('null clears the title'),
  lower_value: z.boolean().optional(),
  upper_value: z.boolean().optional(),
  lower_boundary: z.boolean().optional(),
  upper_boundary: z.boolean().optional(),
  x_axis: z.enum(['date_time', 'version']).optional(),
  y_axis: z.enum(['auto', 'linear', 'log']).optional(),
  window: z.int().min(1).max(2_147_483_647).optional(),
});
export const plotSchema = z.object({
  uuid: uuidSchema,
  project: uuidSchema,
  index: z.int(),
  title: z.string().nullable(),
  lower_value: z.boolean(),
  upper_value: z.boolean(),
  lower_boundary: z.boolean(),
  upper_boundary: z.boolean(),
  x_axis: z.enum(['date_time', 'version']),
  y_axis: z.enum(['auto', 'linear', 'log']),
  window: z.int(),
  branches: z.array(uuidSchema),
  testbeds: z.array(uuidSchema),
  benchmarks: z.array(uuidSchema),
  measures: z.array(uuidSchema),
  created: dateTimeSchema,
  modified: dateTimeSchema,
});
export type PlotJson = z.infer<typeof plotSchema>;
