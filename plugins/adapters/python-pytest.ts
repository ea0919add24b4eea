import { z } from 'zod';
import { defineAdapter } from '../../kit/index.js';
import { readJson } from './shared/json-input.js';
import { parsePytestConsole } from './shared/pytest-console.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { nanos } from './shared/text.js';

const schema = z.object({
  machine_info: z.unknown().refine((v) => v !== undefined),
  commit_info: z.unknown().refine((v) => v !== undefined),
  benchmarks: z.array(
    z.object({
      fullname: z.string(),
      stats: z.object({ mean: z.number(), stddev: z.number(), median: z.number(), iqr: z.number() }),
    }),
  ),
});

/** pytest-benchmark `--benchmark-json` output (statistics in seconds), or its console table. */
export default defineAdapter({
  id: 'python_pytest',
  description: 'pytest-benchmark (Python)',
  reads:
    'pytest-benchmark JSON (one benchmark per fullname) or console table (per name as printed); latency in ns, mean ± stddev (or median ± IQR)',
  parse(output, settings) {
    const json = readJson(output, schema);
    if (!json) return parsePytestConsole(output, settings);
    const results = new ResultsBuilder();
    for (const { fullname, stats } of json.benchmarks) {
      const metric =
        settings.average === 'median'
          ? spread(nanos(stats.median, 's'), nanos(stats.iqr, 's'))
          : spread(nanos(stats.mean, 's'), nanos(stats.stddev, 's'));
      results.metric(fullname, 'latency', metric);
    }
    return results.build();
  },
});
