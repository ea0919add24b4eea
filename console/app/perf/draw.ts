import type uPlot from 'uplot';
import type { PlotSeries } from './series.js';

/** Canvas drawing uPlot has no option for: boundary bands under the lines and alert markers over them. */

function scaleOf(series: PlotSeries): string {
  return series.axis === 0 ? 'y' : 'y2';
}

function tracePath(
  u: uPlot,
  ctx: CanvasRenderingContext2D,
  values: (number | null)[],
  scale: string,
  reverse: boolean,
): void {
  const xs = u.data[0];
  const n = values.length;
  for (let k = 0; k < n; k++) {
    const i = reverse ? n - 1 - k : k;
    const v = values[i];
    if (v === null || v === undefined) continue;
    ctx.lineTo(u.valToPos(xs[i]!, 'x', true), u.valToPos(v, scale, true));
  }
}

/**
 * Above this many visible series the area between the limits is not tinted and the limits are faint solid
 * hairlines instead of dashes: hundreds of overlapping tints are a blur, and in Chromium's software canvas
 * (headless, or no GPU) the tints were half of the bands' work and a dashed line costs about 3x a solid hairline
 * (255 series x 100 points: 238 ms with tints, 114 ms without; 255 dashed lines 79 ms, solid 26 ms).
 */
export const TINTED_SERIES_MAX = 16;

/**
 * The area between lower and upper limits, lightly tinted, and the limits as dashed lines; for many series, the
 * limits only, as faint hairlines (see {@link TINTED_SERIES_MAX}).
 */
export function drawBands(
  u: uPlot,
  series: readonly PlotSeries[],
  visible: (index: number) => boolean,
): void {
  const { ctx } = u;
  let shown = 0;
  series.forEach((s, index) => visible(index) && (s.lower || s.upper) && shown++);
  const few = shown <= TINTED_SERIES_MAX;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  series.forEach((s, index) => {
    if (!visible(index) || (!s.lower && !s.upper)) return;
    const scale = scaleOf(s);
    if (few && s.lower && s.upper) {
      ctx.beginPath();
      tracePath(u, ctx, s.upper, scale, false);
      tracePath(u, ctx, s.lower, scale, true);
      ctx.closePath();
      ctx.globalAlpha = 0.1;
      ctx.fillStyle = s.color;
      ctx.fill();
    }
    ctx.globalAlpha = few ? 0.7 : 0.35;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = devicePixelRatio;
    ctx.setLineDash(few ? [4 * devicePixelRatio, 3 * devicePixelRatio] : []);
    for (const limit of [s.lower, s.upper]) {
      if (!limit) continue;
      ctx.beginPath();
      tracePath(u, ctx, limit, scale, false);
      ctx.stroke();
    }
  });
  ctx.restore();
}

/** Whether a canvas position lies in the plot area (a zoomed plot's points outside it are not marked). */
function inside(u: uPlot, x: number, y: number): boolean {
  const { left, top, width, height } = u.bbox;
  return x >= left && x <= left + width && y >= top && y <= top + height;
}

/** A filled red disc for an active alert, a hollow one for a dismissed alert; returns how many it drew. */
export function drawAlerts(
  u: uPlot,
  series: readonly PlotSeries[],
  visible: (index: number) => boolean,
): number {
  const { ctx } = u;
  const radius = 5 * devicePixelRatio;
  let drawn = 0;
  ctx.save();
  ctx.lineWidth = 2 * devicePixelRatio;
  series.forEach((s, index) => {
    if (!visible(index)) return;
    for (const alert of s.alerts) {
      const value = s.y[alert.x];
      if (value === null || value === undefined) continue;
      const x = u.valToPos(u.data[0][alert.x]!, 'x', true);
      const y = u.valToPos(value, scaleOf(s), true);
      if (!inside(u, x, y)) continue;
      drawn++;
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, 2 * Math.PI);
      ctx.fillStyle = alert.active ? '#dc2626' : '#ffffff';
      ctx.strokeStyle = alert.active ? '#ffffff' : '#dc2626';
      ctx.fill();
      ctx.stroke();
    }
  });
  ctx.restore();
  return drawn;
}

