import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder } from './shared/results.js';
import { decimal, lines, nanos } from './shared/text.js';

const MARK = '(RunTime):';
const VALUE = /^[ \t]*([0-9.,]+)[ \t]+us\.[ \t]*$/;

/** Dart `benchmark_harness` (PrintEmitter) output. */
export default defineAdapter({
  id: 'dart_benchmark_harness',
  description: 'Dart benchmark_harness',
  reads: 'benchmark_harness text: "Template(RunTime): 1.0 us."; latency in ns',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      const at = line.indexOf(MARK);
      if (at === -1) continue;
      const m = VALUE.exec(line.slice(at + MARK.length));
      const micros = m ? decimal(m[1] as string) : null;
      if (micros === null) continue;
      results.metric(line.slice(0, at).trim(), 'latency', { value: nanos(micros, 'us') });
    }
    return results.build();
  },
});
