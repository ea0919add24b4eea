import { defineAdapter } from '../../kit/index.js';
import { acceptsAverage } from './shared/average.js';
import { ResultsBuilder, spread } from './shared/results.js';
import { TIME_UNIT, decimal, integer, lines, nanos, splitAtSuffix } from './shared/text.js';

const PAGE_BREAK = '-'.repeat(79);
const DURATION = `([0-9.,]+)[ \\t]+(${TIME_UNIT})`;
// `<benchmark name> <samples> <iterations> <estimated> <unit>`
const PRELUDE = new RegExp(
  `[ \\t]+([0-9,]+)[ \\t]+([0-9,]+)[ \\t]+([0-9.,]+)[ \\t]+${TIME_UNIT}[ \\t]*$`,
  'y',
);
// `[name continued] <mean> <low mean> <high mean>` and the same shape for the standard deviation.
const TRIPLE = new RegExp(`[ \\t]+${DURATION}[ \\t]+${DURATION}[ \\t]+${DURATION}[ \\t]*$`, 'y');
// `--benchmark-no-analysis`: a table of `<benchmark name> <samples> <iterations> <mean> <unit>` rows.
const NO_ANALYSIS_HEADER = /^benchmark name[ \t]+samples[ \t]+iterations[ \t]+mean[ \t]*$/;
const NO_ANALYSIS_ROW = new RegExp(`[ \\t]+([0-9,]+)[ \\t]+([0-9,]+)[ \\t]+${DURATION}[ \\t]*$`, 'y');

/**
 * Catch2 v2 console reporter output. Results are named `Test Case: Benchmark Name` (spec); the test case is
 * the text between two 79-dash lines (up to three lines, joined by spaces), and a benchmark name may wrap
 * onto its mean and standard-deviation lines.
 */
export default defineAdapter({
  id: 'cpp_catch2',
  description: 'Catch2 benchmarks (C++)',
  reads:
    'Catch2 console text (benchmark name / samples / mean / std dev rows, or --benchmark-no-analysis rows); named "Test Case: Benchmark", latency = mean ± std dev (no bounds without analysis) in ns',
  parse(output, settings) {
    if (!acceptsAverage(settings, 'mean')) return null;
    const results = new ResultsBuilder();
    const all = lines(output);
    let testCase: string | undefined;
    // A sliding window of five lines, like the reference (so the last four lines never start a window).
    for (let i = 0; i + 5 <= all.length; i++) {
      const caseName = testCaseAt(all, i);
      if (caseName !== undefined) {
        testCase = caseName;
        continue;
      }
      if (testCase === undefined) continue;
      const found = benchmarkAt(all, i, testCase);
      if (found) results.metric(found.name, 'latency', found.metric);
    }
    readNoAnalysis(all, results);
    return results.build();
  },
});

function testCaseAt(all: readonly string[], i: number): string | undefined {
  if (all[i] !== PAGE_BREAK) return undefined;
  let name = (all[i + 1] as string).trim();
  for (let k = i + 2; k <= i + 4; k++) {
    const line = all[k] as string;
    if (line === PAGE_BREAK) return name;
    name += ` ${line.trim()}`;
  }
  return undefined;
}

function benchmarkAt(all: readonly string[], i: number, testCase: string) {
  const prelude = all[i] as string;
  const head = splitAtSuffix(prelude, PRELUDE);
  if (!head || integer(head.match[1] as string) === null || integer(head.match[2] as string) === null)
    return null;
  if (decimal(head.match[3] as string) === null) return null;
  const mean = triple(all[i + 1] as string);
  const deviation = mean && triple(all[i + 2] as string);
  if (!mean || !deviation) return null;
  let name = `${testCase}: ${head.name}`;
  if (mean.name) name += ` ${mean.name}`;
  if (deviation.name) name += ` ${deviation.name}`;
  return { name, metric: spread(mean.first, deviation.first) };
}

/** The first of three durations (in ns) and any name text before them. */
function triple(line: string): { name: string; first: number } | null {
  const found = splitAtSuffix(line, TRIPLE);
  if (!found) return null;
  const values = [1, 3, 5].map((k) => decimal(found.match[k] as string));
  if (values.some((v) => v === null)) return null;
  return { name: found.name, first: nanos(values[0] as number, found.match[2] as string) };
}

/**
 * `--benchmark-no-analysis` tables: one row per benchmark with its mean, no standard deviation. A name too
 * long for its column wraps: the lines before the row that carries the numbers are its beginning.
 */
function readNoAnalysis(all: readonly string[], results: ResultsBuilder): void {
  if (!all.some((line) => NO_ANALYSIS_HEADER.test(line))) return;
  let testCase: string | undefined;
  let state: 'none' | 'rule' | 'rows' = 'none';
  let wrapped: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    if (state === 'rule') {
      state = line === PAGE_BREAK ? 'rows' : 'none';
      continue;
    }
    if (state === 'rows') {
      if (line.trim() === '' || line === PAGE_BREAK) {
        state = 'none';
        wrapped = [];
      } else {
        wrapped = readNoAnalysisRow(line, wrapped, testCase, results);
        continue;
      }
    }
    if (NO_ANALYSIS_HEADER.test(line)) state = 'rule';
    else if (i + 5 <= all.length) testCase = testCaseAt(all, i) ?? testCase;
  }
}

/** Reads one row (or the beginning of a wrapped name); returns the name lines still waiting for their row. */
function readNoAnalysisRow(
  line: string,
  wrapped: string[],
  testCase: string | undefined,
  results: ResultsBuilder,
): string[] {
  const row = splitAtSuffix(line, NO_ANALYSIS_ROW);
  if (!row) return [...wrapped, line.trim()];
  const mean = decimal(row.match[3] as string);
  const counts = integer(row.match[1] as string) !== null && integer(row.match[2] as string) !== null;
  if (testCase !== undefined && mean !== null && counts) {
    const name = [...wrapped, row.name.trim()].join(' ');
    results.metric(`${testCase}: ${name}`, 'latency', { value: nanos(mean, row.match[4] as string) });
  }
  return [];
}