/** A dark ring around each point of some reports (the report, alert or change a page is about). */
export function drawHighlight(
  u: uPlot,
  series: readonly PlotSeries[],
  visible: (index: number) => boolean,
  reports: ReadonlySet<string>,
): void {
  const { ctx } = u;
  ctx.save();
  ctx.lineWidth = 2 * devicePixelRatio;
  ctx.strokeStyle = getComputedStyle(u.root).color;
  series.forEach((s, index) => {
    if (!visible(index)) return;
    s.pointAt.forEach((m, i) => {
      const value = s.y[i];
      if (m < 0 || value === null || value === undefined || !reports.has(s.source.report(m))) return;
      const x = u.valToPos(u.data[0][i]!, 'x', true);
      const y = u.valToPos(value, scaleOf(s), true);
      if (!inside(u, x, y)) return;
      ctx.beginPath();
      ctx.arc(x, y, 8 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.stroke();
    });
  });
  ctx.restore();
}

/**
 * Each change point of the visible series in the series' color: a dashed vertical line at the first point of the
 * new regime, and the mean levels before and after it as thick translucent lines over their segments. Returns
 * how many change points it drew.
 */
export function drawChanges(
  u: uPlot,
  series: readonly PlotSeries[],
  visible: (index: number) => boolean,
): number {
  const { ctx } = u;
  const { top, height } = u.bbox;
  const at = (i: number) => u.valToPos(u.data[0][i]!, 'x', true);
  let drawn = 0;
  ctx.save();
  series.forEach((s, index) => {
    if (!visible(index) || s.changes.length === 0) return;
    ctx.strokeStyle = s.color;
    for (const change of s.changes) {
      const x = at(change.x);
      if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
      ctx.globalAlpha = 0.9;
      ctx.lineWidth = devicePixelRatio;
      ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      ctx.globalAlpha = 0.5;
      ctx.lineWidth = 3 * devicePixelRatio;
      ctx.setLineDash([]);
      ctx.beginPath();
      for (const [level, from, to] of [
        [change.point.before, change.from, change.x],
        [change.point.after, change.x, change.to],
      ] as const) {
        const y = u.valToPos(level, scaleOf(s), true);
        ctx.moveTo(at(from), y);
        ctx.lineTo(at(to), y);
      }
      ctx.stroke();
      drawn++;
    }
  });
  ctx.restore();
  return drawn;
}

/** The color of a regression's marker: red for a regression, green for an improvement. */
export const REGRESSION_COLORS = { regression: '#dc2626', improvement: '#059669' } as const;

/**
 * Each regression of the visible series: a solid vertical line at its first bad point with a triangle at the top
 * (pointing up for a regression, down for an improvement), red or green, and its levels when it has them. Returns
 * how many it drew.
 */
export function drawRegressions(
  u: uPlot,
  series: readonly PlotSeries[],
  visible: (index: number) => boolean,
): number {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const at = (i: number) => u.valToPos(u.data[0][i]!, 'x', true);
  const size = 5 * devicePixelRatio;
  let drawn = 0;
  ctx.save();
  series.forEach((s, index) => {
    if (!visible(index)) return;
    for (const r of s.regressions) {
      const x = at(r.x);
      if (x < left || x > left + width) continue;
      ctx.strokeStyle = ctx.fillStyle = REGRESSION_COLORS[r.kind];
      ctx.globalAlpha = 0.85;
      ctx.lineWidth = 2 * devicePixelRatio;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      const tip = r.kind === 'regression' ? top : top + 2 * size;
      const base = r.kind === 'regression' ? top + 2 * size : top;
      ctx.beginPath();
      ctx.moveTo(x, tip);
      ctx.lineTo(x - size, base);
      ctx.lineTo(x + size, base);
      ctx.closePath();
      ctx.fill();
      if (r.levels) {
        ctx.globalAlpha = 0.5;
        ctx.lineWidth = 3 * devicePixelRatio;
        ctx.beginPath();
        for (const [level, from, to] of [
          [r.levels.before, r.levels.from, r.x],
          [r.levels.after, r.x, r.levels.to],
        ] as const) {
          const y = u.valToPos(level, scaleOf(s), true);
          ctx.moveTo(Math.max(left, at(from)), y);
          ctx.lineTo(Math.min(left + width, at(to)), y);
        }
        ctx.stroke();
      }
      drawn++;
    }
  });
  ctx.restore();
  return drawn;
}
