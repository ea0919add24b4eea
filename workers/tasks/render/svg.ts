import type { PlotImage } from '../../../core/perf/image-input.js';
import {
  AXIS_TITLE_FONT,
  frameSvg,
  ticksWidth,
  TICK_FONT,
  xTitleOffset,
  xAxisSvg,
  yAxisSvg,
  type Rect,
} from './axes.js';
import { cleanText } from './escape.js';
import { headerSvg } from './header.js';
import { layoutLegend, legendSvg, type LegendEntry } from './legend.js';
import { seriesColor, THEMES, type Theme } from './palette.js';
import { prepareSeries, seriesFeatures, valueRange, xExtent, type PreparedSeries } from './points.js';
import { chooseYScale, linearScale, logScale, type ValueRange } from './scale.js';
import { changesSvg, regressionsSvg } from './changes-svg.js';
import { limitsSvg, linesSvg, seriesSvg, type LimitStroke, type LineStroke } from './series-svg.js';
import { splitSharedParts } from './shared-labels.js';
import { textWidth } from './text-width.js';
import { clampFinite, linearTicks, logTicks, type AxisTicks } from './ticks.js';
import { timeAxisTitle } from './time-format.js';
import { isTimeRange, timeTicks } from './time-ticks.js';

/** The font every text element uses; the image's look depends on it being installed (fonts-dejavu-core). */
export const FONT_FAMILY = 'DejaVu Sans';
export const NO_DATA_MESSAGE = 'No data for this selection';
const EDGE = 16;
/** Share of the data's range left blank on each side, so extreme points do not sit on the frame. */
const PAD = 0.03;

/**
 * A plot image in layers, bottom to top: the SVG document of everything under the limit and series lines, those
 * lines (as pixel chains), the change points and markers above them, and the plot's frame on top. The SVG format
 * joins them all, the lines as paths (see {@link buildPlotSvg}); the PNG path rasterizes `under` and `over` with
 * sharp and draws the lines and the frame itself (see rasterize.ts).
 */
export interface PlotLayers {
  readonly width: number;
  readonly height: number;
  readonly theme: Theme;
  /** A whole SVG document: background, header, axes and gridlines, boundary bands, legend. */
  readonly under: string;
  /** The limit lines, over `under` (which holds the bands under them). */
  readonly limits: readonly LimitStroke[];
  /** The series lines, over the limit lines, in drawing order (the later on top). */
  readonly strokes: readonly LineStroke[];
  /** Change points and markers, over the lines (SVG elements, no document). */
  readonly over: string;
  /** The plot area framed on top of everything; undefined when there is no data (`under` holds the frame then). */
  readonly plot?: Rect;
}

/**
 * The SVG document of a plot image: title (and the label parts all series share), plot area with gridlines,
 * boundary bands, limit lines, series lines, change points and alert markers, both axes with tick labels and titles, and the
 * legend below. Pure and deterministic: the
 * same input gives the same text, so the same PNG.
 */
export function buildPlotSvg(image: PlotImage): string {
  const layers = buildPlotLayers(image);
  const close = layers.under.lastIndexOf('</svg>');
  const frame = layers.plot ? frameSvg(layers.plot, layers.theme) : '';
  const lines = limitsSvg(layers.limits) + linesSvg(layers.strokes);
  return layers.under.slice(0, close) + lines + layers.over + frame + '</svg>';
}

/** The layers of a plot image (see {@link PlotLayers}). */
export function buildPlotLayers(image: PlotImage): PlotLayers {
  const { width, height } = image;
  const theme = THEMES[image.theme];
  const series = prepareSeries(image);
  const range = valueRange(series);
  const yType = chooseYScale(image.yAxis, range);
  const extent = xExtent(series);
  const features = {
    ...seriesFeatures(series, yType === 'log'),
    hasChanges: image.series.some((s) => (s.changes?.length ?? 0) > 0),
  };
  const labels = splitSharedParts(image.series.map((s, i) => cleanText(s.label) || `Series ${i + 1}`));
  const header = headerSvg(cleanText(image.title ?? ''), labels.shared, width, theme);
  const notes = image.series.map((s) => (s.change === undefined ? undefined : changeText(s.change)));
  const legend = layoutLegend(legendEntries(labels.distinct, notes, features, theme), width - 2 * EDGE);
  const top = header.height;
  const titleOffset = xTitleOffset(image.xAxis);
  const bottom = height - (titleOffset + 10 + legend.height + 8);
  const yTitle = axisTitle(image.measure);
  const body =
    extent === undefined
      ? {
          under: emptyPlot({ left: EDGE, top, right: width - EDGE, bottom }, width, yTitle, image, theme),
          limits: [],
          strokes: [],
          over: '',
        }
      : plotBody(image, series, { range, yType, extent, top, bottom, yTitle }, theme);
  const under = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}" font-size="${TICK_FONT}">`,
    `<rect width="${width}" height="${height}" fill="${theme.background}"/>`,
    header.svg,
    body.under,
    `<g fill="${theme.text}">${legendSvg(legend, bottom + titleOffset + 10, EDGE, theme)}</g>`,
    '</svg>',
  ].join('');
  return { width, height, theme, ...body, under };
}

interface BodyLayout {
  readonly range: ValueRange;
  readonly yType: 'linear' | 'log';
  readonly extent: [number, number];
  readonly top: number;
  readonly bottom: number;
  readonly yTitle: string;
}

