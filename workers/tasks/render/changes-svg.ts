import type { PlotImageSeries } from '../../../core/perf/image-input.js';
import type { Rect } from './axes.js';
import { seriesColor, type Theme } from './palette.js';
import { px } from './paths.js';
import type { Scale } from './scale.js';

/**
 * The change points of every series (series i in palette color i): a dashed vertical line across the plot at
 * the first point of each new regime, and each segment's mean level (`before` from the previous change point or
 * the first point, `after` up to the next change point or the last point) as a horizontal line over it.
 */
export function changesSvg(
  series: readonly PlotImageSeries[],
  x: Scale,
  y: Scale,
  plot: Rect,
  theme: Theme,
): string {
  const out: string[] = [];
  series.forEach((s, i) => {
    const changes = s.changes ?? [];
    if (changes.length === 0) return;
    const at = (index: number) => x.map(s.x[index] as number);
    const markers: string[] = [];
    const levels: string[] = [];
    changes.forEach((change, k) => {
      const from = changes[k - 1]?.index ?? 0;
      const to = changes[k + 1]?.index ?? s.x.length;
      const start = at(change.index);
      if (!Number.isFinite(start)) return;
      markers.push(`M${px(start)} ${px(plot.top)}V${px(plot.bottom)}`);
      for (const [level, x0, x1] of [
        [change.before, at(from), start],
        [change.after, start, at(to - 1)],
      ] as const) {
        const h = y.map(level);
        if (Number.isFinite(h) && Number.isFinite(x0) && Number.isFinite(x1))
          levels.push(`M${px(x0)} ${px(h)}H${px(x1)}`);
      }
    });
    const color = seriesColor(theme, i);
    out.push(
      `<g class="change-points" fill="none" stroke="${color}">` +
        `<path d="${markers.join('')}" stroke-width="1" stroke-dasharray="2 3"/>` +
        `<path d="${levels.join('')}" stroke-width="2.5" stroke-opacity="0.6"/></g>`,
    );
  });
  return out.join('');
}

/**
 * The regressions of every series: a solid vertical line across the plot at the first bad point and a triangle
 * at its top (pointing up for a regression, down for an improvement), red or green, over everything but the frame.
 */
export function regressionsSvg(
  series: readonly PlotImageSeries[],
  x: Scale,
  plot: Rect,
  theme: Theme,
): string {
  const out: string[] = [];
  for (const s of series) {
    for (const { index, kind } of s.regressions ?? []) {
      const at = x.map(s.x[index] as number);
      if (!Number.isFinite(at) || at < plot.left || at > plot.right) continue;
      const [tip, base] = kind === 'regression' ? [plot.top, plot.top + 9] : [plot.top + 9, plot.top];
      out.push(
        `<g class="regression" fill="${theme[kind]}" stroke="${theme[kind]}">` +
          `<path d="M${px(at)} ${px(plot.top)}V${px(plot.bottom)}" stroke-width="2"/>` +
          `<path d="M${px(at)} ${tip}L${px(at - 6)} ${base}H${px(at + 6)}Z" stroke="none"/></g>`,
      );
    }
  }
  return out.join('');
}
