import { describe, expect, it } from 'vitest';
import { uuidAt } from '../perf/shape.js';
import { historyColumns, perfColumns, type PerfPoint } from './columns.js';

describe('historyColumns', () => {
  it('lays samples out per series behind offsets, empty series included', () => {
    const answer = historyColumns([
      [
        { value: 3, id: 7n },
        { value: 2, id: 5n },
      ],
      [],
      [{ value: 9, id: 1n }],
    ]);
    expect(Array.from(answer.offsets)).toEqual([0, 2, 2, 3]);
    expect(Array.from(answer.values)).toEqual([3, 2, 9]);
    expect(Array.from(answer.ids)).toEqual([7n, 5n, 1n]);
    expect(Array.from(historyColumns([]).offsets)).toEqual([0]);
  });
});

describe('perfColumns', () => {
  const point: PerfPoint = {
    permutation: 1,
    report: '0190f3a2-7b1c-7d4e-8f00-123456789abc',
    iteration: 2,
    start: 1000,
    end: 2000,
    version: 4,
    hash: 'abc',
    uuid: 'ffffffff-0000-4000-8000-00000000000f',
    value: 1.5,
    lower: null,
    upper: 2,
    threshold: null,
    model: 3,
    baseline: null,
    lowerLimit: 1,
    upperLimit: null,
    alert: null,
    alertLimit: 'upper',
    alertStatus: null,
    alertModified: null,
  };

  it('turns absent numbers into NaN, absent ids into 0, and UUID text into words', () => {
    const answer = perfColumns([point, { ...point, permutation: 2, lower: 0.5, threshold: 6 }]);
    expect(answer.count).toBe(2);
    expect(Array.from(answer.permutation)).toEqual([1, 2]);
    expect(Array.from(answer.lower)).toEqual([NaN, 0.5]);
    expect(Array.from(answer.threshold)).toEqual([0, 6]);
    expect(Array.from(answer.model)).toEqual([3, 3]);
    expect(Array.from(answer.baseline)).toEqual([NaN, NaN]);
    expect(Array.from(answer.alertModified)).toEqual([NaN, NaN]);
    expect(answer.alertLimit).toEqual(['upper', 'upper']);
    expect(answer.alert).toEqual([null, null]);
    expect(uuidAt(answer.report, 2, 1)).toBe(point.report);
    expect(uuidAt(answer.uuid, 2, 0)).toBe(point.uuid);
  });

  it('leaves the metric UUIDs zero, the report UUIDs kept, when the request says metricUuids: false', () => {
    const answer = perfColumns([point, point], { metricUuids: false });
    expect(answer.uuid).toEqual(new Uint32Array(8));
    expect(uuidAt(answer.report, 2, 1)).toBe(point.report);
  });

  it('answers no points with empty columns', () => {
    const answer = perfColumns([]);
    expect(answer.count).toBe(0);
    expect(answer.value).toHaveLength(0);
    expect(answer.uuid).toHaveLength(0);
  });
});
