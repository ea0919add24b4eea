import type { Bmf, BmfMetric } from '../../../kit/index.js';
import { ResultsBuilder, spread } from './results.js';
import { decimal, integer, nanos, splitAtSuffix, terminalLines } from './text.js';

const HEADER = /^Benchmark[ \t]+Time[ \t]+CPU[ \t]+Iterations\b/;
// `<name>  <time> <unit>  <cpu> <unit>  <iterations>[ <counters>]`; `%` is the unit of the `_cv` rows.
const ROW = /[ \t]+([0-9.]+) (ns|us|ms|s|%)[ \t]+[0-9.]+ (?:ns|us|ms|s|%)[ \t]+([0-9]+)(?:[ \t]+(.*))?$/y;
// `items_per_second=558.777M/s`, `wakeups=3.02k`; `Ki`, `Mi`, ... are powers of 1024 (benchmark >= 1.8).
const COUNTER = /^([^=\s]+)=([0-9.]+)(Ki|[kMGTPE]i?|[munpfa])?(?:\/s)?$/;
const AGGREGATES = ['mean', 'median', 'stddev', 'cv'];
const BIG = 'kMGTPE';
const SMALL = 'munpfa';

interface Row {
  readonly name: string;
  /** Real time in ns; `null` on percentage rows (`_cv`). */
  readonly time: number | null;
  readonly counters: [string, BmfMetric][];
}

/**
 * Google Benchmark's console reporter (the stderr context header may come first). Rows after the
 * `Benchmark Time CPU Iterations` header; latency = real time in ns, user counters as measures named by the
 * counter. A run with `_mean` and `_stddev` aggregate rows is reported once, under its run name, as the mean
 * ± the stddev with the mean row's counters; its repetitions and its `_median` and `_cv` rows are not
 * reported separately (the same reading as the JSON output).
 */
export function parseGoogleConsole(output: string): Bmf | null {
  // Most output magic tries is not this table: one scan for the header word instead of splitting lines.
  if (!output.includes('Iterations')) return null;
  const rows = readRows(terminalLines(output));
  const names = new Set(rows.map((r) => r.name));
  const runs = new Set(
    rows.filter((r) => r.name.endsWith('_mean')).map((r) => r.name.slice(0, -'_mean'.length)),
  );
  for (const run of runs) if (!names.has(`${run}_stddev`)) runs.delete(run);
  const stddev = new Map(rows.filter((r) => r.name.endsWith('_stddev')).map((r) => [r.name, r.time]));
  const results = new ResultsBuilder();
  for (const row of rows) {
    if (row.time === null || runs.has(row.name)) continue;
    const cut = row.name.lastIndexOf('_');
    const run = row.name.slice(0, cut);
    if (cut > 0 && runs.has(run) && AGGREGATES.includes(row.name.slice(cut + 1))) {
      if (row.name.endsWith('_mean')) {
        const delta = stddev.get(`${run}_stddev`);
        const metric = delta == null ? { value: row.time } : spread(row.time, delta);
        results.benchmark(run, [['latency', metric], ...row.counters]);
      }
      continue;
    }
    results.benchmark(row.name, [['latency', { value: row.time }], ...row.counters]);
  }
  return results.build();
}

function readRows(all: readonly string[]): Row[] {
  const rows: Row[] = [];
  let table = false;
  for (const line of all) {
    if (!table) {
      table = HEADER.test(line);
      continue;
    }
    const found = splitAtSuffix(line, ROW);
    if (!found || found.name === '' || integer(found.match[3] as string) === null) continue;
    const time = decimal(found.match[1] as string);
    if (time === null) continue;
    const unit = found.match[2] as string;
    rows.push({
      name: found.name,
      time: unit === '%' ? null : nanos(time, unit),
      counters: counters(found.match[4] ?? ''),
    });
  }
  return rows;
}

function counters(tail: string): [string, BmfMetric][] {
  const out: [string, BmfMetric][] = [];
  for (const token of tail.split(/[ \t]+/)) {
    const m = COUNTER.exec(token);
    const value = m ? decimal(m[2] as string) : null;
    if (!m || value === null || m[1] === 'latency') continue;
    out.push([m[1] as string, { value: value * scale(m[1] as string, m[3]) }]);
  }
  return out;
}

/**
 * The multiplier of a human-readable suffix. Before benchmark 1.8 the 1024-based `bytes_per_second` was
 * printed with `k`, `M`, `G` (no `i`), so for that counter those are powers of 1024 too.
 */
function scale(counter: string, suffix: string | undefined): number {
  if (suffix === undefined) return 1;
  const small = SMALL.indexOf(suffix);
  if (small !== -1) return 1000 ** -(small + 1);
  const power = BIG.indexOf(suffix === 'Ki' ? 'k' : (suffix[0] as string)) + 1;
  const binary = suffix.endsWith('i') || counter === 'bytes_per_second';
  return (binary ? 1024 : 1000) ** power;
}
