// @ts-check
// A third-party Benchtrack adapter, written only against `benchtrack/plugin-kit`. It reads newline-delimited
// JSON, one measurement a line, as a home-grown harness can stream it:
//
//   {"benchmark": "sort/1000", "measure": "latency", "value": 1532, "lower": 1490, "upper": 1601}
//
// `measure` defaults to "latency"; `lower` and `upper` are optional. Lines that are not JSON objects (a
// harness's log output between results) are skipped; a line that is an object but not a measurement makes the
// whole output unreadable (null, "no benchmarks found"), so a typo is never stored as a partial report.
import { defineAdapter, setOwn } from 'benchtrack/plugin-kit';

/** @param {unknown} value */
const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * @param {Record<string, unknown>} line
 * @returns {{ benchmark: string, measure: string, metric: import('benchtrack/plugin-kit').BmfMetric } | null}
 */
function measurementOf(line) {
  const { benchmark, measure = 'latency', value, lower, upper } = line;
  if (typeof benchmark !== 'string' || benchmark.trim() === '') return null;
  if (typeof measure !== 'string' || measure.trim() === '' || !isNumber(value)) return null;
  if ((lower !== undefined && !isNumber(lower)) || (upper !== undefined && !isNumber(upper))) return null;
  /** @type {import('benchtrack/plugin-kit').BmfMetric} */
  const metric = {
    value: /** @type {number} */ (value),
    ...(lower === undefined ? {} : { lower_value: /** @type {number} */ (lower) }),
    ...(upper === undefined ? {} : { upper_value: /** @type {number} */ (upper) }),
  };
  return { benchmark, measure, metric };
}

/** @param {string} text */
function parseLine(text) {
  // only what can be an object is parsed: a thrown SyntaxError per line of log output is slow (2 M lines of "{":
  // 12 s), and the contract suite's long-line case holds adapters to linear time
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export default defineAdapter({
  id: 'ndjson',
  description:
    'Newline-delimited JSON results: {"benchmark", "measure", "value", "lower"?, "upper"?} a line.',
  reads: 'newline-delimited JSON, one {"benchmark","measure","value"} object a line',
  parse(output, settings) {
    // every value is one measurement: there is no mean or median to choose
    if (settings.average !== undefined) return null;
    /** @type {import('benchtrack/plugin-kit').Bmf} */
    const bmf = {};
    for (const raw of output.split('\n')) {
      const line = parseLine(raw.trim());
      if (line === undefined) continue;
      const found = measurementOf(line);
      if (found === null) return null;
      const measures = Object.hasOwn(bmf, found.benchmark) ? bmf[found.benchmark] : undefined;
      if (measures === undefined) setOwn(bmf, found.benchmark, { [found.measure]: found.metric });
      else setOwn(measures, found.measure, found.metric);
    }
    return Object.keys(bmf).length > 0 ? bmf : null;
  },
});
