import {
  Dictionary,
  Float64,
  Int32,
  makeData,
  makeVector,
  Schema,
  Table,
  tableToIPC,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
  type Vector,
} from 'apache-arrow';
import { uuidAt, type PerfShapeInput } from './shape.js';

/** Schema metadata key of the series' JSON (branch, testbed, benchmark, measure), indexed by the `series` column. */
export const ARROW_SERIES_KEY = 'benchtrack.series';

/**
 * The perf answer as an Arrow IPC stream, for notebooks (pyarrow, polars, DuckDB read it directly) and the
 * console's explorer: one row per point, timestamps as milliseconds, absent numbers as nulls. Repeated texts
 * (names, reports, hashes, alert words) are dictionary-encoded, so 255 series of the same 100 reports carry each
 * report's UUID once. `series` indexes the JSON array in the schema's `benchtrack.series` metadata, which holds
 * each series' branch, testbed, benchmark and measure as the JSON answer writes them.
 */
export function perfArrow(input: PerfShapeInput): Uint8Array {
  const c = input.columns;
  const n = c.count;
  const name = (k: number) => (i: number) => input.names[c.permutation[i] as number]?.[k] ?? null;
  const times = (ms: Float64Array) =>
    makeVector(
      makeData({
        type: new TimestampMillisecond(),
        length: n,
        data: BigInt64Array.from(ms.subarray(0, n), BigInt),
      }),
    );
  const table = new Table({
    series: makeVector(Uint16Array.from(c.permutation.subarray(0, n))),
    branch: dictionaryOf(n, name(0)),
    testbed: dictionaryOf(n, name(1)),
    benchmark: dictionaryOf(n, name(2)),
    measure: dictionaryOf(n, name(3)),
    report: dictionaryOf(n, (i) => uuidAt(c.report, n, i)),
    iteration: makeVector(c.iteration.slice(0, n)),
    start_time: times(c.start),
    end_time: times(c.end),
    version: makeVector(c.version.slice(0, n)),
    hash: dictionaryOf(n, (i) => c.hash[i] ?? null),
    metric: uuidColumn(c.uuid, n),
    value: nullable(c.value, n),
    lower_value: nullable(c.lower, n),
    upper_value: nullable(c.upper, n),
    baseline: nullable(c.baseline, n),
    lower_limit: nullable(c.lowerLimit, n),
    upper_limit: nullable(c.upperLimit, n),
    alert_limit: dictionaryOf(n, (i) => c.alertLimit[i] ?? null),
    alert_status: dictionaryOf(n, (i) => c.alertStatus[i] ?? null),
  });
  // Each prefix is the JSON answer's series object up to its points: `{"branch":...,"measure":{...},`.
  const series = `[${input.prefixes.map((prefix) => `${prefix.slice(0, -1)}}`).join(',')}]`;
  const schema = new Schema(table.schema.fields, new Map([[ARROW_SERIES_KEY, series]]));
  return tableToIPC(new Table(schema, table.batches), 'stream');
}

/**
 * A dictionary-encoded text column: each distinct text once, an index per row (Arrow's builders took most of
 * the answer's time for this).
 */
function dictionaryOf(length: number, text: (row: number) => string | null): Vector {
  const index = new Map<string, number>();
  const values: string[] = [];
  const indices = new Int32Array(length);
  const bitmap = new Uint8Array((length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    const t = text(i);
    if (t === null) {
      nulls++;
      continue;
    }
    let k = index.get(t);
    if (k === undefined) index.set(t, (k = values.push(t) - 1));
    indices[i] = k;
    bitmap[i >> 3]! |= 1 << (i & 7);
  }
  return makeVector(
    makeData({
      type: new Dictionary(new Utf8(), new Int32()),
      length,
      nullCount: nulls,
      nullBitmap: bitmap,
      data: indices,
      dictionary: vectorFromArray(values, new Utf8()),
    }),
  );
}

/** The UUID texts of the four-word columns, written straight into one UTF-8 buffer (36 bytes each). */
function uuidColumn(words: Uint32Array, length: number): Vector<Utf8> {
  const data = Buffer.allocUnsafe(36 * length);
  for (let i = 0; i < length; i++) data.write(uuidAt(words, length, i), 36 * i, 'latin1');
  const valueOffsets = Int32Array.from({ length: length + 1 }, (_, i) => 36 * i);
  return makeVector(makeData({ type: new Utf8(), length, valueOffsets, data: new Uint8Array(data) }));
}

/** A float column straight from its typed array (no value copied into a JS array), NaN marked null. */
function nullable(values: Float64Array, length: number): Vector<Float64> {
  const data = values.slice(0, length);
  const bitmap = new Uint8Array((length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (Number.isNaN(data[i])) nulls++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  return makeVector(makeData({ type: new Float64(), length, nullCount: nulls, nullBitmap: bitmap, data }));
}
