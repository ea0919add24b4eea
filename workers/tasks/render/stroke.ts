import type { Chain } from './paths.js';

/** An RGB image in memory: rows top to bottom, 3 bytes a pixel, no padding. */
export interface Canvas {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** A box of whole pixels: columns left to right - 1, rows top to bottom - 1. */
export interface PixelBox {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** How a polyline is stroked: its width in pixels and, for a dashed line, the lengths of its dashes and gaps. */
export interface StrokeStyle {
  readonly width: number;
  readonly dash?: readonly [number, number];
}

/** A series line: 1.5 px, solid. */
export const SERIES_LINE: StrokeStyle = { width: 1.5 };

/** `#rrggbb` as 0xrrggbb. */
export function rgb(color: string): number {
  return Number.parseInt(color.slice(1, 7), 16);
}

/** A line's ink: the pixels it covers (index y * width + x), each once, and how much (1 to 255). */
export interface LineMask {
  readonly pixels: Int32Array;
  readonly coverage: Uint8Array;
}

/**
 * Anti-aliased polylines as masks, clipped to a box, for the PNG path: cairo's stroking of the 8,000 segments of
 * an 8 x 1,000 image cost more than everything else the rasterizer does (see docs/plots.md, Performance). A pixel
 * whose center is at distance d from a line's center line gets the coverage `width / 2 + 0.5 - d` (clamped to
 * 0..1): for a horizontal or vertical line exactly the share of the pixel's square the line covers, for other
 * directions within a few percent of it. A path's coverage of a pixel is the largest coverage of any of its
 * segments (so the joins are round and a pixel two segments share is not inked twice), and {@link blendMask}
 * blends it once in the path's color, like a stroke's single outline in cairo. Ends are butt (a subpath stops at its
 * first and last point), and a dash pattern starts again at each subpath, as cairo draws the SVG. Masks need no
 * canvas, so they can be computed while sharp rasterizes the layers under them.
 */
export class LineMasker {
  private readonly coverage: Uint8Array;
  private touched = new Int32Array(1 << 14);
  private count = 0;

  constructor(
    private readonly width: number,
    height: number,
    private readonly clip: PixelBox,
  ) {
    this.coverage = new Uint8Array(width * height);
  }

  /** The mask of a path of one or more subpaths (pixel coordinates, as the SVG's path data but not rounded). */
  mask(subpaths: readonly Chain[], style: StrokeStyle = SERIES_LINE): LineMask {
    for (const chain of subpaths) this.subpath(chain, style);
    const pixels = this.touched.slice(0, this.count);
    const coverage = new Uint8Array(this.count);
    for (let k = 0; k < this.count; k++) {
      const p = pixels[k] as number;
      coverage[k] = this.coverage[p] as number;
      this.coverage[p] = 0;
    }
    this.count = 0;
    return { pixels, coverage };
  }

  private subpath(chain: Chain, style: StrokeStyle): void {
    // the ends are the first and last points that differ from their neighbour: a repeated point draws nothing
    const moves = (k: number) => chain[2 * k] !== chain[2 * k + 2] || chain[2 * k + 1] !== chain[2 * k + 3];
    let first = 0;
    let last = chain.length / 2 - 2;
    while (first <= last && !moves(first)) first++;
    while (last >= first && !moves(last)) last--;
    let travelled = 0;
    for (let k = first; k <= last; k++) {
      const x0 = chain[2 * k] as number;
      const y0 = chain[2 * k + 1] as number;
      const x1 = chain[2 * k + 2] as number;
      const y1 = chain[2 * k + 3] as number;
      travelled += this.segment(x0, y0, x1, y1, { style, butt0: k === first, butt1: k === last, travelled });
    }
  }

