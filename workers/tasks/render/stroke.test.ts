import { describe, expect, it } from 'vitest';
import type { Chain } from './paths.js';
import { blendMask, LineMasker, rgb, type Canvas, type PixelBox, type StrokeStyle } from './stroke.js';

const WIDTH = 60;
const HEIGHT = 40;
const WHITE = 0xffffff;
const BLUE = 0x0072b2;
const ORANGE = 0xd55e00;

function canvas(background = WHITE): Canvas {
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  for (let p = 0; p < WIDTH * HEIGHT; p++) {
    data[3 * p] = background >> 16;
    data[3 * p + 1] = (background >> 8) & 255;
    data[3 * p + 2] = background & 255;
  }
  return { data, width: WIDTH, height: HEIGHT };
}

const ALL: PixelBox = { left: 0, top: 0, right: WIDTH, bottom: HEIGHT };

function draw(lines: [Chain, number][], clip = ALL, background = WHITE): Canvas {
  const c = canvas(background);
  const masker = new LineMasker(WIDTH, HEIGHT, clip);
  for (const [chain, color] of lines) blendMask(c, masker.mask([chain]), color);
  return c;
}

const DASHED: StrokeStyle = { width: 1, dash: [5, 4] };

function drawDashed(subpaths: Chain[], color: number): Canvas {
  const c = canvas();
  blendMask(c, new LineMasker(WIDTH, HEIGHT, ALL).mask(subpaths, DASHED), color);
  return c;
}

function pixel(c: Canvas, x: number, y: number): number {
  const o = 3 * (y * c.width + x);
  return ((c.data[o] as number) << 16) | ((c.data[o + 1] as number) << 8) | (c.data[o + 2] as number);
}

/** How much of `color` (0 to 1) a pixel shows over `background`, from its red, green and blue together. */
function coverage(c: Canvas, x: number, y: number, color: number, background = WHITE): number {
  const value = pixel(c, x, y);
  let moved = 0;
  let span = 0;
  for (const shift of [16, 8, 0]) {
    const from = (background >> shift) & 255;
    moved += Math.abs(((value >> shift) & 255) - from);
    span += Math.abs(((color >> shift) & 255) - from);
  }
  return moved / span;
}

/** Total coverage of `color` over the whole canvas, in pixels. */
function ink(c: Canvas, color: number): number {
  let sum = 0;
  for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) sum += coverage(c, x, y, color);
  return sum;
}

