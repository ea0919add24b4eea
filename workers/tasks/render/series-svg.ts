import { alertMarker } from './legend.js';
import { seriesColor, tint, type Theme } from './palette.js';
import { alertPoints, bandPath, chains, pieces, polyline, px, simplify, type Chain } from './paths.js';
import type { PreparedSeries } from './points.js';
import type { Scale } from './scale.js';
import type { StrokeStyle } from './stroke.js';

/** Points per `<path>` of a line; see {@link pieces} and bench/plot-image.bench.ts for why lines are cut. */
export const LINE_PIECE = 64;
/**
 * Pixels a simplified line may stray from the exact one: a quarter pixel is invisible once anti-aliased; limits
 * and bands are secondary and smooth, so half a pixel there saves more points.
 */
const LINE_TOLERANCE = 0.25;
const LIMIT_TOLERANCE = 0.5;
/**
 * Limit lines are the series' color moved toward the background rather than drawn translucent: an opaque stroke
 * rasterizes about 20 ms faster for eight series (a translucent one is composited through a mask).
 */
const LIMIT_TINT = 0.35;
/**
 * Joins and caps of the lines. Round ones make cairo add an arc at each of the 8,000 vertices of an 8 x 1,000
 * image; bevel joins and butt caps cost 7-12% less CPU to rasterize (interleaved, same SVG) and look the same
 * at 1.5 px wide, even zoomed 6x: a bevel cuts at most half the width off the tip of a spike, and where pieces
 * meet, both end on the shared point. Dense lines have no lone points (sparse ones get dots), so no cap has to
 * draw a dot.
 */
const LINE_STROKE = 'stroke-width="1.5" stroke-linejoin="bevel" stroke-linecap="butt"';
/** A series with fewer points than one per this many pixels of width also gets a dot at each point. */
const DOT_SPACING = 12;

/** A series line as the PNG path draws it: its color and its pixel chain (decimated and simplified). */
export interface LineStroke {
  readonly color: string;
  readonly line: Chain;
}

/** A limit line as drawn: its color (the series' color toward the background) and its subpaths. */
export interface LimitStroke {
  readonly color: string;
  readonly subpaths: Chain[];
}

/** The layers of all series, drawn in this order so markers stay on top of lines and lines on top of bands. */
export interface SeriesLayers {
  readonly bands: string;
  /** Each series' lower and upper limit lines, one path each (drawn by {@link limitsSvg}, or by stroke.ts). */
  readonly limits: LimitStroke[];
  /** Each series' line (drawn by {@link linesSvg} in the SVG, by stroke.ts in the PNG). */
  readonly strokes: LineStroke[];
  readonly markers: string;
}

/** The SVG of every series on the given scales; series i takes palette color i. */
export function seriesSvg(
  series: readonly PreparedSeries[],
  x: Scale,
  y: Scale,
  plotWidth: number,
  theme: Theme,
): SeriesLayers {
  const bands: string[] = [];
  const limits: LimitStroke[] = [];
  const strokes: LineStroke[] = [];
  const markers: string[] = [];
  series.forEach((s, index) => {
    const color = seriesColor(theme, index);
    const band = bandPath(s, x, y, LIMIT_TOLERANCE);
    if (band !== '') bands.push(`<path d="${band}" fill="${color}" fill-opacity="0.13"/>`);
    for (const column of [s.source.lower, s.source.upper]) {
      if (!column) continue;
      const subpaths = chains(s, column, x, y, true, LIMIT_TOLERANCE);
      if (subpaths.length > 0) limits.push({ color: tint(color, LIMIT_TINT, theme.background), subpaths });
    }
    const [exact = []] = chains(s, s.source.y, x, y, false, 0);
    // a sparse line gets a dot on every point, so it keeps every point; a dense one is simplified
    const sparse = exact.length > 0 && exact.length / 2 <= plotWidth / DOT_SPACING;
    const line = sparse ? exact : simplify(exact, LINE_TOLERANCE);
    if (line.length > 0) strokes.push({ color, line });
    if (sparse) markers.push(dots(line, color));
    const alerts = alertPoints(s, x, y);
    for (let k = 0; k < alerts.length; k += 2) {
      markers.push(alertMarker(alerts[k] as number, alerts[k + 1] as number, color, theme));
    }
  });
  return {
    bands: bands.join(''),
    limits,
    strokes,
    markers: markers.join(''),
  };
}

/** How limit lines are stroked: 1 px, in dashes of 5 px with gaps of 4. */
export const LIMIT_LINE: StrokeStyle = { width: 1, dash: [5, 4] };

/** The SVG of the limit lines. */
export function limitsSvg(limits: readonly LimitStroke[]): string {
  if (limits.length === 0) return '';
  const paths = limits.map(
    ({ color, subpaths }) => `<path d="${subpaths.map(polyline).join(' ')}" stroke="${color}"/>`,
  );
  const [on, off] = LIMIT_LINE.dash ?? [];
  return `<g fill="none" stroke-width="${LIMIT_LINE.width}" stroke-dasharray="${on} ${off}">${paths.join('')}</g>`;
}

/** The SVG of the series lines, each cut into `<path>`s of `linePiece` points. */
export function linesSvg(strokes: readonly LineStroke[]): string {
  if (strokes.length === 0) return '';
  const groups = strokes.map(({ color, line }) => {
    const paths = pieces(line, LINE_PIECE).map((piece) => `<path d="${polyline(piece)}"/>`);
    return `<g stroke="${color}">${paths.join('')}</g>`;
  });
  return `<g fill="none" ${LINE_STROKE}>${groups.join('')}</g>`;
}

/** A dot at each point of a sparse line, so single points and few-point series are visible. */
function dots(line: Chain, color: string): string {
  const circles: string[] = [];
  for (let k = 0; k < line.length; k += 2) {
    circles.push(`<circle cx="${px(line[k] as number)}" cy="${px(line[k + 1] as number)}" r="2.5"/>`);
  }
  return `<g fill="${color}">${circles.join('')}</g>`;
}
