import { z } from 'zod';
import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { parseGoogleConsole } from './shared/google-console.js';
import { readJson } from './shared/json-input.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { isTimeUnit, nanos } from './shared/text.js';

const row = z
  .object({
    name: z.string(),
    run_name: z.string().optional(),
    run_type: z.string().optional(),
    aggregate_name: z.string().optional(),
    real_time: z.number(),
    time_unit: z.string().refine(isTimeUnit),
  })
  // User counters (`items_per_second`, `bytes_per_second`, state.counters) are extra numeric fields.
  .passthrough();
const schema = z.object({
  context: z.object({ caches: z.array(z.unknown()) }),
  benchmarks: z.array(row),
});

type Row = z.infer<typeof row>;

/** The fields of a benchmark row that are not user counters (benchmark 1.5 to 1.9). */
const ROW_FIELDS = new Set([
  'name',
  'family_index',
  'per_family_instance_index',
  'run_name',
  'run_type',
  'repetitions',
  'repetition_index',
  'threads',
  'iterations',
  'real_time',
  'cpu_time',
  'time_unit',
  'aggregate_name',
  'aggregate_unit',
  'error_occurred',
  'error_message',
  'label',
  'latency',
]);

/**
 * Google Benchmark `--benchmark_format=json` output (console output: shared/google-console.ts); latency = `real_time` in ns. With repetitions the
 * reference keeps whichever repetition came last; here a run that has a `mean` aggregate row is reported once,
 * under its run name, as that mean with the `stddev` aggregate as bounds, and its repetition and other
 * aggregate rows are not reported separately.
 */
export default defineAdapter({
  id: 'cpp_google',
  description: 'Google Benchmark (C++)',
  reads:
    'Google Benchmark JSON or console output: latency = real time in ns, user counters as measures; with repetitions, the mean aggregate ± the stddev aggregate',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const json = readJson(output, schema);
    if (!json) return parseGoogleConsole(output);
    const aggregates = aggregatesByRun(json.benchmarks);
    const results = new ResultsBuilder();
    for (const benchmark of json.benchmarks) {
      const run = benchmark.run_name ?? benchmark.name;
      const summary = aggregates.get(run);
      if (summary === undefined)
        results.benchmark(benchmark.name, [
          ['latency', { value: latencyOf(benchmark) }],
          ...counters(benchmark),
        ]);
      else if (benchmark === summary.mean)
        results.benchmark(run, [['latency', summary.metric], ...counters(benchmark)]);
    }
    return results.build();
  },
});

/** User counters as measures named by the counter, values as Google Benchmark computed them. */
function counters(benchmark: Row): [string, BmfMetric][] {
  return Object.entries(benchmark).flatMap(([key, value]): [string, BmfMetric][] =>
    ROW_FIELDS.has(key) || typeof value !== 'number' ? [] : [[key, { value }]],
  );
}

function latencyOf(benchmark: Row): number {
  return nanos(benchmark.real_time, benchmark.time_unit);
}

/** Runs with a `mean` aggregate: the row that represents them and the metric it becomes. */
function aggregatesByRun(rows: readonly Row[]): Map<string, { mean: Row; metric: BmfMetric }> {
  const means = new Map<string, Row>();
  const stddevs = new Map<string, Row>();
  for (const r of rows) {
    if (r.run_type !== 'aggregate' || r.run_name === undefined) continue;
    if (r.aggregate_name === 'mean') means.set(r.run_name, r);
    if (r.aggregate_name === 'stddev') stddevs.set(r.run_name, r);
  }
  const out = new Map<string, { mean: Row; metric: BmfMetric }>();
  for (const [run, mean] of means) {
    const stddev = stddevs.get(run);
    const value = latencyOf(mean);
    out.set(run, { mean, metric: stddev ? spread(value, latencyOf(stddev)) : { value } });
  }
  return out;
}
