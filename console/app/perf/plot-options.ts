import uPlot from 'uplot';
import type { YAxis } from '../api/perf-types.js';
import { cssColor } from '../lib/color-scheme.js';
import { formatNumber } from '../lib/format.js';
import type { PlotData } from './series.js';

/** uPlot's options for a perf plot: scales whose automatic range includes the drawn limits, fitted y axes. */

/**
 * Lines of more series than this are drawn without a marker at each point: among hundreds of lines the markers
 * hide each other, and drawing them was the largest part of a 255-series plot's first frame. Alerts keep their
 * discs, and hover still rings the point.
 */
const MARKED_SERIES_MAX = 16;

function axisValues(_u: uPlot, splits: number[]): string[] {
  return splits.map((v) => (v === null ? '' : formatNumber(v)));
}

/** A y axis as wide as its widest tick label (a fixed width cut 123,456,789 off at the canvas's edge). */
function fitAxis(u: uPlot, values: string[] | undefined, axisIndex: number, cycle: number): number {
  const axis = u.axes[axisIndex]!;
  const current = (axis as { _size?: number })._size;
  if (cycle > 1 && current !== undefined) return current;
  const widest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  u.ctx.font = axis.font?.[0] ?? '12px system-ui';
  return Math.ceil(
    (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + u.ctx.measureText(widest).width / devicePixelRatio + 4,
  );
}

/** The first and last places of the x window shown (all of them before the first zoom). */
function shownPlaces(u: uPlot, xs: Float64Array): [number, number] {
  const { min, max } = u.scales.x!;
  let first = 0;
  let last = xs.length - 1;
  if (min !== undefined && min !== null) while (first < last && xs[first]! < min) first++;
  if (max !== undefined && max !== null) while (last > first && xs[last]! > max) last--;
  return [first, last];
}

/**
 * The automatic y range of one axis: the values uPlot found in view, widened to the drawn limits of the visible
 * series, so a limit above the data (the headroom left) is on the plot, not clipped.
 */
function yRange(
  data: PlotData,
  axis: 0 | 1,
  log: boolean,
  bounds: boolean,
  visible: (index: number) => boolean,
): uPlot.Range.Function {
  return (u, dataMin, dataMax) => {
    let min = dataMin ?? Infinity;
    let max = dataMax ?? -Infinity;
    if (bounds) {
      const [first, last] = shownPlaces(u, data.xs);
      data.series.forEach((s, index) => {
        if (s.axis !== axis || !visible(index)) return;
        for (const limits of [s.lower, s.upper]) {
          for (let i = first; limits && i <= last; i++) {
            const v = limits[i];
            if (v === null || v === undefined) continue;
            if (v < min) min = v;
            if (v > max) max = v;
          }
        }
      });
    }
    if (min > max) return [null, null];
    return log ? uPlot.rangeLog(min, max, 10, true) : uPlot.rangeNum(min, max, 0.1, true);
  };
}

export function options(
  data: PlotData,
  width: number,
  height: number,
  yAxis: YAxis,
  bounds: boolean,
  visible: (index: number) => boolean,
  hooks: uPlot.Hooks.Arrays,
): uPlot.Options {
  const log = yAxis === 'log';
  const distr = log ? 3 : 1;
  const two = data.measures.length > 1;
  const colors = {
    stroke: cssColor('--muted'),
    grid: { stroke: cssColor('--line'), width: 1 },
    ticks: { stroke: cssColor('--line'), width: 1 },
  };
  const scale = (axis: 0 | 1): uPlot.Scale => ({
    distr,
    ...(log ? { log: 10 } : {}),
    range: yRange(data, axis, log, bounds, visible),
  });
  return {
    width,
    height,
    legend: { show: false },
    scales: {
      x: { time: data.xAxis === 'date_time' },
      y: scale(0),
      ...(two ? { y2: scale(1) } : {}),
    },
    // Axis titles are HTML beside the canvas (see AxisTitle): drawn by uPlot they overlapped the tick labels.
    axes: [
      data.xAxis === 'version'
        ? {
            ...colors,
            values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? `#${v}` : '')),
            label: 'Version',
          }
        : colors,
      { ...colors, scale: 'y', values: axisValues, size: fitAxis },
      ...(two
        ? [
            {
              ...colors,
              scale: 'y2',
              side: 1 as const,
              values: axisValues,
              size: fitAxis,
              grid: { show: false },
            },
          ]
        : []),
    ],
    series: [
      {},
      ...data.series.map((s) => ({
        label: s.label,
        stroke: s.color,
        // thinner lines for many series: a 1 px line is a hairline, which Chromium's software canvas draws
        // an order of magnitude faster than 1.5 px
        width: data.series.length > MARKED_SERIES_MAX ? 1 : 1.5,
        scale: s.axis === 0 ? 'y' : 'y2',
        spanGaps: true,
        points: data.series.length > MARKED_SERIES_MAX ? { show: false } : { size: 5 },
      })),
    ],
    cursor: { drag: { x: true, y: false, setScale: true }, points: { show: false }, focus: { prox: -1 } },
    // the hovered line stands out: the others fade while a point's details are shown (see PerfPlot)
    focus: { alpha: 0.25 },
    hooks,
  };
}
