import { z } from 'zod';
import { InputError } from '../errors.js';
import { formatPath } from '../issues.js';

/** The most lines one image draws (the specification: at most 8 lines); the palette has exactly this many colors. */
export const PLOT_IMAGE_MAX_SERIES = 8;
/** Points per series the renderer accepts; beyond one per pixel column it aggregates, so this only bounds memory. */
export const PLOT_IMAGE_MAX_POINTS = 1_000_000;
export const PLOT_IMAGE_DEFAULT_WIDTH = 1200;
export const PLOT_IMAGE_DEFAULT_HEIGHT = 600;
/** Smaller than this the legend and axis labels no longer fit; larger only costs memory and time. */
export const PLOT_IMAGE_WIDTH_RANGE = [320, 4000] as const;
export const PLOT_IMAGE_HEIGHT_RANGE = [240, 3000] as const;

const float64 = z.instanceof(Float64Array, { error: 'must be a Float64Array' });
const uint8 = z.instanceof(Uint8Array, { error: 'must be a Uint8Array' });
const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });

/** One line of a plot: one (branch, testbed, benchmark) permutation of the image's measure. */
export const plotImageSeriesSchema = z
  .object({
    /** Legend text, conventionally `branch / testbed / benchmark`; long labels are shortened in the middle. */
    label: text(1024),
    /** Epoch milliseconds (x axis `date_time`) or the branch version number (x axis `version`). */
    x: float64,
    /** The metric values, same length as `x`. A point whose x or y is NaN or infinite is not drawn. */
    y: float64,
    /** Lower limit of the threshold boundary per point; NaN where there is none. Drawn as a band with `upper`. */
    lower: float64.optional(),
    /** Upper limit of the threshold boundary per point; NaN where there is none. */
    upper: float64.optional(),
    /** 1 (any non-zero) where the point raised an alert, drawn as a marker; 0 elsewhere. */
    alert: uint8.optional(),
    /**
     * Change points, drawn as a dashed vertical marker at the first point of each new regime and the mean
     * levels before and after it as horizontal lines over their segments.
     */
    changes: z
      .array(
        z.object({
          /** The first point of the new regime: an index into `x`. */
          index: z.int().min(1, { error: 'must be at least 1 (the first point of a new regime)' }),
          before: z.number(),
          after: z.number(),
        }),
      )
      .optional(),
    /**
     * The newest point's change from its threshold's baseline, in percent (the figure the CLI prints), shown after
     * the series' label in the legend where it fits.
     */
    change: z.number().finite().optional(),
    /** Regressions of the series, drawn as a solid vertical line at their first bad point, colored by kind. */
    regressions: z
      .array(
        z.object({
          /** The series' first point at the regression's first bad version: an index into `x`. */
          index: z.int().min(0),
          kind: z.enum(['regression', 'improvement']),
        }),
      )
      .optional(),
  })
  .superRefine((series, ctx) => {
    const length = series.x.length;
    if (length > PLOT_IMAGE_MAX_POINTS) {
      ctx.addIssue({
        code: 'custom',
        path: ['x'],
        message: `must have at most ${PLOT_IMAGE_MAX_POINTS} points, got ${length}`,
      });
    }
    for (const [k, change] of (series.changes ?? []).entries()) {
      if (change.index >= length) {
        ctx.addIssue({
          code: 'custom',
          path: ['changes', k, 'index'],
          message: `must be below the number of points (${length}), got ${change.index}`,
        });
      }
    }
    for (const [k, regression] of (series.regressions ?? []).entries()) {
      if (regression.index >= length) {
        ctx.addIssue({
          code: 'custom',
          path: ['regressions', k, 'index'],
          message: `must be below the number of points (${length}), got ${regression.index}`,
        });
      }
    }
    for (const key of ['y', 'lower', 'upper', 'alert'] as const) {
      const column = series[key];
      if (column !== undefined && column.length !== length) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `must have as many entries as x (${length}), got ${column.length}`,
        });
      }
    }
  });

