import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { TIME_UNIT, decimal, lines, nanos } from './shared/text.js';

// `[ 35.00%] ··· <name> <value>±<range><unit>`; failed rows and non-time rows (memory, `2.42k`) do not fit.
const LINE = new RegExp(
  `^\\[[ \\t]*([0-9.,]+)%\\][ \\t]+·+[ \\t]+([^ ]+)[ \\t]+([0-9.,]+)±([0-9.,]+)(${TIME_UNIT})$`,
);

/** airspeed velocity (`asv run`) console output. */
export default defineAdapter({
  id: 'python_asv',
  description: 'airspeed velocity (Python)',
  reads:
    'asv run text: "[ 35.00%] ··· benchmarks.TimeSuite.time_keys  11.1±0.01μs"; latency in ns, ± range as bounds',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'median')) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      if (!line.startsWith('[')) continue;
      const m = LINE.exec(line);
      if (!m || decimal(m[1] as string) === null) continue;
      const value = decimal(m[3] as string);
      const range = decimal(m[4] as string);
      if (value === null || range === null) continue;
      const unit = m[5] as string;
      results.metric(m[2] as string, 'latency', spread(nanos(value, unit), nanos(range, unit)));
    }
    return results.build();
  },
});
