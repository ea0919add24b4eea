import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder } from './shared/results.js';
import { TIME_UNIT, decimal, lines, nanos, splitAtSuffix } from './shared/text.js';

const DURATION = `([0-9.,]+)[ \\t]+(${TIME_UNIT})`;
// `<name> time: [<low> <unit> <estimate> <unit> <high> <unit>]` at the end of the line.
const SUFFIX = new RegExp(`[ \\t]+time:[ \\t]+\\[${DURATION}[ \\t]+${DURATION}[ \\t]+${DURATION}\\]$`, 'y');

/** Criterion.rs console output. */
export default defineAdapter({
  id: 'rust_criterion',
  description: 'Criterion.rs benchmarks (Rust)',
  reads:
    'Criterion console text: "name  time: [1.2 µs 1.3 µs 1.4 µs]"; latency in ns, estimate with the confidence interval as bounds',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const results = new ResultsBuilder();
    let previous: string | undefined;
    for (const line of lines(output)) {
      const found = line.includes('time:') ? splitAtSuffix(line, SUFFIX) : null;
      // A name too long for its column is printed alone, and the `time:` line below it starts with spaces.
      const name = found && found.name === '' ? previous : found?.name;
      if (found && name !== undefined) {
        const [low, mid, high] = [1, 3, 5].map((i) => duration(found.match, i));
        if (low !== undefined && mid !== undefined && high !== undefined) {
          results.metric(name, 'latency', { value: mid, lower_value: low, upper_value: high });
        }
      }
      previous = line;
    }
    return results.build();
  },
});

function duration(match: RegExpExecArray, index: number): number | undefined {
  const value = decimal(match[index] as string);
  return value === null ? undefined : nanos(value, match[index + 1] as string);
}
