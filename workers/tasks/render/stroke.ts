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

/** Half the width of a series line (1.5 px, as in the SVG). */
export const LINE_HALF_WIDTH = 0.75;
/**
 * How far from a line's center a pixel center still gets ink: half the width plus half a pixel. A pixel at
 * distance d gets coverage REACH - d (clamped to 0..1), which for a horizontal or vertical line is exactly the
 * area of the pixel square the 1.5 px band covers, and for any other direction within a few percent of it.
 */
const REACH = LINE_HALF_WIDTH + 0.5;

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
 * Anti-aliased 1.5 px polylines as masks, clipped to a box, for the PNG path: cairo's stroking of the 8,000
 * segments of an 8 x 1,000 image cost more than everything else the rasterizer does (see docs/plots.md,
 * Performance). A polyline's coverage of a pixel is the largest coverage of any of its segments (so the joins are
 * round and a pixel two segments share is not inked twice), and {@link blendMask} blends it once in the line's
 * color, like a stroke's single outline in cairo. Ends are butt (the line stops at its first and last point), as
 * in the SVG. Masks need no canvas, so they can be computed while sharp rasterizes the layers under them.
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

  /** The mask of a polyline (pixel coordinates, as the SVG's path data but not rounded). */
  mask(chain: Chain): LineMask {
    // the ends are the first and last points that differ from their neighbour: a repeated point draws nothing
    const moves = (k: number) => chain[2 * k] !== chain[2 * k + 2] || chain[2 * k + 1] !== chain[2 * k + 3];
    let first = 0;
    let last = chain.length / 2 - 2;
    while (first <= last && !moves(first)) first++;
    while (last >= first && !moves(last)) last--;
    for (let k = first; k <= last; k++) {
      this.segment(
        chain[2 * k] as number,
        chain[2 * k + 1] as number,
        chain[2 * k + 2] as number,
        chain[2 * k + 3] as number,
        k === first,
        k === last,
      );
    }
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

  /**
   * The coverage of one segment. `butt0` and `butt1` cut the line square at that end (a polyline's first and
   * last point); elsewhere the ends are round, which joins consecutive segments without a gap.
   */
  private segment(x0: number, y0: number, x1: number, y1: number, butt0: boolean, butt1: boolean): void {
    const length = Math.hypot(x1 - x0, y1 - y0);
    // zero length: a butt-capped stroke draws nothing there (the neighbours draw the point); NaN or infinite
    // coordinates are never produced by the scales, but must not make a loop run forever
    if (!(length > 0) || !Number.isFinite(length)) return;
    const { left, top, right, bottom } = this.clip;
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
    // the band's extent across at one position along: REACH / cos(angle) either side of the center line
    const across = REACH / Math.abs(ua) + 0.5;
    const minA = Math.min(0, da);
    const maxA = Math.max(0, da);
    const from = Math.max(xMajor ? left : top, Math.floor(a0 + minA - REACH));
    const to = Math.min((xMajor ? right : bottom) - 1, Math.floor(a0 + maxA + REACH));
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
        let c = REACH - distance;
        // a butt end covers the part of the pixel square before it: half the pixel at its center
        if (butt0 && along < 0.5) c = Math.min(c, 0.5 + along);
        if (butt1 && along > length - 0.5) c = Math.min(c, 0.5 + length - along);
        if (c > 0) this.add(a * strideA + b * strideB, c >= 1 ? 255 : (c * 255 + 0.5) | 0);
      }
    }
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
