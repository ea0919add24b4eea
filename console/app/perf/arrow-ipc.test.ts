import { makeVector, tableFromIPC, tableToIPC, Table, vectorFromArray, type Vector } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { perfArrow } from '../../../core/perf/arrow.js';
import { uuidWords, type PerfShapeInput } from '../../../core/perf/shape.js';
import type { PerfColumns } from '../../../core/storage/records.js';
import { arrowColumns } from './arrow-columns.js';
import { readArrowStream, type IpcColumn } from './arrow-ipc.js';

/** A perf answer's columns with every kind of value: nulls, shared reports, times around 2^32 ms and 1970. */
function columns(count: number): PerfColumns {
  const uuid = (k: number) => `0000abcd-0000-4000-8000-${String(k).padStart(12, '0')}`;
  const some = (i: number, every: number, text: string) => (i % every === 0 ? text : null);
  const numbers = (f: (i: number) => number) => Float64Array.from({ length: count }, (_, i) => f(i));
  return {
    count,
    permutation: Int32Array.from({ length: count }, (_, i) => Math.floor((i * 3) / count)),
    report: uuidWords(Array.from({ length: count }, (_, i) => uuid(i % 7))),
    iteration: Int32Array.from({ length: count }, (_, i) => i % 2),
    start: numbers((i) => [-1, 4_294_967_295, 4_294_967_296, Date.UTC(2026, 10, 24)][i % 4]! + i),
    end: numbers((i) => Date.UTC(2026, 10, 24) + i),
    version: Int32Array.from({ length: count }, (_, i) => i),
    hash: Array.from({ length: count }, (_, i) => some(i, 3, `h${i % 5}é`)),
    uuid: uuidWords(Array.from({ length: count }, (_, i) => uuid(100 + i))),
    value: numbers((i) => 100 + i / 3),
    lower: numbers((i) => (i % 4 ? NaN : 99)),
    upper: numbers((i) => (i % 4 ? NaN : 101)),
    threshold: new Int32Array(count),
    model: new Int32Array(count),
    baseline: numbers((i) => (i % 2 ? 100 : NaN)),
    lowerLimit: numbers(() => NaN),
    upperLimit: numbers((i) => (i % 2 ? 103.5 : NaN)),
    alert: Array.from({ length: count }, (_, i) => some(i, 11, uuid(999))),
    alertLimit: Array.from({ length: count }, (_, i) => some(i, 11, 'upper')),
    alertStatus: Array.from({ length: count }, (_, i) => some(i, 11, i % 2 ? 'active' : 'dismissed')),
    alertModified: numbers(() => NaN),
  };
}

function answer(count: number, fields: 'all' | 'plot'): Uint8Array {
  const input: PerfShapeInput = {
    columns: columns(count),
    prefixes: ['{"branch":{"name":"a"},', '{"branch":{"name":"b"},', '{"branch":{"name":"c"},'],
    names: [
      ['a', 'linux', 'parse', 'Latency'],
      ['b', 'linux', 'parse', 'Latency'],
      ['c', 'linux', 'parse', 'Latency'],
    ],
    thresholds: null,
    head: '',
    fields,
  };
  return perfArrow(input);
}

/** Row i of a column as apache-arrow's `get` answers it (timestamps as numbers). */
function ours(column: IpcColumn, i: number): unknown {
  if (column.validity && !((column.validity[i >> 3]! >> (i & 7)) & 1)) return null;
  if (column.dictionary) return column.dictionary[column.values[i]!];
  if (column.text) return column.text(i);
  if (column.values.length === 2 * column.length) {
    const words = column.values as Int32Array;
    return (words[2 * i]! >>> 0) + words[2 * i + 1]! * 4_294_967_296;
  }
  return column.values[i];
}

function theirs(vector: Vector, i: number): unknown {
  const value: unknown = vector.get(i);
  return typeof value === 'bigint' ? Number(value) : value;
}

