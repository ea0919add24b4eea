import { readArrowStream, type IpcColumn } from './arrow-ipc.js';
import type { PlotPoint, SeriesColumns, SeriesInfo } from './columns.js';

/** Schema metadata key of the series' JSON (core/perf/arrow.ts: ARROW_SERIES_KEY). */
const SERIES_KEY = 'benchtrack.series';

/** Whether row `i` of a column holds a value (no validity bitmap: every row does). */
function valid(column: IpcColumn, i: number): boolean {
  return !column.validity || ((column.validity[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
}

/** A float column with its nulls as NaN (a view of the answer's bytes when it has none). */
function floats(column: IpcColumn | undefined, length: number): Float64Array {
  if (!column) return new Float64Array(length).fill(NaN);
  const values = column.values as Float64Array;
  if (column.nullCount === 0) return values;
  const out = values.slice();
  for (let i = 0; i < out.length; i++) if (!valid(column, i)) out[i] = NaN;
  return out;
}

function ints(column: IpcColumn | undefined, length: number): Int32Array {
  if (!column) return new Int32Array(length);
  return column.values instanceof Int32Array ? column.values : Int32Array.from(column.values);
}

/** Epoch milliseconds of a timestamp column, from the two 32-bit words of each 64-bit value. */
function times(column: IpcColumn | undefined, length: number): Float64Array {
  const out = new Float64Array(length);
  if (!column) return out;
  const words = column.values as Int32Array;
  for (let i = 0; i < length; i++) out[i] = (words[2 * i]! >>> 0) + words[2 * i + 1]! * 4_294_967_296;
  return out;
}

/** A dictionary-encoded text column, row by row (each text was decoded once, with its dictionary). */
function texts(column: IpcColumn | undefined): (row: number) => string | null {
  if (!column?.dictionary) return () => null;
  const { dictionary } = column;
  const indices = column.values as Int32Array;
  return (row) => (valid(column, row) ? (dictionary[indices[row]!] ?? null) : null);
}

/**
 * The Arrow answer of the perf query (core/perf/arrow.ts; the explorer asks for `fields=plot`) as columns per
 * series: typed arrays over the answer's own bytes, no object per point. Rows of one series are consecutive and
 * oldest first, as the API writes them.
 */
export function arrowColumns(bytes: Uint8Array): SeriesColumns[] {
  const table = readArrowStream(bytes);
  const n = table.length;
  const column = (name: string) => table.columns.get(name);
  const infos = JSON.parse(table.metadata.get(SERIES_KEY) ?? '[]') as SeriesInfo[];
  const series = column('series')?.values ?? new Uint16Array(0);
  const start = times(column('start_time'), n);
  const version = ints(column('version'), n);
  const iteration = ints(column('iteration'), n);
  const value = floats(column('value'), n);
  const lower = floats(column('lower_value'), n);
  const upper = floats(column('upper_value'), n);
  const baseline = floats(column('baseline'), n);
  const lowerLimit = floats(column('lower_limit'), n);
  const upperLimit = floats(column('upper_limit'), n);
  const report = texts(column('report'));
  const hash = texts(column('hash'));
  const alertLimit = texts(column('alert_limit'));
  const alertStatus = texts(column('alert_status'));
  const num = (v: number) => (Number.isNaN(v) ? null : v);

  const out: SeriesColumns[] = [];
  for (let from = 0; from < n;) {
    let to = from + 1;
    while (to < n && series[to] === series[from]) to++;
    const at = from;
    const point = (i: number): PlotPoint => {
      const row = at + i;
      const limit = alertLimit(row);
      const status = alertStatus(row);
      return {
        report: report(row)!,
        iteration: iteration[row]!,
        start_time: new Date(start[row]!).toISOString(),
        version: { number: version[row]!, hash: hash(row) },
        metric: { value: value[row]!, lower_value: num(lower[row]!), upper_value: num(upper[row]!) },
        boundary: [baseline, lowerLimit, upperLimit].every((c) => Number.isNaN(c[row]!))
          ? null
          : {
              baseline: baseline[row]!,
              lower_limit: num(lowerLimit[row]!),
              upper_limit: num(upperLimit[row]!),
            },
        alert: limit && status ? ({ limit, status } as PlotPoint['alert']) : null,
      };
    };
    out.push({
      ...infos[series[from]!]!,
      length: to - from,
      start: start.subarray(from, to),
      version: version.subarray(from, to),
      iteration: iteration.subarray(from, to),
      value: value.subarray(from, to),
      lowerLimit: lowerLimit.subarray(from, to),
      upperLimit: upperLimit.subarray(from, to),
      alert: (i) => alertStatus(at + i),
      report: (i) => report(at + i)!,
      point,
    });
    from = to;
  }
  return out;
}
