import type { Fold } from '../adapters/fold.js';
import {
  adaptResults,
  selectAdapter,
  type AdapterSelection,
  type AdaptSettings,
} from '../adapters/selection.js';
import { parseBmfText, type Bmf } from '../bmf.js';
import { errorName, InputError } from '../errors.js';
import { checkName, printableName } from '../name-rule.js';
import type { BmfMetric } from '../bmf.js';
import { stripIgnoreSuffix } from '../boundaries/ignore.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { z } from 'zod';
import type { settingsSchema } from '../schemas/reports.js';

/** One metric of a submission, before storage: where it belongs and its numbers. */
export interface PreparedMetric {
  readonly iteration: number;
  /** Benchmark key (name, slug or UUID) with any ignore suffix removed. */
  readonly benchmark: string;
  /** Measure key (slug, name or UUID) as the harness or BMF wrote it. */
  readonly measure: string;
  readonly metric: BmfMetric;
}

export interface PreparedResults {
  /** Adapter stored with the report: the adapter id, or `magic` for groups and auto-detection. */
  readonly adapter: string;
  readonly iterations: number;
  readonly metrics: readonly PreparedMetric[];
  /** Benchmarks whose name carried an ignore suffix: their boundaries are kept, their alerts are not raised. */
  readonly ignored: ReadonlySet<string>;
  readonly benchmarks: readonly string[];
  readonly measures: readonly string[];
}

/**
 * Parses every results string (one per iteration) with the adapter, folds when asked, and flattens the result.
 * Runs before the write transaction: parsing is CPU work that must not hold the single writer.
 */
export function prepareResults(
  registry: PluginRegistry,
  results: readonly string[],
  settings: z.output<typeof settingsSchema> | undefined,
): PreparedResults {
  const selection = selectAdapter(registry, settings?.adapter ?? 'magic');
  results.forEach((text, index) => {
    if (text.trim() === '') {
      const which = results.length > 1 ? `results[${index}]` : 'results';
      throw new InputError(
        `${which} is empty: the harness printed no results, so there is nothing to report; check the benchmark command and its output`,
      );
    }
  });
  const iterations = adaptOrExplain(selection, results, {
    ...(settings?.average ? { average: settings.average } : {}),
    ...(settings?.fold ? { fold: settings.fold as Fold } : {}),
  });
  const metrics = new Map<string, PreparedMetric>();
  const ignored = new Set<string>();
  const benchmarks = new Set<string>();
  const measures = new Set<string>();
  iterations.forEach((bmf, iteration) => {
    const where = iterations.length > 1 ? `results[${iteration}]` : 'results';
    checkNotEmpty(where, bmf);
    for (const [rawName, byMeasure] of Object.entries(bmf)) {
      const { name, ignored: isIgnored } = stripIgnoreSuffix(rawName);
      checkName(`${where}: benchmark`, name);
      if (isIgnored) ignored.add(name);
      benchmarks.add(name);
      for (const [measure, metric] of Object.entries(byMeasure)) {
        checkName(`${where}: benchmark ${printableName(name)} measure`, measure);
        checkBounds(`${where}: benchmark ${printableName(name)} measure ${printableName(measure)}`, metric);
        measures.add(measure);
        // `foo` and `foo_benchtrack_ignore` in one iteration are one benchmark: the later one wins
        metrics.set(`${iteration}\u0000${name}\u0000${measure}`, {
          iteration,
          benchmark: name,
          measure,
          metric,
        });
      }
    }
  });
  return {
    adapter: selection.kind === 'adapter' ? (selection.adapters[0]?.id ?? selection.name) : 'magic',
    iterations: iterations.length,
    metrics: [...metrics.values()],
    ignored,
    benchmarks: [...benchmarks],
    measures: [...measures],
  };
}

/**
 * A results string whose BMF holds no metric would store an empty report. The harness ran, and either its
 * output was an empty document (`{}`) or it named benchmarks without measures: both are refused, saying which.
 */
function checkNotEmpty(where: string, bmf: Bmf): void {
  const names = Object.keys(bmf);
  if (names.length === 0) {
    throw new InputError(
      `${where} is an empty BMF document ({}): it names no benchmarks, so the report would be empty; check that the harness wrote its results (if it ran no benchmarks, there is nothing to report)`,
    );
  }
  if (names.every((name) => Object.keys(bmf[name] ?? {}).length === 0)) {
    throw new InputError(
      `${where} names ${names.length} benchmark${names.length > 1 ? 's' : ''} but no measures (e.g. {${printableName(names[0] ?? '')}: {}}), so the report would be empty; give each benchmark at least one measure: {"latency": {"value": 1.5}}`,
    );
  }
}

/** A metric's bounds, when both are given, must not be crossed. */
function checkBounds(where: string, metric: BmfMetric): void {
  const { lower_value: lower, upper_value: upper } = metric;
  if (lower !== undefined && upper !== undefined && lower > upper) {
    throw new InputError(
      `${where}: lower_value (${lower}) is greater than upper_value (${upper}); lower_value must be at most upper_value`,
    );
  }
}

/**
 * Adapts every results string; when the BMF adapter finds nothing, says what is wrong with the document
 * (path by path) instead of only "no benchmarks found".
 */
function adaptOrExplain(
  selection: AdapterSelection,
  results: readonly string[],
  settings: AdaptSettings,
): Bmf[] {
  try {
    return adaptResults(selection, results, settings);
  } catch (error) {
    if (
      errorName(error) !== 'InputError' ||
      selection.kind !== 'adapter' ||
      selection.adapters[0]?.id !== 'json'
    )
      throw error;
    for (const [index, text] of results.entries()) {
      const parsed = parseBmfText(text);
      if (!parsed.success) {
        const which = results.length > 1 ? `results ${index + 1} of ${results.length}` : 'results';
        throw new InputError(`${which} is not valid BMF: ${parsed.errors.join('; ')}`);
      }
    }
    throw error;
  }
}
