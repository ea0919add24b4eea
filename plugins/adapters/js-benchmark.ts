import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { decimal, integer, lines, splitAtSuffix } from './shared/text.js';

// `<name> x <ops> ops/sec ±<pct>% (<n> runs sampled)`; the name is the text before the first place this fits.
const SUFFIX =
  /[ \t]+x[ \t]+([0-9.,]+)[ \t]+ops\/sec[ \t]+±([0-9.,]+)%[ \t]+\(([0-9,]+)[ \t]+runs[ \t]+sampled\)$/y;

/** benchmark.js console output. */
export default defineAdapter({
  id: 'js_benchmark',
  description: 'benchmark.js (JavaScript)',
  reads:
    'benchmark.js text: "fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)"; throughput in ops/s, ± percent as bounds',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'median')) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      if (!line.endsWith('sampled)')) continue;
      const found = splitAtSuffix(line, SUFFIX);
      if (!found || found.name === '') continue;
      const ops = decimal(found.match[1] as string);
      const percent = decimal(found.match[2] as string);
      if (ops === null || percent === null || integer(found.match[3] as string) === null) continue;
      // ops/sec is already per second; the error is a percentage of the value, as benchmark.js prints it.
      results.metric(found.name, 'throughput', spread(ops, ops * (percent / 100)));
    }
    return results.build();
  },
});
