import { describe, expect, it } from 'vitest';
import type { PerfJson, PerfPoint } from '../api/perf-types.js';
import { jsonColumns } from './columns.js';
import { buildPlotData, logAxis, seriesColor } from './series.js';

function point(day: number, value: number, extra: Partial<PerfPoint> = {}): PerfPoint {
  return {
    report: `r${day}`,
    iteration: 0,
    start_time: new Date(Date.UTC(2026, 0, day)).toISOString(),
    end_time: new Date(Date.UTC(2026, 0, day)).toISOString(),
    version: { number: day, hash: null },
    metric: { uuid: `m${day}`, value, lower_value: null, upper_value: null },
    threshold: null,
    boundary: null,
    alert: null,
    ...extra,
  };
}

function series(benchmark: string, measure: string, metrics: PerfPoint[]) {
  const dim = (name: string) => ({
    uuid: name,
    project: 'p',
    name,
    slug: name,
    archived: false,
    created: '',
    modified: '',
  });
  return {
    branch: {
      ...dim('main'),
      head: { uuid: 'h', start_point: null, version: null, created: '', replaced: null },
    },
    testbed: dim('linux'),
    benchmark: dim(benchmark),
    measure: { ...dim(measure), units: 'ns' },
    metrics,
  };
}

const perf = (results: ReturnType<typeof series>[]) =>
  jsonColumns({ project: {}, start_time: null, end_time: null, results } as unknown as PerfJson);

describe('perf answer to plot data', () => {
  it('aligns series on one sorted x array with gaps where a series has no point', () => {
    const data = buildPlotData(
      perf([
        series('a', 'latency', [point(1, 10), point(3, 30)]),
        series('b', 'latency', [point(2, 20), point(3, 31)]),
      ]),
      'date_time',
      false,
    );
    expect(Array.from(data.xs)).toEqual([1, 2, 3].map((d) => Date.UTC(2026, 0, d) / 1000));
    expect(data.series[0]!.y).toEqual([10, null, 30]);
    expect(data.series[1]!.y).toEqual([null, 20, 31]);
    expect(Array.from(data.series[1]!.pointAt)).toEqual([-1, 0, 1]);
    expect(data.series.map((s) => s.label)).toEqual(['a', 'b']);
  });

  it('puts a second measure on the right axis and names what varies in the labels', () => {
    const data = buildPlotData(
      perf([series('a', 'latency', [point(1, 1)]), series('a', 'throughput', [point(1, 2)])]),
      'version',
      false,
    );
    expect(data.series.map((s) => s.axis)).toEqual([0, 1]);
    expect(data.series.map((s) => s.label)).toEqual(['a · latency', 'a · throughput']);
    expect(data.measures.map((m) => m.name)).toEqual(['latency', 'throughput']);
    expect(Array.from(data.xs)).toEqual([1]);
  });

  it('keeps limits and alerts, and drops values a log axis cannot show', () => {
    const data = buildPlotData(
      perf([
        series('a', 'latency', [
          point(1, 0),
          point(2, 5, {
            boundary: { baseline: 4, lower_limit: 3, upper_limit: 4.5 },
            alert: { uuid: 'x', limit: 'upper', status: 'active', modified: '' },
          }),
        ]),
      ]),
      'version',
      true,
    );
    const s = data.series[0]!;
    expect(s.y).toEqual([null, 5]);
    expect(s.lower).toEqual([null, 3]);
    expect(s.upper).toEqual([null, 4.5]);
    expect(s.alerts).toEqual([{ x: 1, active: true }]);
  });

  it('gives iterations of one report their own place', () => {
    const data = buildPlotData(
      perf([series('a', 'latency', [point(1, 1), point(1, 2, { iteration: 1 })])]),
      'version',
      false,
    );
    expect(data.xs.length).toBe(2);
  });

  it('makes an auto y axis logarithmic when all values are positive and span three decades, as images do', () => {
    const spanning = perf([series('a', 'latency', [point(1, 1), point(2, 1000)])]);
    const narrow = perf([series('a', 'latency', [point(1, 1), point(2, 999)])]);
    const zero = perf([series('a', 'latency', [point(1, 0), point(2, 5000)])]);
    expect([logAxis('auto', spanning), logAxis('auto', narrow), logAxis('auto', zero)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([logAxis('log', narrow), logAxis('linear', spanning)]).toEqual([true, false]);
  });

  it('colors hundreds of series distinctly', () => {
    const colors = new Set(Array.from({ length: 255 }, (_, i) => seriesColor(i)));
    expect(colors.size).toBe(255);
  });
});
