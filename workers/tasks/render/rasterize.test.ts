import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parsePlotImageInput, type PlotImageInput } from '../../../core/index.js';
import { benchImage } from '../../../bench/lib/plot-data.js';
import { rasterize, rasterizePlot } from './rasterize.js';
import { buildPlotLayers, buildPlotSvg } from './svg.js';

// The PNG path draws the series lines itself (stroke.ts) over what librsvg rasterizes; these tests hold it to
// librsvg's rendering of the whole SVG document, which the SVG format still answers.

interface Pixels {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

async function pixels(png: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Both renderings of an input: librsvg's of the whole SVG, and the PNG path's, with the layers it drew. */
async function both(input: PlotImageInput) {
  const image = parsePlotImageInput(input);
  const layers = buildPlotLayers(image);
  const png = await rasterizePlot(layers);
  return {
    layers,
    png,
    reference: await pixels(await rasterize(buildPlotSvg(image))),
    drawn: await pixels(png),
    under: await pixels(await rasterize(layers.under)),
  };
}

function meanDifference(a: Pixels, b: Pixels): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] as number) - (b.data[i] as number));
  return sum / a.data.length;
}

function rgbAt(p: Pixels, x: number, y: number): [number, number, number] {
  const o = 3 * (Math.floor(y) * p.width + Math.floor(x));
  return [p.data[o] as number, p.data[o + 1] as number, p.data[o + 2] as number];
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((v, i) => Math.abs(v - (b[i] as number))));
}

function hex(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1), 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

/**
 * How far the pixels around (x, y) come to `color`: the least channel difference over the pixel there and its
 * eight neighbours (a 1.5 px line's center passes within half a pixel of some pixel center near any of its points).
 */
function nearest(p: Pixels, x: number, y: number, color: readonly number[]): number {
  let best = 255;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) best = Math.min(best, distance(rgbAt(p, x + dx, y + dy), color));
  }
  return best;
}

/** Share of a line's points near which the image shows the line's color (within `tolerance` per channel). */
function onPath(p: Pixels, line: readonly number[], color: string, tolerance = 24): number {
  let hits = 0;
  for (let k = 0; k < line.length; k += 2) {
    if (nearest(p, line[k] as number, line[k + 1] as number, hex(color)) <= tolerance) hits++;
  }
  return hits / (line.length / 2);
}

/**
 * Where a segment's center line crosses the pixel column (or row, for a steep segment) around a point of it: the
 * column's index and the crossing's position along the column.
 */
function across(x: number, y: number, x0: number, y0: number, x1: number, y1: number) {
  const xMajor = Math.abs(x1 - x0) >= Math.abs(y1 - y0);
  const index = Math.floor(xMajor ? x : y);
  const center = xMajor
    ? y0 + ((index + 0.5 - x0) * (y1 - y0)) / (x1 - x0)
    : x0 + ((index + 0.5 - y0) * (x1 - x0)) / (y1 - y0);
  return { xMajor, index, center };
}

/**
 * The center of the ink a line added to `under` (gridlines and all), over the pixels within 4 of a crossing, along
 * its column or row.
 */
function centroid(p: Pixels, under: Pixels, at: { xMajor: boolean; index: number; center: number }): number {
  let sum = 0;
  let weight = 0;
  for (let k = Math.floor(at.center) - 4; k <= Math.floor(at.center) + 4; k++) {
    const [x, y] = at.xMajor ? [at.index, k] : [k, at.index];
    const w = distance(rgbAt(p, x, y), rgbAt(under, x, y));
    sum += w * (k + 0.5);
    weight += w;
  }
  return sum / weight;
}

/** A series of `n` points along a straight line, so every pixel of it is known. */
function straight(n: number, from: number, to: number, label = 'straight'): PlotImageInput['series'][number] {
  return {
    label,
    x: Float64Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000),
    y: Float64Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1)),
  };
}

