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
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { arrowColumns } from './arrow-columns.js';

/** Before 1970, past 2^32 ms, and today: both 32-bit words of each timestamp matter. */
const TIMES = [-946_771_200_001, 4_294_967_296, Date.UTC(2026, 10, 24, 4, 5)];

function texts(values: (string | null)[]) {
  const words = [...new Set(values.filter((v): v is string => v !== null))];
  const bitmap = new Uint8Array(1);
  values.forEach((v, i) => v !== null && (bitmap[0]! |= 1 << i));
  return makeVector(
    makeData({
      type: new Dictionary(new Utf8(), new Int32()),
      length: values.length,
      nullCount: values.filter((v) => v === null).length,
      nullBitmap: bitmap,
      data: Int32Array.from(values, (v) => (v === null ? 0 : words.indexOf(v))),
      dictionary: vectorFromArray(words, new Utf8()),
    }),
  );
}

/** An answer as core/perf/arrow.ts writes it: one series of three points, some numbers absent. */
function answer(): Uint8Array {
  const series = [{ branch: { name: 'main' }, benchmark: { name: 'parse' }, measure: { name: 'Latency' } }];
  const table = new Table({
    series: makeVector(Uint16Array.from([0, 0, 0])),
    report: texts(['r1', 'r2', 'r1']),
    iteration: makeVector(Int32Array.from([0, 0, 1])),
    start_time: makeVector(
      makeData({
        type: new TimestampMillisecond(),
        length: 3,
        data: BigInt64Array.from(TIMES, BigInt),
      }),
    ),
    end_time: makeVector(
      makeData({
        type: new TimestampMillisecond(),
        length: 3,
        data: BigInt64Array.from(TIMES, (t) => BigInt(t + 1)),
      }),
    ),
    version: makeVector(Int32Array.from([1, 2, 2])),
    hash: texts([null, 'abc', 'abc']),
    metric: vectorFromArray(['m1', 'm2', 'm3'], new Utf8()),
    value: vectorFromArray([1.5, 2.5, 3.5], new Float64()),
    lower_value: vectorFromArray([null, null, null], new Float64()),
    upper_value: vectorFromArray([null, null, null], new Float64()),
    baseline: vectorFromArray([null, 2, 2.25], new Float64()),
    lower_limit: vectorFromArray([null, null, 1], new Float64()),
    upper_limit: vectorFromArray([null, 3, 3.25], new Float64()),
    alert_limit: texts([null, null, 'upper']),
    alert_status: texts([null, null, 'active']),
  });
  const schema = new Schema(table.schema.fields, new Map([['benchtrack.series', JSON.stringify(series)]]));
  return tableToIPC(new Table(schema, table.batches), 'stream');
}

describe('the explorer reading the Arrow answer', () => {
  const [s] = arrowColumns(answer());

  it('reads timestamps before 1970 and past 2^32 ms exactly', () => {
    expect(Array.from(s!.start)).toEqual(TIMES);
    expect(s!.point(1).start_time).toBe(new Date(TIMES[1]!).toISOString());
  });

  it('turns absent numbers into NaN in the columns and null in a point', () => {
    expect(Array.from(s!.upperLimit)).toEqual([NaN, 3, 3.25]);
    expect(Array.from(s!.lowerLimit)).toEqual([NaN, NaN, 1]);
    expect(s!.point(0).boundary).toBeNull();
    expect(s!.point(1).boundary).toEqual({ baseline: 2, lower_limit: null, upper_limit: 3 });
    expect(s!.point(0).metric).toEqual({ value: 1.5, lower_value: null, upper_value: null });
  });

  it('reads dictionary texts and their nulls per row', () => {
    expect([0, 1, 2].map((i) => s!.report(i))).toEqual(['r1', 'r2', 'r1']);
    expect([0, 1, 2].map((i) => s!.alert(i))).toEqual([null, null, 'active']);
    expect(s!.point(0).version).toEqual({ number: 1, hash: null });
    expect(s!.point(2).version).toEqual({ number: 2, hash: 'abc' });
    expect(s!.point(2).alert).toEqual({ limit: 'upper', status: 'active' });
  });
});
