import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { TIME_UNIT, decimal, lines, nanos } from './shared/text.js';

// `test <name> ... bench: <n> <unit>/iter (+/- <n>)`, the whole line; the name ends at the first space
// (so Criterion's "bencher" output, whose names may contain spaces, is not accepted, as in the reference).
const LINE = new RegExp(
  `^test[ \\t]+([^ ]+)(?= )[ \\t]+\\.\\.\\.[ \\t]+bench:[ \\t]+([0-9.,]+)[ \\t]+(${TIME_UNIT})/iter[ \\t]+\\(\\+/-[ \\t]+([0-9.,]+)\\)$`,
);

/** Rust libtest `cargo bench` output. */
export default defineAdapter({
  id: 'rust_bench',
  description: 'Rust libtest benchmarks (cargo bench)',
  reads:
    'cargo bench (libtest) text: "test name ... bench: 3,161 ns/iter (+/- 975)"; latency in ns, median ± deviation',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'median')) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      if (!line.startsWith('test')) continue;
      const m = LINE.exec(line);
      if (!m) continue;
      const value = decimal(m[2] as string);
      const deviation = decimal(m[4] as string);
      if (value === null || deviation === null) continue;
      const unit = m[3] as string;
      results.metric(m[1] as string, 'latency', spread(nanos(value, unit), nanos(deviation, unit)));
    }
    return results.build();
  },
});