describe('the Arrow IPC reader', () => {
  it.each([
    [0, 'all'],
    [1, 'plot'],
    [5_000, 'all'],
    [5_000, 'plot'],
  ] as const)("reads %i rows of the API's answer (fields=%s) as apache-arrow does", (count, fields) => {
    const bytes = answer(count, fields);
    const table = readArrowStream(bytes);
    const reference = tableFromIPC(bytes);
    expect(table.length).toBe(reference.numRows);
    expect(table.metadata).toEqual(reference.schema.metadata);
    if (count === 0) return;
    expect([...table.columns.keys()]).toEqual(reference.schema.fields.map((f) => f.name));
    for (const field of reference.schema.fields) {
      const vector = reference.getChild(field.name)!;
      const column = table.columns.get(field.name)!;
      const rows = Array.from({ length: count }, (_, i) => i);
      expect(
        rows.map((i) => ours(column, i)),
        field.name,
      ).toEqual(rows.map((i) => theirs(vector, i)));
    }
  });

  it('gives the explorer the same series from both field sets', () => {
    const all = arrowColumns(answer(600, 'all'));
    const plot = arrowColumns(answer(600, 'plot'));
    expect(plot.map((s) => s.length)).toEqual([200, 200, 200]);
    expect(plot.map((s) => [...s.value])).toEqual(all.map((s) => [...s.value]));
    expect(plot.map((s) => [...s.upperLimit])).toEqual(all.map((s) => [...s.upperLimit]));
    expect(plot[2]!.point(33)).toEqual(all[2]!.point(33));
    expect(plot[0]!.point(0)).toMatchObject({
      report: '0000abcd-0000-4000-8000-000000000000',
      version: { number: 0, hash: 'h0é' },
      metric: { value: 100, lower_value: 99, upper_value: 101 },
      boundary: null,
      alert: { limit: 'upper', status: 'dismissed' },
    });
    expect(plot[0]!.point(1).boundary).toEqual({ baseline: 100, lower_limit: null, upper_limit: 103.5 });
  });

  it('refuses a column type the perf answer never has, naming the column', () => {
    const bytes = tableToIPC(
      new Table({
        value: vectorFromArray([1.5], undefined),
        big: makeVector(BigInt64Array.from([1n])),
      }),
      'stream',
    );
    expect(() => readArrowStream(bytes)).toThrow(/column big is a 64-bit signed integer/);
  });

  it('refuses an answer cut short, or one whose message or vector lengths run past its bytes', () => {
    const bytes = answer(40, 'plot');
    const cut = bytes.slice(0, bytes.byteLength - 64);
    expect(() => readArrowStream(cut)).toThrow(
      /not a valid Arrow stream: a message body longer than the answer/,
    );
    // the first message's length (after the continuation marker) made negative: it used to step back and loop
    const negative = bytes.slice();
    new DataView(negative.buffer).setInt32(4, -8, true);
    expect(() => readArrowStream(negative)).toThrow(
      /not a valid Arrow stream: a message longer than the answer/,
    );
    // the schema's field count made huge: it used to build four billion offsets before reading any of them
    const huge = bytes.slice();
    const view = new DataView(huge.buffer);
    const root = 8 + view.getUint32(8, true);
    const schema = root + view.getUint32(root + offsetOf(view, root, 2), true) + offsetOf(view, root, 2);
    const fields = schema + offsetOf(view, schema, 1);
    view.setUint32(fields + view.getUint32(fields, true), 0xffffffff, true);
    expect(() => readArrowStream(huge)).toThrow(/not a valid Arrow stream: a vector longer than its message/);
  });
});

/** Where field `index` of the flatbuffer table at `table` is stored, relative to the table. */
function offsetOf(view: DataView, table: number, index: number): number {
  const vtable = table - view.getInt32(table, true);
  return view.getUint16(vtable + 4 + 2 * index, true);
}
