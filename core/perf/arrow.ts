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
import type { PerfColumns } from '../storage/records.js';
import { packTexts, type PackedTexts, type TextColumn } from './packed-texts.js';
import { uuidAt, writeUuid, type PerfShapeInput } from './shape.js';

/** Schema metadata key of the series' JSON (branch, testbed, benchmark, measure), indexed by the `series` column. */
export const ARROW_SERIES_KEY = 'benchtrack.series';

/** What the Arrow shaper reads: the perf columns with their text columns packed (see {@link PackedTexts}). */
export type PackedShapeInput = Omit<PerfShapeInput, 'columns'> & {
  readonly columns: Omit<PerfColumns, TextColumn>;
  readonly texts: Readonly<Record<TextColumn, PackedTexts>>;
};

/**
 * The perf answer as an Arrow IPC stream, for notebooks (pyarrow, polars, DuckDB read it directly) and the
 * console's explorer: one row per point, timestamps as milliseconds, absent numbers as nulls. Repeated texts
 * (names, reports, hashes, alert words) are dictionary-encoded, so 255 series of the same 100 reports carry each
 * report's UUID once. `series` indexes the JSON array in the schema's `benchtrack.series` metadata, which holds
 * each series' branch, testbed, benchmark and measure as the JSON answer writes them. With `fields: 'plot'` the
 * names, end_time and metric columns are left out (the explorer's answer: about half of the bytes).
 */
export function perfArrow(input: PerfShapeInput): Uint8Array {
  const { hash, alert, alertLimit, alertStatus, ...columns } = input.columns;
  const texts = {
    hash: packTexts(hash),
    alert: packTexts(alert),
    alertLimit: packTexts(alertLimit),
    alertStatus: packTexts(alertStatus),
  };
  return perfArrowPacked({ ...input, columns, texts });
}

/** {@link perfArrow} of packed text columns: each packed column is already its Arrow dictionary. */
export function perfArrowPacked(input: PackedShapeInput): Uint8Array {
  const c = input.columns;
  const n = c.count;
  const rows = c.permutation.subarray(0, n);
  const name = (k: number) =>
    permutationDictionary(
      k,
      rows,
      input.names.map((four) => four[k] as string),
    );
  const all = input.fields !== 'plot';
  const table = new Table({
    series: makeVector(Uint16Array.from(rows)),
    ...(all ? { branch: name(0), testbed: name(1), benchmark: name(2), measure: name(3) } : {}),
    report: uuidDictionary(4, c.report, n),
    iteration: makeVector(c.iteration.slice(0, n)),
    start_time: times(c.start, n),
    ...(all ? { end_time: times(c.end, n) } : {}),
    version: makeVector(c.version.slice(0, n)),
    hash: packedDictionary(5, input.texts.hash, n),
    ...(all ? { metric: uuidColumn(c.uuid, n) } : {}),
    value: nullable(c.value, n),
    lower_value: nullable(c.lower, n),
    upper_value: nullable(c.upper, n),
    baseline: nullable(c.baseline, n),
    lower_limit: nullable(c.lowerLimit, n),
    upper_limit: nullable(c.upperLimit, n),
    alert_limit: packedDictionary(6, input.texts.alertLimit, n),
    alert_status: packedDictionary(7, input.texts.alertStatus, n),
  });
  // Each prefix is the JSON answer's series object up to its points: `{"branch":...,"measure":{...},`.
  const series = `[${input.prefixes.map((prefix) => `${prefix.slice(0, -1)}}`).join(',')}]`;
  const schema = new Schema(table.schema.fields, new Map([[ARROW_SERIES_KEY, series]]));
  return tableToIPC(new Table(schema, table.batches), 'stream');
}

/**
 * Epoch milliseconds as Arrow's 64-bit timestamps, written as two 32-bit words each (little-endian, as Arrow's
 * IPC is here): converting every value to a BigInt cost more than the rest of the column.
 */
function times(ms: Float64Array, length: number): Vector {
  const words = new Int32Array(2 * length);
  for (let i = 0; i < length; i++) {
    const t = ms[i] as number;
    words[2 * i] = t >>> 0;
    words[2 * i + 1] = Math.floor(t / 4_294_967_296);
  }
  return makeVector(
    makeData({ type: new TimestampMillisecond(), length, data: new BigInt64Array(words.buffer) }),
  );
}

/** A name column of the permutations (branch, testbed, ...): each distinct name once, an index per row. */
function permutationDictionary(id: number, rows: Int32Array, names: readonly string[]): Vector {
  const index = new Map<string, number>();
  const values: string[] = [];
  const code = Int32Array.from(names, (text) => {
    let k = index.get(text);
    if (k === undefined) index.set(text, (k = values.push(text) - 1));
    return k;
  });
  const indices = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) indices[i] = code[rows[i] as number] as number;
  return dictionaryVector(id, indices, values, 0, undefined);
}

/**
 * The report column: each distinct UUID once. Rows are matched on their four words (a text per row cost most of
 * the column's time); the first word finds the few candidates.
 */
function uuidDictionary(id: number, words: Uint32Array, length: number): Vector {
  const byFirst = new Map<number, number[]>();
  const firstRow: number[] = [];
  const indices = new Int32Array(length);
  const same = (a: number, b: number) =>
    words[length + a] === words[length + b] &&
    words[2 * length + a] === words[2 * length + b] &&
    words[3 * length + a] === words[3 * length + b];
  for (let i = 0; i < length; i++) {
    const first = words[i] as number;
    let candidates = byFirst.get(first);
    if (!candidates) byFirst.set(first, (candidates = []));
    let k = candidates.find((code) => same(firstRow[code] as number, i));
    if (k === undefined) candidates.push((k = firstRow.push(i) - 1));
    indices[i] = k;
  }
  return dictionaryVector(
    id,
    indices,
    firstRow.map((row) => uuidAt(words, length, row)),
    0,
    undefined,
  );
}

/** A packed text column as Arrow's dictionary-encoded text: its texts are the dictionary, its codes the indices. */
function packedDictionary(id: number, packed: PackedTexts, length: number): Vector {
  const indices = packed.codes.slice(0, length);
  const bitmap = new Uint8Array((length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if ((indices[i] as number) < 0) {
      indices[i] = 0;
      nulls++;
    } else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  return dictionaryVector(id, indices, [...packed.texts], nulls, bitmap);
}

/**
 * `id` numbers the column's dictionary in the stream (0 to 7, in column order). Left out, apache-arrow takes the
 * next value of a counter of the whole process, so the same answer came out with other bytes in each process and
 * after every earlier answer, in a worker or on the main thread.
 */
function dictionaryVector(
  id: number,
  indices: Int32Array,
  values: string[],
  nullCount: number,
  nullBitmap: Uint8Array | undefined,
): Vector {
  return makeVector(
    makeData({
      type: new Dictionary(new Utf8(), new Int32(), id),
      length: indices.length,
      nullCount,
      nullBitmap,
      data: indices,
      dictionary: vectorFromArray(values, new Utf8()),
    }),
  );
}

/** The UUID texts of the four-word columns, written straight into one UTF-8 buffer (36 bytes each). */
function uuidColumn(words: Uint32Array, length: number): Vector<Utf8> {
  const data = new Uint8Array(36 * length);
  const valueOffsets = new Int32Array(length + 1);
  for (let i = 0; i < length; i++) {
    writeUuid(words, length, i, data, 36 * i);
    valueOffsets[i + 1] = 36 * (i + 1);
  }
  return makeVector(makeData({ type: new Utf8(), length, valueOffsets, data }));
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