/** Axes, gridlines and series of a plot with data, in layers. */
function plotBody(
  image: PlotImage,
  series: readonly PreparedSeries[],
  layout: BodyLayout,
  theme: Theme,
): Omit<PlotLayers, 'width' | 'height' | 'theme'> {
  const { top, bottom, range, yType, yTitle } = layout;
  const count = Math.max(2, Math.min(8, Math.floor((bottom - top) / 55)));
  const y = yTicks(range, yType, count);
  const left = Math.round(EDGE + AXIS_TITLE_FONT + 16 + ticksWidth(y.ticks));
  const plot: Rect = { left, top, right: image.width - EDGE - 8, bottom };
  const yScale = (yType === 'log' ? logScale : linearScale)(y.domain, [bottom, top]);
  const x = xTicks(image, layout.extent, plot.right - plot.left);
  const xScale = linearScale(x.domain, [plot.left, plot.right]);
  const layers = seriesSvg(series, xScale, yScale, plot.right - plot.left, theme);
  return {
    under: [
      yAxisSvg(y.ticks, yScale, plot, yTitle, theme),
      xAxisSvg(x.ticks, xScale, plot, image.width, x.title, xTitleOffset(image.xAxis), theme),
      layers.bands,
    ].join(''),
    limits: layers.limits,
    strokes: layers.strokes,
    over:
      changesSvg(image.series, xScale, yScale, plot, theme) +
      regressionsSvg(image.series, xScale, plot, theme) +
      layers.markers,
    plot,
  };
}

/** The frame, axis titles and centered message of an image with nothing to draw. */
function emptyPlot(plot: Rect, width: number, yTitle: string, image: PlotImage, theme: Theme): string {
  const xTitle = image.xAxis === 'version' ? 'Branch version' : 'Date (UTC)';
  const message = `<text x="${(plot.left + plot.right) / 2}" y="${(plot.top + plot.bottom) / 2 + 6}" text-anchor="middle" font-size="16" fill="${theme.muted}">${NO_DATA_MESSAGE}</text>`;
  const framed: Rect = { ...plot, left: plot.left + AXIS_TITLE_FONT + 16 };
  return (
    yAxisSvg([], linearScale([0, 1], [plot.bottom, plot.top]), framed, yTitle, theme) +
    xAxisSvg(
      [],
      linearScale([0, 1], [framed.left, plot.right]),
      framed,
      width,
      xTitle,
      xTitleOffset(image.xAxis),
      theme,
    ) +
    frameSvg(framed, theme) +
    message
  );
}

/** `Latency (nanoseconds (ns))`: the measure's name and its units, as the y axis title. */
export function axisTitle(measure: { name: string; units: string }): string {
  const name = cleanText(measure.name);
  const units = cleanText(measure.units);
  return units === '' ? name : `${name} (${units})`;
}

function yTicks(range: ValueRange, type: 'linear' | 'log', count: number): AxisTicks {
  if (type === 'log') {
    // the same share of the axis as a linear one leaves, measured in decades (logTicks clamps the bounds to the
    // positive doubles: 1e300 padded by nine decades is Infinity)
    const factor = Math.max(1 + PAD, (range.max / range.minPositive) ** PAD);
    return logTicks(range.minPositive / factor, range.max * factor, count);
  }
  const [min, max] = padded(range.min, range.max);
  // all values at or above zero: the axis may start at zero but not below it
  return linearTicks(range.min >= 0 ? Math.max(0, min) : min, max, count);
}

/** [min, max] widened by PAD of its span on each side, staying inside the finite doubles. */
function padded(min: number, max: number): [number, number] {
  const span = max - min;
  const pad = Number.isFinite(span) ? span * PAD : max * PAD - min * PAD;
  return [clampFinite(min - pad), clampFinite(max + pad)];
}

/** The x axis: the requested range or the data's, padded; time ticks on a date axis, integers on a version axis. */
function xTicks(
  image: PlotImage,
  extent: [number, number],
  plotWidth: number,
): AxisTicks & { title: string } {
  const flat = image.xAxis === 'version' ? 1 : 3_600_000;
  const data: [number, number] =
    extent[1] > extent[0] ? padded(...extent) : [extent[0] - flat, extent[1] + flat];
  const min = image.xRange?.start ?? data[0];
  const max = image.xRange?.end ?? data[1];
  if (image.xAxis === 'date_time' && isTimeRange(min, max)) {
    const ticks = timeTicks(min, max, plotWidth, TICK_FONT);
    return { ...ticks, title: timeAxisTitle(ticks.unit) };
  }
  const labelWidth = textWidth(String(Math.round(Math.max(Math.abs(min), Math.abs(max)))), TICK_FONT);
  const count = Math.max(2, Math.floor(plotWidth / (labelWidth + 40)));
  const integer = image.xAxis === 'version';
  const ticks = linearTicks(min, max, count, { integer, widen: false });
  return { ...ticks, title: integer ? 'Branch version' : 'Date (UTC, epoch ms)' };
}

/** A change from the baseline as the CLI writes it: `+29.08%`, `-1.50%`. */
function changeText(change: number): string {
  return `${change >= 0 ? '+' : ''}${change.toFixed(2)}%`;
}

function legendEntries(
  labels: readonly string[],
  notes: readonly (string | undefined)[],
  features: { hasLimits: boolean; hasAlerts: boolean; hasChanges: boolean },
  theme: Theme,
): LegendEntry[] {
  const entries: LegendEntry[] = labels.map((text, i) => ({
    swatch: 'line',
    color: seriesColor(theme, i),
    text,
    ...(notes[i] === undefined ? {} : { note: notes[i] }),
  }));
  if (features.hasLimits) entries.push({ swatch: 'band', color: theme.muted, text: 'Boundary limits' });
  if (features.hasAlerts) entries.push({ swatch: 'alert', color: theme.muted, text: 'Alert' });
  if (features.hasChanges)
    entries.push({ swatch: 'line', color: theme.muted, text: 'Change point (levels before and after)' });
  return entries;
}
