import { escapeXml } from './escape.js';
import type { Theme } from './palette.js';
import { px } from './paths.js';
import type { Scale } from './scale.js';
import { textWidth, truncateEnd } from './text-width.js';
import type { Tick } from './ticks.js';

/** The plot area in pixels. */
export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export const TICK_FONT = 12;
export const AXIS_TITLE_FONT = 13;
const TICK_LENGTH = 5;
/** Baselines below the plot: tick labels, their context line (date, year), the axis title. */
export const X_LABEL_OFFSET = 19;
export const X_CONTEXT_OFFSET = 34;
/** The axis title's baseline below the plot: under the context line, or right under the labels without one. */
export function xTitleOffset(xAxis: 'date_time' | 'version'): number {
  return xAxis === 'version' ? 40 : 55;
}
/** Gap between the y tick labels and the plot, and between the y title and the tick labels. */
const Y_LABEL_GAP = 8;
/** Half the cap height of DejaVu Sans (0.73 em): added to a baseline to center digits on a gridline. */
const HALF_CAP = 0.365;

/** The center of the pixel row or column at `value`: a 1-pixel line there is sharp, not smeared over two. */
export function crisp(value: number): number {
  return Math.floor(value) + 0.5;
}

/** Widest label among `ticks` in pixels. */
export function ticksWidth(ticks: readonly Tick[]): number {
  return Math.max(0, ...ticks.map((tick) => textWidth(tick.label, TICK_FONT)));
}

/** Horizontal gridlines, tick marks and right-aligned labels of the y axis, and its rotated title. */
export function yAxisSvg(
  ticks: readonly Tick[],
  scale: Scale,
  plot: Rect,
  title: string,
  ink: Theme,
): string {
  const grid: string[] = [];
  const labels: string[] = [];
  for (const tick of ticks) {
    const y = scale.map(tick.value);
    grid.push(`M${px(plot.left - TICK_LENGTH)},${px(crisp(y))}H${px(plot.right)}`);
    labels.push(
      `<text x="${px(plot.left - Y_LABEL_GAP)}" y="${px(y + TICK_FONT * HALF_CAP)}">${escapeXml(tick.label)}</text>`,
    );
  }
  const titleX = plot.left - Y_LABEL_GAP * 2 - ticksWidth(ticks) - AXIS_TITLE_FONT * 0.3;
  const titleY = (plot.top + plot.bottom) / 2;
  const shown = truncateEnd(title, plot.bottom - plot.top, AXIS_TITLE_FONT);
  return (
    `<path d="${grid.join('')}" stroke="${ink.grid}" stroke-width="1" fill="none"/>` +
    `<g fill="${ink.muted}" font-size="${TICK_FONT}" text-anchor="end">${labels.join('')}</g>` +
    `<text transform="translate(${px(titleX)},${px(titleY)}) rotate(-90)" text-anchor="middle" font-size="${AXIS_TITLE_FONT}" fill="${ink.text}">${escapeXml(shown)}</text>`
  );
}

/**
 * Vertical gridlines, tick marks and centered labels of the x axis (a label near an image edge is kept inside
 * the image), the context line under time labels, and the axis title.
 */
export function xAxisSvg(
  ticks: readonly Tick[],
  scale: Scale,
  plot: Rect,
  width: number,
  title: string,
  titleOffset: number,
  ink: Theme,
): string {
  const grid: string[] = [];
  const labels: string[] = [];
  for (const tick of ticks) {
    const x = scale.map(tick.value);
    grid.push(`M${px(crisp(x))},${px(plot.top)}V${px(plot.bottom + TICK_LENGTH)}`);
    labels.push(centered(tick.label, x, plot.bottom + X_LABEL_OFFSET, width));
    if (tick.context) labels.push(centered(tick.context, x, plot.bottom + X_CONTEXT_OFFSET, width));
  }
  const titleX = (plot.left + plot.right) / 2;
  return (
    `<path d="${grid.join('')}" stroke="${ink.grid}" stroke-width="1" fill="none"/>` +
    `<g fill="${ink.muted}" font-size="${TICK_FONT}" text-anchor="middle">${labels.join('')}</g>` +
    `<text x="${px(titleX)}" y="${px(plot.bottom + titleOffset)}" text-anchor="middle" font-size="${AXIS_TITLE_FONT}" fill="${ink.text}">${escapeXml(title)}</text>`
  );
}

/** A label centered on `x`, moved inward when half of it would pass an image edge. */
function centered(text: string, x: number, y: number, width: number): string {
  const half = textWidth(text, TICK_FONT) / 2;
  const shifted = Math.min(Math.max(x, half + 4), width - half - 4);
  return `<text x="${px(shifted)}" y="${px(y)}">${escapeXml(text)}</text>`;
}

/** The plot area's outline, drawn last so lines at the edge do not cover it. */
export function frameSvg(plot: Rect, ink: Theme): string {
  const left = crisp(plot.left);
  const top = crisp(plot.top);
  return `<rect x="${px(left)}" y="${px(top)}" width="${px(crisp(plot.right) - left)}" height="${px(crisp(plot.bottom) - top)}" fill="none" stroke="${ink.frame}" stroke-width="1"/>`;
}
