import { parsePlotImageInput, type PlotImageInput } from '../../core/perf/image-input.js';
import { buildPlotLayers, buildPlotSvg } from './render/svg.js';
import { rasterizePlot } from './render/rasterize.js';
import { transferResult } from './transfer.js';
import { toWireError } from './wire-error.js';

export interface PlotImageOutput {
  /** The image file's bytes: a PNG, or the SVG document as UTF-8 (the input's `format`). */
  readonly bytes: Uint8Array;
}

/**
 * Renders a plot image in the calling thread: validates the input, builds the SVG, or the layers of the PNG and
 * rasterizes them. The pool's workers and inline callers (tests, benchmarks) share it.
 */
export async function renderImageBytes(input: PlotImageInput): Promise<Uint8Array> {
  const image = parsePlotImageInput(input);
  if (image.format === 'svg') return new Uint8Array(Buffer.from(buildPlotSvg(image), 'utf8'));
  return rasterizePlot(buildPlotLayers(image));
}

/**
 * Task `plot-image`: the image's bytes, their buffer moved (not copied) back to the caller. Errors are thrown in
 * their wire form (see wire-error.ts), so an invalid input reaches the caller as an InputError.
 */
export default async function plotImage(input: PlotImageInput): Promise<PlotImageOutput> {
  try {
    const bytes = await renderImageBytes(input);
    return transferResult({ bytes }, [bytes]);
  } catch (error) {
    throw toWireError(error);
  }
}
