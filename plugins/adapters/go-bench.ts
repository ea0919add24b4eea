import { defineAdapter, type BmfMetric } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { goTestJsonText } from './shared/go-test-json.js';
import { ResultsBuilder } from './shared/results.js';
import { TIME_UNIT, decimal, integer, lines, nanos } from './shared/text.js';

// `<name> <iterations> <value> <unit>/op [<value> <unit> ...]`; the name is the first token, `-8` included.
const LINE = new RegExp(
  `^([^ \\t]+)[ \\t]+([0-9,]+)[ \\t]+([0-9.,]+)[ \\t]+(${TIME_UNIT})/op((?:[ \\t]+[0-9.,]+[ \\t]+.*)?)$`,
);

/**
 * `go test -bench` output, as text or as `go test -json` events. Beyond the reference (which keeps only the time), the other columns become
 * measures named by their unit: `-benchmem`'s `B/op` and `allocs/op`, `MB/s` from `b.SetBytes`, and any
 * `b.ReportMetric` unit. Lines the reference rejects are still rejected.
 */
export default defineAdapter({
  id: 'go_bench',
  description: 'Go testing benchmarks (go test -bench)',
  reads:
    'go test -bench text or go test -json: "BenchmarkFib10-8  5000000  325 ns/op  0 B/op  0 allocs/op"; latency in ns plus one measure per extra column (B/op, allocs/op, MB/s, ReportMetric units)',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const results = new ResultsBuilder();
    for (const line of lines(goTestJsonText(output) ?? output)) {
      const m = LINE.exec(line);
      if (!m || integer(m[2] as string) === null) continue;
      const value = decimal(m[3] as string);
      if (value === null) continue;
      const measures: [string, BmfMetric][] = [['latency', { value: nanos(value, m[4] as string) }]];
      results.benchmark(m[1] as string, [...measures, ...extraColumns(m[5] as string)]);
    }
    return results.build();
  },
});

/** The `<value> <unit>` pairs after the time column, until one is not a number. */
function extraColumns(tail: string): [string, BmfMetric][] {
  const tokens = tail.trim().split(/[ \t]+/);
  const out: [string, BmfMetric][] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const value = decimal(tokens[i] as string);
    if (value === null) break;
    const unit = tokens[i + 1] as string;
    // A column named like the built-in measure would silently replace the time.
    if (unit !== 'latency') out.push([unit, { value }]);
  }
  return out;
}
