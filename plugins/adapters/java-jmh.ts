import { z } from 'zod';
import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { readJson } from './shared/json-input.js';
import { ResultsBuilder } from './shared/results.js';
import { isTimeUnit, nanos, perSecond } from './shared/text.js';

const schema = z.array(
  z.object({
    benchmark: z.string(),
    params: z.record(z.string(), z.unknown()).nullable().optional(),
    primaryMetric: z.object({
      score: z.number(),
      scoreConfidence: z.tuple([z.number(), z.number()]),
      scoreUnit: z.string(),
    }),
    secondaryMetrics: z.record(z.string(), z.unknown()),
  }),
);

/**
 * JMH `-rf json` output. `x/op` scores are latency (ns), `ops/x` scores throughput (ops/s), with the score
 * confidence interval as bounds; any other unit rejects the whole file, as in the reference. Unlike the
 * reference, `params` are part of the name (`Bench.method (size=10, mode=fast)`), so parameterized runs of
 * one method do not overwrite each other.
 */
export default defineAdapter({
  id: 'java_jmh',
  description: 'JMH (Java Microbenchmark Harness)',
  reads:
    'JMH -rf json: named benchmark (params); x/op scores as latency in ns, ops/x as throughput in ops/s, confidence interval as bounds',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const json = readJson(output, schema);
    if (!json) return null;
    const results = new ResultsBuilder();
    for (const run of json) {
      const measure = convert(run.primaryMetric);
      if (!measure) return null;
      results.metric(nameOf(run.benchmark, run.params), measure[0], measure[1]);
    }
    return results.build();
  },
});

type Primary = { score: number; scoreConfidence: [number, number]; scoreUnit: string };

function convert({ score, scoreConfidence: [low, high], scoreUnit }: Primary): [string, BmfMetric] | null {
  if (scoreUnit.endsWith('/op')) {
    const unit = scoreUnit.slice(0, -3);
    if (!isTimeUnit(unit)) return null;
    return [
      'latency',
      { value: nanos(score, unit), lower_value: nanos(low, unit), upper_value: nanos(high, unit) },
    ];
  }
  if (scoreUnit.startsWith('ops/')) {
    const unit = scoreUnit.slice(4);
    if (!isTimeUnit(unit)) return null;
    return [
      'throughput',
      {
        value: perSecond(score, unit),
        lower_value: perSecond(low, unit),
        upper_value: perSecond(high, unit),
      },
    ];
  }
  return null;
}

function nameOf(benchmark: string, params: Record<string, unknown> | null | undefined): string {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return benchmark;
  const text = entries.map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return `${benchmark} (${text.join(', ')})`;
}