describe('rasterizePlot', () => {
  it('draws 8 x 1,000 noisy lines as librsvg does, each in its color along its points', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { layers, reference, drawn } = await both({ ...benchImage(8, 1000, false), theme });
      expect(meanDifference(reference, drawn), theme).toBeLessThan(2.5);
      expect(layers.strokes).toHaveLength(8);
      for (const { color, line } of layers.strokes) {
        // later lines cross earlier ones, so not every point shows its own line; librsvg's image shows as many
        const own = onPath(drawn, line, color);
        expect(own, `${theme} ${color}`).toBeGreaterThan(0.8);
        expect(own).toBeGreaterThan(onPath(reference, line, color) - 0.05);
      }
    }
  });

  it('changes nothing outside the plot area and keeps the frame on top', async () => {
    const { layers, reference, drawn } = await both(benchImage(8, 1000, false));
    const plot = layers.plot;
    if (!plot) throw new Error('the image has data');
    const [left, top, right, bottom] = [plot.left, plot.top, plot.right, plot.bottom].map(Math.floor) as [
      number,
      number,
      number,
      number,
    ];
    let outside = 0;
    for (let y = 0; y < drawn.height; y++) {
      for (let x = 0; x < drawn.width; x++) {
        if (x >= left && x <= right && y >= top && y <= bottom) continue;
        if (distance(rgbAt(drawn, x, y), rgbAt(reference, x, y)) > 0) outside++;
      }
    }
    expect(outside).toBe(0);
    const frame = hex(layers.theme.frame);
    for (let x = left; x <= right; x += 7) {
      expect(rgbAt(drawn, x, top)).toEqual(frame);
      expect(rgbAt(drawn, x, bottom)).toEqual(frame);
    }
    for (let y = top; y <= bottom; y += 7) {
      expect(rgbAt(drawn, left, y)).toEqual(frame);
      expect(rgbAt(drawn, right, y)).toEqual(frame);
    }
  });

  it('centers a line on its points, as librsvg does, on linear and log axes', async () => {
    for (const yAxis of ['linear', 'log'] as const) {
      const input: PlotImageInput = {
        xAxis: 'date_time',
        yAxis,
        measure: { name: 'Latency', units: 'ns' },
        series: [straight(200, 10, 10_000)],
      };
      const { layers, reference, drawn, under } = await both(input);
      const [stroke] = layers.strokes;
      if (!stroke) throw new Error('one line');
      // on a linear axis a straight series is one segment after simplification; on a log axis it bends
      if (yAxis === 'linear') expect(stroke.line).toHaveLength(4);
      const { line } = stroke;
      let checked = 0;
      for (let k = 0; k + 3 < line.length; k += 2) {
        const [x0, y0, x1, y1] = line.slice(k, k + 4) as [number, number, number, number];
        if (Math.hypot(x1 - x0, y1 - y0) < 8) continue;
        for (const t of [0.3, 0.5, 0.7]) {
          const expected = across(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, x0, y0, x1, y1);
          const ink = centroid(drawn, under, expected);
          expect(Math.abs(ink - expected.center), `${yAxis} ${JSON.stringify(expected)}`).toBeLessThan(0.3);
          expect(Math.abs(ink - centroid(reference, under, expected))).toBeLessThan(0.15);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(2);
      expect(meanDifference(reference, drawn), yAxis).toBeLessThan(0.5);
    }
  });

  it('draws a version axis, a flat line and a vertical jump as librsvg does', async () => {
    const x = Float64Array.from({ length: 60 }, (_, i) => i + 1);
    const input: PlotImageInput = {
      xAxis: 'version',
      yAxis: 'auto',
      measure: { name: 'Latency', units: 'ns' },
      series: [
        { label: 'flat', x, y: new Float64Array(60).fill(500) },
        { label: 'jump', x, y: Float64Array.from(x, (v) => (v < 30 ? 100 : 900)) },
      ],
    };
    const { layers, reference, drawn } = await both(input);
    expect(layers.strokes).toHaveLength(2);
    expect(meanDifference(reference, drawn)).toBeLessThan(0.5);
    for (const { color, line } of layers.strokes) expect(onPath(drawn, line, color)).toBeGreaterThan(0.9);
  });

  it('draws alert markers, sparse dots and change points over the lines, under the frame', async () => {
    const input = benchImage(3, 60, true);
    const [first] = input.series;
    if (!first) throw new Error('three series');
    const withChanges: PlotImageInput = {
      ...input,
      series: [{ ...first, changes: [{ index: 30, before: 1000, after: 1100 }] }, ...input.series.slice(1)],
    };
    const { layers, reference, drawn } = await both(withChanges);
    expect(layers.over).toContain('<circle');
    expect(layers.over).toContain('change-points');
    expect(meanDifference(reference, drawn)).toBeLessThan(1);
    // every dot of a sparse series (r = 2.5) sits on its point, in the series' color, where librsvg puts it
    for (const { color, line } of layers.strokes) {
      for (let k = 0; k < line.length; k += 2) {
        const at = rgbAt(drawn, line[k] as number, line[k + 1] as number);
        expect(distance(at, rgbAt(reference, line[k] as number, line[k + 1] as number))).toBeLessThan(24);
      }
      expect(onPath(drawn, line, color)).toBeGreaterThan(0.8);
    }
    // an alert marker's ring is filled with the background between its dot (r = 3) and its stroke (r = 5 to 7):
    // the line under it does not show there, as in librsvg's image
    const alerts = [...layers.over.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="6"/g)];
    expect(alerts.length).toBeGreaterThan(0);
    for (const [, cx, cy] of alerts) {
      for (let dy = -5; dy <= 5; dy++) {
        for (let dx = -5; dx <= 5; dx++) {
          const x = Math.floor(Number(cx)) + dx;
          const y = Math.floor(Number(cy)) + dy;
          const r = Math.hypot(x + 0.5 - Number(cx), y + 0.5 - Number(cy));
          if (r < 3.8 || r > 4.4) continue;
          expect(distance(rgbAt(drawn, x, y), rgbAt(reference, x, y)), `${x},${y}`).toBeLessThan(40);
        }
      }
    }
  });

  it('dashes the limit lines where librsvg does, over the bands and under the series lines', async () => {
    const { layers, reference, drawn } = await both(benchImage(8, 1000, true));
    expect(meanDifference(reference, drawn)).toBeLessThan(2.5);
    expect(layers.limits).toHaveLength(16);
    let samples = 0;
    let agree = 0;
    for (const { color, subpaths } of layers.limits) {
      for (const line of subpaths) {
        for (let k = 0; k + 3 < line.length; k += 2) {
          const x = ((line[k] as number) + (line[k + 2] as number)) / 2;
          const y = ((line[k + 1] as number) + (line[k + 3] as number)) / 2;
          // in a dash or in a gap, as in librsvg's image
          const inDash = (p: Pixels) => nearest(p, x, y, hex(color)) <= 24;
          samples++;
          if (inDash(drawn) === inDash(reference)) agree++;
        }
      }
    }
    expect(samples).toBeGreaterThan(500);
    expect(agree / samples).toBeGreaterThan(0.9);
  });

  it('encodes an opaque PNG without an alpha channel, the same bytes every time', async () => {
    const input = benchImage(2, 100, false);
    const { png } = await both(input);
    const metadata = await sharp(png).metadata();
    expect(metadata).toMatchObject({ format: 'png', channels: 3, hasAlpha: false, width: 1200, height: 600 });
    const again = await rasterizePlot(buildPlotLayers(parsePlotImageInput(input)));
    expect(Buffer.from(again).equals(Buffer.from(png))).toBe(true);
  });

  it('renders an image with no data as librsvg does, frame included', async () => {
    const { layers, reference, drawn } = await both({
      xAxis: 'date_time',
      yAxis: 'auto',
      measure: { name: 'Latency', units: 'ns' },
      series: [{ label: 'none', x: new Float64Array(0), y: new Float64Array(0) }],
    });
    expect(layers.plot).toBeUndefined();
    expect(meanDifference(reference, drawn)).toBe(0);
  });
});