/**
 * The input of the `plot-image` worker task: everything one PNG shows, as plain data whose big columns are typed
 * arrays, so it crosses to a worker thread by structured clone with the buffers moved, not copied. One image shows
 * one measure; the HTTP layer validates the query, fetches the points and fills this in.
 */
export const plotImageInputSchema = z.object({
  /** Drawn centered at the top; shortened with an ellipsis when it does not fit the width. */
  title: text(256).optional(),
  /** Pixels. */
  width: z
    .number()
    .int({ error: 'must be an integer' })
    .min(PLOT_IMAGE_WIDTH_RANGE[0])
    .max(PLOT_IMAGE_WIDTH_RANGE[1])
    .default(PLOT_IMAGE_DEFAULT_WIDTH),
  /** Pixels. */
  height: z
    .number()
    .int({ error: 'must be an integer' })
    .min(PLOT_IMAGE_HEIGHT_RANGE[0])
    .max(PLOT_IMAGE_HEIGHT_RANGE[1])
    .default(PLOT_IMAGE_DEFAULT_HEIGHT),
  /** `date_time`: x is epoch ms, labelled in UTC; `version`: x is the branch version number. */
  xAxis: z.enum(['date_time', 'version']),
  /**
   * `linear`, `log` (base 10; points at or below zero are not drawn), or `auto`: log when every drawn value is
   * positive and the largest is at least 1000 times the smallest, linear otherwise.
   */
  yAxis: z.enum(['auto', 'linear', 'log']),
  /**
   * The x range to show, e.g. the query's start_time and end_time, so an image of "the last 30 days" spans 30
   * days even when data covers fewer. Either end defaults to the data's extent; points outside are not drawn.
   */
  xRange: z
    .object({ start: z.number().finite().optional(), end: z.number().finite().optional() })
    .refine((r) => r.start === undefined || r.end === undefined || r.start < r.end, {
      error: 'start must be before end',
    })
    .optional(),
  /** `light` (white background) or `dark` (GitHub's dark background, lighter lines and text). */
  theme: z.enum(['light', 'dark']).default('light'),
  /** `png` (rasterized) or `svg` (the document itself, UTF-8: smaller, sharp at any zoom). */
  format: z.enum(['png', 'svg']).default('png'),
  /** The y axis is labelled `name (units)`, e.g. `Latency (nanoseconds (ns))`. */
  measure: z.object({ name: text(256), units: text(256) }),
  series: z
    .array(plotImageSeriesSchema)
    .max(PLOT_IMAGE_MAX_SERIES, { error: `must have at most ${PLOT_IMAGE_MAX_SERIES} series` }),
});

/** What a caller passes to the `plot-image` task (width, height, theme and format may be left out). */
export type PlotImageInput = z.input<typeof plotImageInputSchema>;
/** A validated {@link PlotImageInput} with its defaults filled in. */
export type PlotImage = z.output<typeof plotImageInputSchema>;
export type PlotImageSeries = z.output<typeof plotImageSeriesSchema>;

/**
 * Validates a plot image input (the worker task's edge); a failure is an {@link InputError} whose message names
 * each offending field, e.g. `series[2].y: must have as many entries as x (100), got 99`.
 */
export function parsePlotImageInput(input: unknown): PlotImage {
  const result = plotImageInputSchema.safeParse(input);
  if (result.success) return result.data;
  const messages = result.error.issues.map(
    (issue) => `${formatPath(issue.path) || 'input'}: ${issue.message}`,
  );
  throw new InputError(`invalid plot image input: ${messages.join('; ')}`, { issues: messages });
}

/** The buffers of an input's typed arrays, to move them to a worker instead of copying them. */
export function plotImageBuffers(input: PlotImageInput): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const series of input.series) {
    for (const column of [series.x, series.y, series.lower, series.upper, series.alert]) {
      if (column?.buffer instanceof ArrayBuffer) buffers.add(column.buffer);
    }
  }
  return [...buffers];
}
