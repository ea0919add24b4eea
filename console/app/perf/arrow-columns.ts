import { tableFromIPC, type Data, type Table, type Vector } from 'apache-arrow';
import type { PlotPoint, SeriesColumns, SeriesInfo } from './columns.js';

/** Schema metadata key of the series' JSON (core/perf/arrow.ts: ARROW_SERIES_KEY). */
const SERIES_KEY = 'benchtrack.series';

/** Whether row `i` of a column chunk holds a value (Arrow's validity bitmap; no bitmap: every row does). */
function valid(data: Data, i: number): boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || !bitmap || bitmap.length === 0) return true;
  const bit = data.offset + i;
  return ((bitmap[bit >> 3] ?? 0) & (1 << (bit & 7))) !== 0;
}

/**
 * A float column with its nulls as NaN, copied chunk by chunk with the validity bitmap read directly (asking the
 * vector row by row cost more than the copy).
 */
function floats(vector: Vector | null): Float64Array {
  const out = new Float64Array(vector?.length ?? 0);
  let at = 0;
  for (const data of vector?.data ?? []) {
    out.set((data.values as Float64Array).subarray(0, data.length), at);
    for (let i = 0; data.nullCount > 0 && i < data.length; i++) if (!valid(data, i)) out[at + i] = NaN;
    at += data.length;
  }
  return out;
}

function ints(vector: Vector | null): Int32Array {
  return vector ? Int32Array.from(vector.toArray() as ArrayLike<number>) : new Int32Array(0);
}

/**
 * Epoch milliseconds of a timestamp column, from the two 32-bit words of each 64-bit value (a BigInt per value
 * cost most of the column's decoding).
 */
function times(vector: Vector | null): Float64Array {
  const out = new Float64Array(vector?.length ?? 0);
  let at = 0;
  for (const data of vector?.data ?? []) {
    const values = data.values as BigInt64Array;
    const words = new Int32Array(values.buffer, values.byteOffset, 2 * data.length);
    for (let i = 0; i < data.length; i++)
      out[at + i] = (words[2 * i]! >>> 0) + words[2 * i + 1]! * 4_294_967_296;
    at += data.length;
  }
  return out;
}

/**
 * A dictionary-encoded text column read one row at a time: each dictionary entry is decoded once, on first use
 * (asking the vector decodes the UTF-8 again on every call).
 */
function texts(table: Table, name: string): (row: number) => string | null {
  const vector = table.getChild(name);
  const [data, ...more] = vector?.data ?? [];
  if (!vector || !data?.dictionary || more.length > 0) {
    return (row) => (vector?.get(row) as string | null | undefined) ?? null;
  }
  const dictionary = data.dictionary;
  const indices = data.values as Int32Array;
  const decoded: (string | undefined)[] = [];
  return (row) => {
    if (!valid(data, row)) return null;
    const k = indices[row]!;
    return (decoded[k] ??= dictionary.get(k) as string);
  };
}

/**
 * The Arrow answer of the perf query (core/perf/arrow.ts) as columns per series: one decode of typed arrays, no
 * object per point. Rows of one series are consecutive and oldest first, as the API writes them.
 */
export function arrowColumns(bytes: Uint8Array): SeriesColumns[] {
  const table = tableFromIPC(bytes);
  const infos = JSON.parse(table.schema.metadata.get(SERIES_KEY) ?? '[]') as SeriesInfo[];
  const series = ints(table.getChild('series'));
  const start = times(table.getChild('start_time'));
  const end = times(table.getChild('end_time'));
  const version = ints(table.getChild('version'));
  const iteration = ints(table.getChild('iteration'));
  const value = floats(table.getChild('value'));
  const lower = floats(table.getChild('lower_value'));
  const upper = floats(table.getChild('upper_value'));
  const baseline = floats(table.getChild('baseline'));
  const lowerLimit = floats(table.getChild('lower_limit'));
  const upperLimit = floats(table.getChild('upper_limit'));
  const report = texts(table, 'report');
  const hash = texts(table, 'hash');
  const metric = texts(table, 'metric');
  const alertLimit = texts(table, 'alert_limit');
  const alertStatus = texts(table, 'alert_status');
  const num = (v: number) => (Number.isNaN(v) ? null : v);

  const out: SeriesColumns[] = [];
  for (let from = 0; from < series.length;) {
    let to = from + 1;
    while (to < series.length && series[to] === series[from]) to++;
    const at = from;
    const point = (i: number): PlotPoint => {
      const row = at + i;
      const limit = alertLimit(row);
      const status = alertStatus(row);
      return {
        report: report(row)!,
        iteration: iteration[row]!,
        start_time: new Date(start[row]!).toISOString(),
        end_time: new Date(end[row]!).toISOString(),
        version: { number: version[row]!, hash: hash(row) },
        metric: {
          uuid: metric(row)!,
          value: value[row]!,
          lower_value: num(lower[row]!),
          upper_value: num(upper[row]!),
        },
        boundary: [baseline, lowerLimit, upperLimit].every((column) => Number.isNaN(column[row]!))
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