  /**
   * The coverage of one segment. `butt0` and `butt1` cut the line square at that end (a subpath's first and last
   * point); elsewhere the ends are round, which joins consecutive segments without a gap. `travelled` is the length
   * of the subpath before the segment, where a dash pattern stands at its start. Returns the segment's length.
   */
  private segment(x0: number, y0: number, x1: number, y1: number, at: SegmentPlace): number {
    const length = Math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
    // zero length: a butt-capped stroke draws nothing there (the neighbours draw the point); NaN or infinite
    // coordinates are never produced by the scales, but must not make a loop run forever
    if (!(length > 0) || !Number.isFinite(length)) return 0;
    const { left, top, right, bottom } = this.clip;
    const { butt0, butt1, travelled, style } = at;
    const reach = style.width / 2 + 0.5;
    const on = style.dash ? style.dash[0] : 0;
    const period = style.dash ? style.dash[0] + style.dash[1] : 0;
    // pixels whose stretch along the line may be cut (by an end or by the dashes): outside (startCut, endCut)
    const startCut = on > 0 ? Infinity : butt0 ? 0.5 : -Infinity;
    const endCut = on > 0 ? -Infinity : butt1 ? length - 0.5 : Infinity;
    const width = this.width;
    // coordinates (a, b): a along the axis the segment runs more along (one step per pixel), b across it;
    // distances are the same in either frame
    const xMajor = Math.abs(x1 - x0) >= Math.abs(y1 - y0);
    const a0 = xMajor ? x0 : y0;
    const b0 = xMajor ? y0 : x0;
    const da = xMajor ? x1 - x0 : y1 - y0;
    const db = xMajor ? y1 - y0 : x1 - x0;
    const strideA = xMajor ? 1 : width;
    const strideB = xMajor ? width : 1;
    const bLow = xMajor ? top : left;
    const bHigh = (xMajor ? bottom : right) - 1;
    const ua = da / length;
    const ub = db / length;
    const slope = db / da;
    // the band's extent across at one position along: reach / cos(angle) either side of the center line
    const across = reach / Math.abs(ua) + 0.5;
    const minA = Math.min(0, da);
    const maxA = Math.max(0, da);
    const from = Math.max(xMajor ? left : top, Math.floor(a0 + minA - reach));
    const to = Math.min((xMajor ? right : bottom) - 1, Math.floor(a0 + maxA + reach));
    for (let a = from; a <= to; a++) {
      const ca = a + 0.5 - a0;
      const mid = b0 + Math.min(maxA, Math.max(minA, ca)) * slope;
      const bFrom = Math.max(bLow, Math.floor(mid - across));
      const bTo = Math.min(bHigh, Math.floor(mid + across));
      for (let b = bFrom; b <= bTo; b++) {
        const cb = b + 0.5 - b0;
        const along = ca * ua + cb * ub;
        let distance;
        if (along < 0) distance = Math.sqrt(ca * ca + cb * cb);
        else if (along > length) distance = Math.sqrt((ca - da) * (ca - da) + (cb - db) * (cb - db));
        else distance = Math.abs(ca * ub - cb * ua);
        let c = reach - distance;
        if (c <= 0) continue;
        if (c > 1) c = 1;
        // along the line, the part of the pixel's square (the stretch from along - 0.5 to along + 0.5) that is
        // before a butt end or in a gap between dashes gets no ink
        if (along < startCut || along > endCut) {
          const low = butt0 ? Math.max(0, along - 0.5) : along - 0.5;
          const high = butt1 ? Math.min(length, along + 0.5) : along + 0.5;
          c *= on > 0 ? dashCover(travelled + low, travelled + high, on, period) : Math.max(0, high - low);
        }
        if (c > 0) this.add(a * strideA + b * strideB, c >= 1 ? 255 : (c * 255 + 0.5) | 0);
      }
    }
    return length;
  }

  private add(p: number, value: number): void {
    const old = this.coverage[p] as number;
    if (value <= old) return;
    if (old === 0) {
      if (this.count === this.touched.length) {
        const grown = new Int32Array(this.touched.length * 2);
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[this.count++] = p;
    }
    this.coverage[p] = value;
  }
}

interface SegmentPlace {
  readonly style: StrokeStyle;
  readonly butt0: boolean;
  readonly butt1: boolean;
  readonly travelled: number;
}

/** How much of the stretch from `low` to `high` along a dashed line lies in its dashes. */
function dashCover(low: number, high: number, on: number, period: number): number {
  let cover = 0;
  for (let start = Math.floor(low / period) * period; start < high; start += period) {
    cover += Math.max(0, Math.min(high, start + on) - Math.max(low, start));
  }
  return cover;
}

/** Blends `color` (0xrrggbb) into an RGB canvas where a mask covers it. */
export function blendMask(canvas: Canvas, mask: LineMask, color: number): void {
  const { data } = canvas;
  const { pixels, coverage } = mask;
  const r = (color >> 16) & 255;
  const g = (color >> 8) & 255;
  const b = color & 255;
  for (let k = 0; k < pixels.length; k++) {
    const o = 3 * (pixels[k] as number);
    const a = coverage[k] as number;
    if (a === 255) {
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
      continue;
    }
    const keep = 255 - a;
    data[o] = (r * a + (data[o] as number) * keep + 127) / 255;
    data[o + 1] = (g * a + (data[o + 1] as number) * keep + 127) / 255;
    data[o + 2] = (b * a + (data[o + 2] as number) * keep + 127) / 255;
  }
}
