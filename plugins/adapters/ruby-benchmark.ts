import { defineAdapter } from '../../kit/index.js';
import { ResultsBuilder } from './shared/results.js';
import { decimal, lines, nanos, splitAtSuffix } from './shared/text.js';

const HEADER = /^[ \t]+user[ \t]+system[ \t]+total[ \t]+real$/;
// `<label> <user> <system> <total> ( <real>)`; the label may end in `:` or start with `>` (kept verbatim).
const SUFFIX = /[ \t]+([0-9.,]+)[ \t]+([0-9.,]+)[ \t]+([0-9.,]+)[ \t]+\([ \t]+([0-9.,]+)\)$/y;

/**
 * Ruby `Benchmark.bm` / `bmbm` output. Rows count only right after a `user system total real` header and a
 * row that does not fit ends the block, so `bmbm`'s rehearsal (which has no such header) is skipped.
 */
export default defineAdapter({
  id: 'ruby_benchmark',
  description: 'Ruby Benchmark.bm / bmbm',
  reads:
    'Ruby Benchmark text after a "user system total real" header: "sort!  1.46  0.00  1.46 (  1.460465)"; latency = real time in ns',
  parse(output, settings) {
    if (settings.average !== undefined) return null;
    const results = new ResultsBuilder();
    let inBlock = false;
    for (const line of lines(output)) {
      if (!inBlock) {
        inBlock = HEADER.test(line);
        continue;
      }
      const found = line.endsWith(')') ? splitAtSuffix(line, SUFFIX) : null;
      const real = found ? realTime(found.match) : null;
      if (found && real !== null && results.metric(found.name, 'latency', { value: nanos(real, 's') }))
        continue;
      inBlock = false;
    }
    return results.build();
  },
});

function realTime(match: RegExpExecArray): number | null {
  for (const i of [1, 2, 3]) if (decimal(match[i] as string) === null) return null;
  return decimal(match[4] as string);
}
