import { defineAdapter } from '../../kit/index.js';
import { ResultsBuilder } from './shared/results.js';
import { TIME_UNIT, decimal, integer, lines, nanos, splitAtSuffix } from './shared/text.js';

// Browsers: `<name>: <int><unit> - timer ended`; the name may itself contain ": " (the first fitting colon wins).
const BROWSER = new RegExp(`:[ \\t]+([0-9,]+)(${TIME_UNIT})[ \\t]+-[ \\t]+timer[ \\t]+ended$`, 'y');
// Node: `1.853ms`, `1.234s`, `1:02.345 (m:ss.mmm)` or `1:02:03.456 (h:mm:ss.mmm)` after `<name>: `.
const NODE_TIME = '(?:([0-9.]+)(ms|s)|(?:([0-9]+):)?([0-9]+):([0-9]{2}\\.[0-9]{3}) \\((?:h:m)?m:ss\\.mmm\\))';
// The name is everything before the first `: ` the reading fits after (lazy, so the first fitting colon).
const NODE_END = new RegExp(`^(.+?): ${NODE_TIME}$`);
// `console.timeLog(label, ...data)` prints the data after the time.
const NODE_LOG = new RegExp(`^(.+?): ${NODE_TIME} `);

/** `console.time` / `console.timeEnd` / `console.timeLog` output, from browsers or Node. */
export default defineAdapter({
  id: 'js_time',
  description: 'console.time / console.timeEnd (JavaScript)',
  reads:
    'console.time text: "name: 7617ms - timer ended" (browsers), "name: 1.853ms", "name: 1.234s", "name: 1:02.345 (m:ss.mmm)" and timeLog lines with data (Node); latency in ns, the last reading of a name wins',
  parse(output, settings) {
    // A single timer reading; there is nothing to average.
    if (settings.average !== undefined) return null;
    const results = new ResultsBuilder();
    for (const line of lines(output)) {
      const found = (line.endsWith('ended') && browser(line)) || node(line);
      if (found) results.metric(found.name, 'latency', { value: found.value });
    }
    return results.build();
  },
});

function browser(line: string): { name: string; value: number } | null {
  const found = splitAtSuffix(line, BROWSER, ':');
  if (!found || found.name === '') return null;
  const value = integer(found.match[1] as string);
  return value === null ? null : { name: found.name, value: nanos(value, found.match[2] as string) };
}

/** A line that ends with the time (timeEnd) is preferred to one read as time plus data (timeLog). */
function node(line: string): { name: string; value: number } | null {
  // Every Node reading has `: `; most lines of other output do not, and a string search is cheaper than a regex.
  if (!line.includes(': ')) return null;
  // A reading that ends the line ends in `ms`, `s` or `mmm)`; other lines skip that scan.
  const ends = line.endsWith('s') || line.endsWith(')');
  const m = (ends ? NODE_END.exec(line) : null) ?? NODE_LOG.exec(line);
  if (!m) return null;
  const name = m[1] as string;
  if (m[2] !== undefined) {
    const value = decimal(m[2]);
    return value === null ? null : { name, value: nanos(value, m[3] as string) };
  }
  // Hours and minutes, then seconds with milliseconds; converted from seconds in one multiplication.
  const seconds = Number(m[4] ?? 0) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  return { name, value: nanos(seconds, 's') };
}
