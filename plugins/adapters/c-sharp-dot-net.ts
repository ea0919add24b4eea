import { z } from 'zod';
import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { readJson } from './shared/json-input.js';
import { ResultsBuilder, spread } from './shared/results.js';

const schema = z.object({
  HostEnvironmentInfo: z.record(z.string(), z.unknown()),
  Benchmarks: z.array(
    z.object({
      Namespace: z.string().nullable().optional(),
      Method: z.string(),
      Statistics: z.object({
        Mean: z.number(),
        StandardDeviation: z.number(),
        Median: z.number(),
        InterquartileRange: z.number(),
      }),
      Memory: z
        .object({
          Gen0Collections: z.number(),
          Gen1Collections: z.number(),
          Gen2Collections: z.number(),
          TotalOperations: z.number(),
          BytesAllocatedPerOperation: z.number(),
        })
        .nullable()
        .optional(),
    }),
  ),
});

type Benchmark = z.infer<typeof schema>['Benchmarks'][number];

/** BenchmarkDotNet JSON exporter output (statistics in nanoseconds). */
export default defineAdapter({
  id: 'c_sharp_dot_net',
  description: 'BenchmarkDotNet (C#/.NET)',
  reads:
    'BenchmarkDotNet JSON: named Namespace.Method; latency in ns, mean ± stddev (or median ± IQR), plus memory diagnoser measures',
  parse(output, settings) {
    const json = readJson(output, schema);
    if (!json) return null;
    const results = new ResultsBuilder();
    for (const benchmark of json.Benchmarks) {
      const name = benchmark.Namespace ? `${benchmark.Namespace}.${benchmark.Method}` : benchmark.Method;
      results.benchmark(name, measures(benchmark, settings.average === 'median'));
    }
    return results.build();
  },
});

function measures({ Statistics: s, Memory: memory }: Benchmark, median: boolean): [string, BmfMetric][] {
  const out: [string, BmfMetric][] = [
    ['latency', median ? spread(s.Median, s.InterquartileRange) : spread(s.Mean, s.StandardDeviation)],
  ];
  if (memory) {
    out.push(
      ['allocated', { value: memory.BytesAllocatedPerOperation }],
      ['gen0-collects', { value: memory.Gen0Collections }],
      ['gen1-collects', { value: memory.Gen1Collections }],
      ['gen2-collects', { value: memory.Gen2Collections }],
      ['total-operations', { value: memory.TotalOperations }],
    );
  }
  return out;
}
