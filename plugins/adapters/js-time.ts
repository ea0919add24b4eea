import { defineAdapter } from '../../core/index.js';
import { ResultsBuilder } from './shared/results.js';
import { TIME_UNIT, integer, lines, nanos, splitAtSuffix } from './shared/text.js';

// `<name>: <int><unit> - timer ended`; the name may itself contain ": " (the first fitting colon wins).
const SUFFIX = new RegExp(`:[ \\t]+([0-9,]+)(${TIME_UNIT})[ \\t]+-[ \\t]+timer[ \\t]+ended$`, 'y');

/** `console.time` / `console.timeEnd` output. */
export default defineAdapter({
  id: 'js_time',
  description: 'console.time / console.timeEnd (JavaScript)',
  reads: 'console.time text: "name: 7617ms - timer ended"; latency in ns',
  parse(output, settings) {
    // A single timer reading; there is nothing to average.
    if (settings.average !== undefined) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      if (!line.endsWith('ended')) continue;
      const found = splitAtSuffix(line, SUFFIX, ':');
      if (!found || found.name === '') continue;
      const value = integer(found.match[1] as string);
      if (value === null) continue;
      results.metric(found.name, 'latency', { value: nanos(value, found.match[2] as string) });
    }
    return results.build();
  },
});
