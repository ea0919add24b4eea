import sharp from 'sharp';
import type { Rect } from './axes.js';
import { blendMask, LineMasker, rgb, type Canvas, type PixelBox } from './stroke.js';
import type { PlotLayers } from './svg.js';
import { LIMIT_LINE } from './series-svg.js';

// libvips's operation cache keeps recent inputs and outputs for reuse; every plot image is a new SVG, so it would
// only hold memory. Images are cached by content above the worker, in the HTTP layer.
sharp.cache(false);

/**
 * zlib level of the PNG. For eight noisy lines of 1,000 points, level 6 (zlib's default) took 23-30 ms for
 * 231 KB, level 3 10 ms for 241 KB: 4% more bytes, once per image (the HTTP layer caches), for 15-20 ms saved.
 */
export const PNG_COMPRESSION = 3;
/** Pixels around the plot area that change points and alert markers may reach (a marker's ring: 7 px). */
const OVERLAY_MARGIN = 8;

/**
 * Rasterizes a whole SVG document with sharp (librsvg, one SVG pixel per image pixel) into a PNG: the reference
 * the PNG path of {@link rasterizePlot} is compared with (tests, bench/plot-image.bench.ts).
 */
export async function rasterize(svg: string): Promise<Uint8Array> {
  const png = await sharp(Buffer.from(svg), { density: 72 })
    .png({ compressionLevel: PNG_COMPRESSION, adaptiveFiltering: false })
    .toBuffer();
  return new Uint8Array(png);
}

/**
 * The PNG of a plot image: sharp rasterizes everything under the limit and series lines into an RGB buffer and,
 * when there are any, the change points and markers over them, while the lines' masks are computed here (see
 * stroke.ts); then the limit lines, the series lines, the layer over them and the frame are blended in, and sharp
 * encodes the buffer. The background
 * is opaque, so the PNG has no alpha channel. The result is a fresh Uint8Array that owns its whole buffer, so it
 * can be moved to another thread.
 */
export async function rasterizePlot(layers: PlotLayers): Promise<Uint8Array> {
  const { width, height, plot } = layers;
  // both rasterizations run on libuv's threads; the masks are computed on this one meanwhile
  const under = sharp(Buffer.from(layers.under), { density: 72 }).removeAlpha().raw().toBuffer();
  const over = plot && layers.over !== '' ? overlay(layers.over, plot, width, height) : undefined;
  const masker = plot ? new LineMasker(width, height, framedPixels(plot)) : undefined;
  const masks = masker
    ? [
        ...layers.limits.map(({ color, subpaths }) => ({ color, mask: masker.mask(subpaths, LIMIT_LINE) })),
        ...layers.strokes.map(({ color, line }) => ({ color, mask: masker.mask([line]) })),
      ]
    : [];
  const canvas: Canvas = { data: await under, width, height };
  for (const { color, mask } of masks) blendMask(canvas, mask, rgb(color));
  if (over) blendLayer(canvas, await over);
  if (plot) frame(canvas, plot, rgb(layers.theme.frame));
  const png = await sharp(canvas.data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: PNG_COMPRESSION, adaptiveFiltering: false })
    .toBuffer();
  return new Uint8Array(png);
}

/** The pixels of the plot area, frame included: frameSvg strokes the pixel rows and columns at `floor(edge)`. */
function framedPixels(plot: Rect): PixelBox {
  return {
    left: Math.floor(plot.left),
    top: Math.floor(plot.top),
    right: Math.floor(plot.right) + 1,
    bottom: Math.floor(plot.bottom) + 1,
  };
}

/** The plot's 1-pixel frame, exactly as librsvg draws frameSvg's rectangle on pixel centers. */
function frame(canvas: Canvas, plot: Rect, color: number): void {
  const box = framedPixels(plot);
  const put = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) return;
    const o = 3 * (y * canvas.width + x);
    canvas.data[o] = color >> 16;
    canvas.data[o + 1] = (color >> 8) & 255;
    canvas.data[o + 2] = color & 255;
  };
  for (let x = box.left; x < box.right; x++) {
    put(x, box.top);
    put(x, box.bottom - 1);
  }
  for (let y = box.top; y < box.bottom; y++) {
    put(box.left, y);
    put(box.right - 1, y);
  }
}

/** An RGBA image placed at (left, top) of the canvas, not premultiplied. */
interface Layer {
  readonly data: Buffer;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Rasterizes SVG elements over the plot area (and a margin) on a transparent background: what lies above the
 * lines but under the frame.
 */
async function overlay(
  elements: string,
  plot: Rect,
  imageWidth: number,
  imageHeight: number,
): Promise<Layer> {
  const left = Math.max(0, Math.floor(plot.left) - OVERLAY_MARGIN);
  const top = Math.max(0, Math.floor(plot.top) - OVERLAY_MARGIN);
  const width = Math.min(imageWidth, Math.floor(plot.right) + 1 + OVERLAY_MARGIN) - left;
  const height = Math.min(imageHeight, Math.floor(plot.bottom) + 1 + OVERLAY_MARGIN) - top;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${left} ${top} ${width} ${height}">${elements}</svg>`;
  const data = await sharp(Buffer.from(svg), { density: 72 }).ensureAlpha().raw().toBuffer();
  return { data, left, top, width, height };
}

/** Blends a layer over the canvas. */
function blendLayer(canvas: Canvas, layer: Layer): void {
  const { data } = canvas;
  const { data: source, left, top, width, height } = layer;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = 4 * (y * width + x);
      const a = source[s + 3] as number;
      if (a === 0) continue;
      const o = 3 * ((top + y) * canvas.width + left + x);
      const keep = 255 - a;
      for (let c = 0; c < 3; c++) {
        data[o + c] = ((source[s + c] as number) * a + (data[o + c] as number) * keep + 127) / 255;
      }
    }
  }
}