describe('LineMasker and blendMask', () => {
  it('draws a horizontal line on a pixel row center 1.5 px wide: the row full, a quarter on each side', () => {
    const c = draw([[[5, 10.5, 50, 10.5], BLUE]]);
    for (let x = 5; x < 50; x++) {
      expect(pixel(c, x, 10)).toBe(BLUE);
      expect(coverage(c, x, 9, BLUE)).toBeCloseTo(0.25, 1);
      expect(coverage(c, x, 11, BLUE)).toBeCloseTo(0.25, 1);
      expect(pixel(c, x, 8)).toBe(WHITE);
      expect(pixel(c, x, 12)).toBe(WHITE);
    }
    // butt ends: the line stops at x = 5 and x = 50, the pixel edges
    expect(pixel(c, 4, 10)).toBe(WHITE);
    expect(pixel(c, 50, 10)).toBe(WHITE);
  });

  it('draws a vertical line the same way, across columns', () => {
    const c = draw([[[20.5, 3, 20.5, 30], ORANGE]]);
    for (let y = 3; y < 30; y++) {
      expect(pixel(c, 20, y)).toBe(ORANGE);
      expect(coverage(c, 19, y, ORANGE)).toBeCloseTo(0.25, 1);
      expect(coverage(c, 21, y, ORANGE)).toBeCloseTo(0.25, 1);
      expect(pixel(c, 18, y)).toBe(WHITE);
    }
    expect(pixel(c, 20, 2)).toBe(WHITE);
    expect(pixel(c, 20, 30)).toBe(WHITE);
  });

  it('splits a line between two rows when it runs on their boundary', () => {
    const c = draw([[[5, 10, 50, 10], BLUE]]);
    expect(coverage(c, 20, 9, BLUE)).toBeCloseTo(0.75, 1);
    expect(coverage(c, 20, 10, BLUE)).toBeCloseTo(0.75, 1);
    expect(pixel(c, 20, 8)).toBe(WHITE);
  });

  it('puts 1.5 px of ink per pixel of length along a diagonal, on the pixels the line passes through', () => {
    const c = draw([[[10, 5, 40, 35], BLUE]]);
    const length = Math.hypot(30, 30);
    expect(ink(c, BLUE) / length).toBeGreaterThan(1.5 * 0.95);
    expect(ink(c, BLUE) / length).toBeLessThan(1.5 * 1.05);
    for (let k = 1; k < 29; k++) expect(coverage(c, 10 + k, 5 + k, BLUE)).toBeGreaterThan(0.95);
    expect(pixel(c, 10 + 20, 5 + 10)).toBe(WHITE);
  });

  it('draws nothing for a zero-length segment or a single point, and skips one inside a line', () => {
    expect(ink(draw([[[20, 20, 20, 20], BLUE]]), BLUE)).toBe(0);
    expect(ink(draw([[[20, 20], BLUE]]), BLUE)).toBe(0);
    const repeated = draw([[[5, 10.5, 5, 10.5, 50, 10.5, 50, 10.5], BLUE]]);
    expect(repeated.data).toEqual(draw([[[5, 10.5, 50, 10.5], BLUE]]).data);
  });

  it('inks a pixel that several segments of one line cover once, as one stroke', () => {
    // there and back along the same row, then a spike: no pixel gets more than its coverage by one segment
    const c = draw([[[5, 10.5, 40, 10.5, 5, 10.5, 30, 10.5, 31, 2, 32, 10.5], BLUE]]);
    expect(coverage(c, 20, 9, BLUE)).toBeCloseTo(0.25, 1);
    expect(coverage(c, 20, 11, BLUE)).toBeCloseTo(0.25, 1);
    expect(pixel(c, 20, 10)).toBe(BLUE);
  });

  it('paints later lines over earlier ones', () => {
    const c = draw([
      [[5, 10.5, 50, 10.5], BLUE],
      [[30.5, 2, 30.5, 30], ORANGE],
    ]);
    expect(pixel(c, 30, 10)).toBe(ORANGE);
    expect(pixel(c, 10, 10)).toBe(BLUE);
    const under = draw([
      [[30.5, 2, 30.5, 30], ORANGE],
      [[5, 10.5, 50, 10.5], BLUE],
    ]);
    expect(pixel(under, 30, 10)).toBe(BLUE);
  });

  it('blends over a dark background', () => {
    const background = 0x0d1117;
    const c = draw([[[5, 10.5, 50, 10.5], rgb('#3c9ee0')]], ALL, background);
    expect(pixel(c, 20, 10)).toBe(0x3c9ee0);
    expect(coverage(c, 20, 9, 0x3c9ee0, background)).toBeCloseTo(0.25, 1);
    expect(pixel(c, 20, 7)).toBe(background);
  });

  it('never draws outside its clip box, even for coordinates far outside the image', () => {
    const clip: PixelBox = { left: 10, top: 5, right: 40, bottom: 30 };
    const c = draw(
      [
        [[-1e12, 10.5, 1e12, 10.5], BLUE],
        [[20.5, -1e15, 20.5, 1e15], ORANGE],
        [[0, 0, 59, 39], BLUE],
      ],
      clip,
    );
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const inside = x >= clip.left && x < clip.right && y >= clip.top && y < clip.bottom;
        if (!inside) expect(pixel(c, x, y), `${x},${y}`).toBe(WHITE);
      }
    }
    for (let x = 10; x < 40; x++) if (Math.abs(x - 20) > 1) expect(pixel(c, x, 10)).toBe(BLUE);
    for (let y = 5; y < 30; y++) if (y !== 10) expect(pixel(c, 20, y)).not.toBe(WHITE);
  });

  it('ignores segments with NaN or infinite coordinates and draws the rest of the line', () => {
    const c = draw([[[5, 10.5, Number.NaN, 10.5, 50, Number.POSITIVE_INFINITY, 50, 20.5, 55, 20.5], BLUE]]);
    expect(pixel(c, 52, 20)).toBe(BLUE);
    expect(ink(c, BLUE)).toBeLessThan(1.5 * 6);
  });

  it('dashes a 1 px line 5 on, 4 off, along the whole polyline, starting again at each subpath', () => {
    const c = drawDashed(
      [
        [0, 10.5, 7.5, 10.5, 7.5, 39],
        [30, 5.5, 55, 5.5],
      ],
      BLUE,
    );
    const on = (x: number, y: number) => expect(pixel(c, x, y), `${x},${y}`).toBe(BLUE);
    const off = (x: number, y: number) => expect(pixel(c, x, y), `${x},${y}`).toBe(WHITE);
    for (const x of [0, 1, 2, 3, 4]) on(x, 10);
    for (const x of [5, 6]) off(x, 10);
    for (let x = 0; x < 7; x++) {
      off(x, 9);
      off(x, 11);
    }
    // the corner at x = 7.5: the pattern goes on down the vertical part, 7.5 px into it (a gap until 9)
    for (const y of [12, 13, 14, 15, 16, 21, 22, 23, 24, 25]) on(7, y);
    for (const y of [11, 17, 18, 19, 20, 26]) off(7, y);
    // the second subpath starts a dash of its own at x = 30
    for (const x of [30, 31, 32, 33, 34, 39, 40, 41, 42, 43]) on(x, 5);
    for (const x of [29, 35, 36, 37, 38, 44]) off(x, 5);
  });

  it('covers half a pixel where a dash ends in its middle', () => {
    const c = drawDashed([[0.5, 10.5, 40, 10.5]], BLUE);
    // dashes from 0.5 to 5.5, 9.5 to 14.5: pixels 0, 5, 9 and 14 half inside
    for (const x of [0, 5, 9, 14]) expect(coverage(c, x, 10, BLUE), String(x)).toBeCloseTo(0.5, 1);
    for (const x of [1, 4, 10, 13]) expect(pixel(c, x, 10)).toBe(BLUE);
    for (const x of [6, 7, 8]) expect(pixel(c, x, 10)).toBe(WHITE);
  });
});
