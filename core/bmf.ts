import { z } from 'zod';

/**
 * Benchmark Metric Format (BMF): benchmark name -> measure slug -> metric. The exchange format between
 * adapters, the CLI and the API (spec: "Metric Format (BMF) JSON"). The zod schemas below are the single
 * source of truth: the runtime check, the TypeScript types and the JSON Schema shipped in the package.
 */

/** Benchmark names are at most this many UTF-8 bytes (the reference rejects longer names). */
export const MAX_BENCHMARK_NAME_BYTES = 1024;

const finite = (field: string) =>
  z.number({ error: `${field} must be a finite number` }).meta({ description: `${field} (finite number)` });

/** The removed names are rejected rather than ignored, so a stale harness fails loudly instead of losing bounds. */
const removed = (name: string, replacement: string) =>
  z
    .never({ error: `${name} was removed from BMF: name it ${replacement}` })
    .optional()
    .meta({ description: `removed; use ${replacement}` });

export const bmfMetricSchema = z
  .looseObject(
    {
      value: finite('value').meta({ description: 'The metric value.' }),
      lower_value: finite('lower_value').optional().meta({ description: 'Lower bound of the metric.' }),
      upper_value: finite('upper_value').optional().meta({ description: 'Upper bound of the metric.' }),
      lower_bound: removed('lower_bound', 'lower_value'),
      upper_bound: removed('upper_bound', 'upper_value'),
    },
    { error: 'a metric must be an object {value, lower_value?, upper_value?}' },
  )
  .meta({ description: 'One metric. Other keys are ignored, like the reference does.' });

const measureKey = z.string().min(1, { error: 'measure names must not be empty' });
const benchmarkKey = z
  .string()
  .min(1, { error: 'benchmark names must not be empty' })
  .refine((name) => Buffer.byteLength(name, 'utf8') <= MAX_BENCHMARK_NAME_BYTES, {
    error: `benchmark names must be at most ${MAX_BENCHMARK_NAME_BYTES} bytes`,
  });

export const bmfMeasuresSchema = z
  .record(measureKey, bmfMetricSchema, { error: 'measures must be an object of measure name -> metric' })
  .meta({ description: 'Measures of one benchmark, keyed by measure slug or name.' });

export const bmfSchema = z
  .record(benchmarkKey, bmfMeasuresSchema, {
    error: 'BMF must be a JSON object of benchmark name -> measure name -> metric',
  })
  .meta({
    title: 'Benchmark Metric Format (BMF)',
    description: 'Benchmark name -> measure slug -> {value, lower_value?, upper_value?}.',
  });

/** One metric: `lower_value`/`upper_value` are absolute bounds, not deltas. */
export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

/** Measures of one benchmark, keyed by measure slug (or any name; custom measures are created on the fly). */
export type BmfMeasures = Record<string, BmfMetric>;

/** One iteration's results: benchmark name -> measures. */
export type Bmf = Record<string, BmfMeasures>;

export type BmfParseResult = { success: true; data: Bmf } | { success: false; errors: string[] };

/**
 * Validates an already-decoded JSON value as BMF. Errors name the path the way a user reads BMF:
 * `benchmark "sort/1000" measure "latency": value must be a finite number`.
 */
export function parseBmf(input: unknown): BmfParseResult {
  // Documents of a hundred thousand metrics are common enough that zod's per-key work shows (about 1 s per
  // 10 MB); valid input takes a direct check of the same rules, and zod reports the errors of the rest.
  if (isValidBmf(input)) return { success: true, data: stripRemoved(input as z.infer<typeof bmfSchema>) };
  const result = bmfSchema.safeParse(input);
  // Built from the input, not from zod's output: zod assigns keys plainly and would lose `__proto__`.
  if (result.success) return { success: true, data: stripRemoved(input as z.infer<typeof bmfSchema>) };
  return { success: false, errors: result.error.issues.map(formatBmfIssue) };
}

/** Like {@link parseBmf}, from JSON text. */
export function parseBmfText(text: string): BmfParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { success: false, errors: [`not valid JSON: ${(error as Error).message}`] };
  }
  return parseBmf(json);
}

/**
 * The rules of {@link bmfSchema}, checked directly. It may reject what the schema accepts (zod then decides),
 * never the reverse; a property test holds it to that.
 */
export function isValidBmf(input: unknown): boolean {
  if (!isRecord(input)) return false;
  for (const benchmark of Object.keys(input)) {
    if (
      benchmark === '' ||
      (benchmark.length > 341 && Buffer.byteLength(benchmark, 'utf8') > MAX_BENCHMARK_NAME_BYTES)
    )
      return false;
    const measures = input[benchmark];
    if (!isRecord(measures)) return false;
    for (const measure of Object.keys(measures)) {
      const metric = measures[measure];
      if (measure === '' || !isRecord(metric) || !isFiniteNumber(metric.value)) return false;
      if (metric.lower_value !== undefined && !isFiniteNumber(metric.lower_value)) return false;
      if (metric.upper_value !== undefined && !isFiniteNumber(metric.upper_value)) return false;
      if (metric.lower_bound !== undefined || metric.upper_bound !== undefined) return false;
    }
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function stripRemoved(data: z.infer<typeof bmfSchema>): Bmf {
  const out: Bmf = {};
  for (const [benchmark, measures] of Object.entries(data)) {
    const copy: BmfMeasures = {};
    for (const [measure, { value, lower_value, upper_value }] of Object.entries(measures)) {
      const metric: BmfMetric = { value };
      if (lower_value !== undefined) metric.lower_value = lower_value;
      if (upper_value !== undefined) metric.upper_value = upper_value;
      setOwn(copy, measure, metric);
    }
    setOwn(out, benchmark, copy);
  }
  return out;
}

/**
 * Sets an own enumerable property. Benchmark names come from user output, and plain assignment would treat
 * a benchmark named `__proto__` as the prototype; every builder of BMF objects uses this.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

function formatBmfIssue(issue: z.core.$ZodIssue): string {
  const [benchmark, measure, field, ...rest] = issue.path.map(String);
  const where: string[] = [];
  if (benchmark !== undefined) where.push(`benchmark ${quote(benchmark)}`);
  if (measure !== undefined) where.push(`measure ${quote(measure)}`);
  const prefix = where.length > 0 ? `${where.join(' ')}: ` : '';
  // A bad key is reported by the record with the key's own problem nested inside.
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  if (field === undefined || message.startsWith(field)) return `${prefix}${message}${tail(rest)}`;
  return `${prefix}${field}: ${message}${tail(rest)}`;
}

/** Long names (a whole command line, say) are cut so the message stays readable. */
function quote(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 77)}...` : name);
}

function tail(rest: string[]): string {
  return rest.length > 0 ? ` (at ${rest.join('.')})` : '';
}
