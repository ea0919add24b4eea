import { tableFromIPC, Type } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { PerfColumns } from '../storage/records.js';
import { ARROW_SERIES_KEY, perfArrow } from './arrow.js';
import { uuidWords, type PerfShapeInput } from './shape.js';

const REPORTS = [
  '0000abcd-0000-4000-8000-000000000001',
  '0000abcd-0000-4000-8000-000000000002', // same first word as the one before
  'ffffffff-ffff-4fff-bfff-ffffffffffff',
];
/** Before 1970, around 2^32 ms, and far future: both words of the 64-bit timestamp matter. */
const TIMES = [
  -86_400_000 * 365 * 30 - 1,
  4_294_967_295,
  4_294_967_296,
  Date.UTC(2026, 10, 24, 4, 5),
  253_402_300_799_000,
];

function columns(): PerfColumns {
  const count = TIMES.length;
  const nan = () => new Float64Array(count).fill(Number.NaN);
  const strings = () => new Array<string | null>(count).fill(null);
  return {
    count,
    permutation: Int32Array.from([0, 0, 1, 1, 1]),
    report: uuidWords([REPORTS[0]!, REPORTS[1]!, REPORTS[0]!, REPORTS[1]!, REPORTS[2]!]),
    iteration: new Int32Array(count),
    start: Float64Array.from(TIMES),
    end: Float64Array.from(TIMES, (t) => t + 1),
    version: Int32Array.from([1, 2, 1, 2, 3]),
    hash: strings(),
    uuid: uuidWords(REPORTS.concat(REPORTS).slice(0, count).reverse()),
    value: Float64Array.from([1, 2, 3, 4, 5]),
    lower: nan(),
    upper: nan(),
    threshold: new Int32Array(count),
    model: new Int32Array(count),
    baseline: nan(),
    lowerLimit: nan(),
    upperLimit: nan(),
    alert: strings(),
    alertLimit: strings(),
    alertStatus: strings(),
    alertModified: nan(),
  };
}

const answer = (more: Partial<PerfShapeInput> = {}) =>
  perfArrow({
    columns: columns(),
    prefixes: ['{"branch":{"name":"main"},', '{"branch":{"name":"main"},'],
    names: [
      ['main', 'linux', 'parse', 'Latency'],
      ['main', 'linux', 'sort', 'Latency'],
    ],
    thresholds: null,
    head: '',
    ...more,
  });

describe('the perf answer as Arrow', () => {
  const table = tableFromIPC(answer());
  const column = (name: string) => table.getChild(name)!.toArray() as ArrayLike<unknown>;

  it('writes timestamps before 1970, past 2^32 ms and far ahead exactly', () => {
    expect(Array.from(column('start_time') as BigInt64Array, Number)).toEqual(TIMES);
    expect(Array.from(column('end_time') as BigInt64Array, Number)).toEqual(TIMES.map((t) => t + 1));
  });

  it('keeps each report once in its dictionary, UUIDs that share their first word apart', () => {
    const report = table.getChild('report')!;
    expect(Array.from({ length: 5 }, (_, i) => report.get(i))).toEqual([
      REPORTS[0],
      REPORTS[1],
      REPORTS[0],
      REPORTS[1],
      REPORTS[2],
    ]);
    expect(report.data[0]!.dictionary!.length).toBe(3);
  });

  it('names each row by its permutation, and writes metric UUIDs as text', () => {
    const benchmark = table.getChild('benchmark')!;
    expect(Array.from({ length: 5 }, (_, i) => benchmark.get(i))).toEqual([
      'parse',
      'parse',
      'sort',
      'sort',
      'sort',
    ]);
    expect(benchmark.data[0]!.dictionary!.length).toBe(2);
    expect(table.getChild('branch')!.data[0]!.dictionary!.length).toBe(1);
    const metric = table.getChild('metric')!;
    expect(Array.from({ length: 5 }, (_, i) => metric.get(i))).toEqual(
      REPORTS.concat(REPORTS).slice(0, 5).reverse(),
    );
  });

  it('gives the same bytes for the same answer, whatever the process encoded before (worker or main thread)', () => {
    expect(Buffer.from(answer()).equals(Buffer.from(answer()))).toBe(true);
    expect(table.schema.fields.filter((f) => f.typeId === Type.Dictionary).map((f) => f.type.id)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('writes text columns with their nulls, each distinct text once', () => {
    const texts = tableFromIPC(
      answer({
        columns: {
          ...columns(),
          hash: ['abc', null, 'abc', 'def', null],
          alertLimit: [null, 'upper', null, null, 'lower'],
          alertStatus: [null, 'active', null, null, 'dismissed'],
        },
      }),
    );
    const values = (name: string) => Array.from({ length: 5 }, (_, i) => texts.getChild(name)!.get(i));
    expect(values('hash')).toEqual(['abc', null, 'abc', 'def', null]);
    expect(texts.getChild('hash')!.data[0]!.dictionary!.length).toBe(2);
    expect(values('alert_limit')).toEqual([null, 'upper', null, null, 'lower']);
    expect(values('alert_status')).toEqual([null, 'active', null, null, 'dismissed']);
  });

  it('leaves out the names, end_time and metric UUIDs with fields=plot, and keeps every other column as is', () => {
    const plot = tableFromIPC(answer({ fields: 'plot' }));
    const names = plot.schema.fields.map((f) => f.name);
    expect(names).toEqual([
      'series',
      'report',
      'iteration',
      'start_time',
      'version',
      'hash',
      'value',
      'lower_value',
      'upper_value',
      'baseline',
      'lower_limit',
      'upper_limit',
      'alert_limit',
      'alert_status',
    ]);
    for (const name of names) {
      const all = table.getChild(name)!;
      const lean = plot.getChild(name)!;
      expect(Array.from({ length: 5 }, (_, i) => lean.get(i))).toEqual(
        Array.from({ length: 5 }, (_, i) => all.get(i)),
      );
    }
    expect(plot.schema.metadata.get(ARROW_SERIES_KEY)).toBe(table.schema.metadata.get(ARROW_SERIES_KEY));
    expect(answer({ fields: 'plot' }).byteLength).toBeLessThan(answer().byteLength);
  });
});
