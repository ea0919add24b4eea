import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { ResultsBuilder } from './shared/results.js';
import { decimal, integer, lines } from './shared/text.js';

/** The five metric lines that follow a benchmark name, in order, with their measure slugs. */
const METRICS = [
  ['Instructions', 'instructions'],
  ['L1 Accesses', 'l1-accesses'],
  ['L2 Accesses', 'l2-accesses'],
  ['RAM Accesses', 'ram-accesses'],
  ['Estimated Cycles', 'estimated-cycles'],
] as const;

const METRIC_LINES = METRICS.map(
  ([label]) =>
    new RegExp(`^[ \\t]*${label}:[ \\t]+([0-9,]+)(?:[ \\t]+\\((?:No change|[+-]([0-9.,]+)%)\\))?$`),
);

/** iai (Callgrind-based) benchmarks: a name line followed by exactly these five metric lines. */
export default defineAdapter({
  id: 'rust_iai',
  aliases: ['iai'],
  description: 'iai benchmarks (Rust, Callgrind)',
  reads:
    'iai text: a name line, then Instructions / L1 Accesses / L2 Accesses / RAM Accesses / Estimated Cycles lines',
  parse(output, settings) {
    // iai reports one run; there is nothing to average.
    if (settings.average !== undefined) return null;
    const results = new ResultsBuilder();
    const all = lines(output);
    // A sliding window of six lines, like the reference: the name line is any line before the five metrics.
    for (let i = 0; i + METRICS.length < all.length; i++) {
      if (!all[i + 1]?.includes('Instructions:')) continue;
      const measures = metricLines(all, i + 1);
      if (measures) results.benchmark(all[i] as string, measures);
    }
    return results.build();
  },
});

function metricLines(all: readonly string[], start: number): [string, BmfMetric][] | null {
  const measures: [string, BmfMetric][] = [];
  for (let k = 0; k < METRICS.length; k++) {
    const m = (METRIC_LINES[k] as RegExp).exec(all[start + k] as string);
    if (!m) return null;
    const value = integer(m[1] as string);
    if (value === null || (m[2] !== undefined && decimal(m[2]) === null)) return null;
    measures.push([(METRICS[k] as readonly [string, string])[1], { value }]);
  }
  return measures;
}
