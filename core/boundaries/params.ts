import { z } from 'zod';
import { InputError } from '../errors.js';
import type { ModelParams, ModelPlugin } from '../plugins/contracts.js';

/**
 * How a model reads `lower_boundary` and `upper_boundary`:
 * - `probability`: a CDF percentile of the fitted distribution, in [0.5, 1.0) (z_score, t_test, log_normal;
 *   change_point reads it as 1 − max p-value);
 * - `multiplier`: a non-negative factor (percentage, iqr, delta_iqr);
 * - `absolute`: the limit itself, any finite number (static).
 */
export type BoundaryRule = 'probability' | 'multiplier' | 'absolute';

/** The parameter rules of one model, from which {@link modelParamsSchema} builds its schema. */
export interface ModelParamRules {
  readonly boundary: BoundaryRule;
  /**
   * Whether the model reads a history sample and so accepts `min_sample_size`, `max_sample_size` and
   * `window`. Default true; static sets false, because its limits are absolute.
   */
  readonly history?: boolean;
}

/** The parameter names of the standard model schema, in the order messages list them. */
export const MODEL_PARAM_KEYS = [
  'min_sample_size',
  'max_sample_size',
  'window',
  'lower_boundary',
  'upper_boundary',
] as const;

/** Sample sizes and windows are stored as unsigned 32-bit integers, as in the reference. */
const U32_MAX = 4_294_967_295;
/** Spec: minimum and maximum sample sizes must be at least 2. */
const MIN_SAMPLE_SIZE = 2;

const BOUNDARY_RULES: Record<BoundaryRule, { text: string; ok: (value: number) => boolean }> = {
  probability: { text: 'must be in [0.5, 1.0)', ok: (value) => value >= 0.5 && value < 1 },
  multiplier: { text: 'must be at least 0', ok: (value) => value >= 0 },
  absolute: { text: 'must be a finite number', ok: () => true },
};

/** Formats a rejected value for a message: numbers as JavaScript prints them (NaN, Infinity), others as JSON. */
export function formatParamValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `threshold <param> <rule> for <model>, got <value>`: every parameter message has this shape. */
export function paramMessage(model: string, param: string, rule: string, value: unknown): string {
  return `threshold ${param} ${rule} for ${model}, got ${formatParamValue(value)}`;
}

/**
 * Builds the parameter schema of a model from its rules. The schema accepts the threshold fields (`null` means
 * "not set", as in JSON bodies), rejects unknown fields, and outputs a {@link ModelParams} without unset
 * fields. Every message names the model, the parameter, the rule and the value, e.g.
 * `threshold upper_boundary must be in [0.5, 1.0) for t_test, got 1.2`.
 */
export function modelParamsSchema(model: string, rules: ModelParamRules): z.ZodType<ModelParams> {
  const finite = (key: string) =>
    z
      .number({ error: (issue) => paramMessage(model, key, 'must be a finite number', issue.input) })
      .nullish();
  const integer = (key: string) =>
    z.int({ error: (issue) => paramMessage(model, key, 'must be an integer', issue.input) }).nullish();
  const shape = z.strictObject(
    {
      min_sample_size: integer('min_sample_size'),
      max_sample_size: integer('max_sample_size'),
      window: integer('window'),
      lower_boundary: finite('lower_boundary'),
      upper_boundary: finite('upper_boundary'),
    },
    { error: (issue) => shapeMessage(model, issue) },
  );
  return shape
    .transform((input) => dropUnset(input))
    .superRefine((params, ctx) => {
      for (const { path, message } of problems(model, rules, params)) {
        ctx.addIssue({ code: 'custom', message, path: [path], input: params[path] });
      }
    });
}

function shapeMessage(model: string, issue: { code?: string; input?: unknown; keys?: string[] }): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys ?? [];
    return `threshold ${keys.join(', ')} ${keys.length > 1 ? 'are not parameters' : 'is not a parameter'} of ${model} (parameters: ${MODEL_PARAM_KEYS.join(', ')})`;
  }
  return paramMessage(model, 'parameters', 'must be an object', issue.input);
}

function dropUnset(input: Record<string, unknown>): ModelParams {
  const params: Record<string, number> = {};
  for (const key of MODEL_PARAM_KEYS) {
    const value = input[key];
    if (typeof value === 'number') params[key] = value;
  }
  return params;
}

type ParamKey = (typeof MODEL_PARAM_KEYS)[number];

/** Range and cross-field rules, all reported at once so a user fixes a threshold in one round trip. */
function problems(
  model: string,
  rules: ModelParamRules,
  params: ModelParams,
): { path: ParamKey; message: string }[] {
  const found: { path: ParamKey; message: string }[] = [];
  const add = (path: ParamKey, rule: string, value: unknown) =>
    found.push({ path, message: paramMessage(model, path, rule, value) });
  const boundary = BOUNDARY_RULES[rules.boundary];
  const { lower_boundary: lower, upper_boundary: upper, min_sample_size: min, max_sample_size: max } = params;
  if (lower === undefined && upper === undefined) {
    const message = `threshold lower_boundary or upper_boundary must be set for ${model}, got neither`;
    found.push({ path: 'upper_boundary', message });
  }
  if (lower !== undefined && !boundary.ok(lower)) add('lower_boundary', boundary.text, lower);
  if (upper !== undefined && !boundary.ok(upper)) add('upper_boundary', boundary.text, upper);
  if (rules.boundary === 'absolute' && lower !== undefined && upper !== undefined && lower > upper) {
    add('lower_boundary', `must not exceed upper_boundary (${upper})`, lower);
  }
  if (rules.history === false) {
    for (const key of ['min_sample_size', 'max_sample_size', 'window'] as const) {
      if (params[key] !== undefined)
        add(key, 'must not be set (its limits are absolute and read no history)', params[key]);
    }
    return found;
  }
  const sizeRule = `must be an integer from ${MIN_SAMPLE_SIZE} to ${U32_MAX}`;
  if (min !== undefined && !inRange(min, MIN_SAMPLE_SIZE)) add('min_sample_size', sizeRule, min);
  if (max !== undefined && !inRange(max, MIN_SAMPLE_SIZE)) add('max_sample_size', sizeRule, max);
  if (min !== undefined && max !== undefined && min > max) {
    add('min_sample_size', `must not exceed max_sample_size (${max})`, min);
  }
  if (params.window !== undefined && !inRange(params.window, 1)) {
    add('window', `must be a whole number of seconds from 1 to ${U32_MAX}`, params.window);
  }
  return found;
}

function inRange(value: number, min: number): boolean {
  return value >= min && value <= U32_MAX;
}

/**
 * Parses a model's parameters with the model's own schema; a failure is an {@link InputError} whose message
 * joins the schema's messages (each names the model, the parameter, the rule and the value).
 */
export function parseModelParams<P extends ModelParams>(plugin: ModelPlugin<P>, input: unknown): P {
  const result = plugin.params.safeParse(input);
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => issue.message);
  throw new InputError(messages.join('; '), { model: plugin.id, issues: messages });
}
