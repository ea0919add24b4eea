import { z } from 'zod';
import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { readJson } from './shared/json-input.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { nanos, validName } from './shared/text.js';

const benchmark = z.object({
  name: z.string(),
  hz: z.number(),
  mean: z.number(),
  median: z.number(),
  sd: z.number(),
  rme: z.number(),
});
const schema = z.object({
  files: z.array(
    z.object({ groups: z.array(z.object({ fullName: z.string(), benchmarks: z.array(benchmark) })) }),
  ),
});

/** `vitest bench --outputJson` output (times in milliseconds). */
export default defineAdapter({
  id: 'js_vitest',
  description: 'Vitest bench (JavaScript/TypeScript)',
  reads:
    'vitest bench --outputJson: named "<group> > <bench>"; latency in ns (mean ± sd, or median) and throughput (hz ± rme%)',
  parse(output, settings) {
    const json = readJson(output, schema);
    if (!json) return null;
    const results = new ResultsBuilder();
    for (const group of json.files.flatMap((file) => file.groups)) {
      for (const bench of group.benchmarks) {
        const full = `${group.fullName} > ${bench.name}`;
        // Names over the length limit fall back to the benchmark's own name, as in the reference.
        results.benchmark(
          validName(full) ? full : bench.name,
          measures(bench, settings.average === 'median'),
        );
      }
    }
    return results.build();
  },
});

function measures(bench: z.infer<typeof benchmark>, median: boolean): [string, BmfMetric][] {
  const latency = median
    ? { value: nanos(bench.median, 'ms') }
    : spread(nanos(bench.mean, 'ms'), nanos(bench.sd, 'ms'));
  return [
    ['latency', latency],
    ['throughput', spread(bench.hz, bench.hz * (bench.rme / 100))],
  ];
}
