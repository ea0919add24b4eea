import { z } from 'zod';
import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { parseHyperfineConsole } from './shared/hyperfine-console.js';
import { readJson } from './shared/json-input.js';
import { ResultsBuilder } from './shared/results.js';
import { nanos } from './shared/text.js';

const schema = z.object({
  results: z.array(
    z.object({
      command: z.string(),
      mean: z.number(),
      stddev: z.number().nullable().optional(),
      median: z.number(),
      user: z.number(),
      system: z.number(),
      min: z.number(),
      max: z.number(),
      exit_codes: z.array(z.unknown()),
    }),
  ),
});

/** hyperfine `--export-json` output, or its console output when the input is not that JSON. */
export default defineAdapter({
  id: 'shell_hyperfine',
  aliases: ['hyperfine'],
  description: 'hyperfine command benchmarks',
  reads:
    'hyperfine --export-json or console output: one benchmark per command; latency in ns, mean ± stddev (JSON also median with min/max)',
  parse(output, settings) {
    const json = readJson(output, schema);
    if (!json) return parseHyperfineConsole(output, settings);
    const results = new ResultsBuilder();
    for (const run of json.results) {
      results.metric(run.command, 'latency', settings.average === 'median' ? median(run) : mean(run));
    }
    return results.build();
  },
});

function mean(run: { mean: number; stddev?: number | null | undefined }): BmfMetric {
  const value = nanos(run.mean, 's');
  if (run.stddev === null || run.stddev === undefined) return { value };
  // Bounds in seconds first, then converted: the reference's order of operations, so the doubles match.
  return {
    value,
    lower_value: nanos(run.mean - run.stddev, 's'),
    upper_value: nanos(run.mean + run.stddev, 's'),
  };
}

function median(run: { median: number; min: number; max: number }): BmfMetric {
  return {
    value: nanos(run.median, 's'),
    lower_value: nanos(run.min, 's'),
    upper_value: nanos(run.max, 's'),
  };
}
