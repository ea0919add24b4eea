import { parsePlotImageInput, type PlotImageInput } from '../../core/perf/image-input.js';
import { buildPlotSvg } from './render/svg.js';
import { rasterize } from './render/rasterize.js';
import { transferResult } from './transfer.js';
import { toWireError } from './wire-error.js';

export interface PlotImageOutput {
  /** The PNG file's bytes. */
  readonly png: Uint8Array;
}

/**
 * Renders a plot image in the calling thread: validates the input, builds the SVG, rasterizes it. The pool's
 * workers and inline callers (tests, benchmarks) share it.
 */
export async function renderPng(input: PlotImageInput): Promise<Uint8Array> {
  return rasterize(buildPlotSvg(parsePlotImageInput(input)));
}

/**
 * Task `plot-image`: the PNG of a plot, its buffer moved (not copied) back to the caller. Errors are thrown in
 * their wire form (see wire-error.ts), so an invalid input reaches the caller as an InputError.
 */
export default async function plotImage(input: PlotImageInput): Promise<PlotImageOutput> {
  try {
    const png = await renderPng(input);
    return transferResult({ png }, [png]);
  } catch (error) {
    throw toWireError(error);
  }
}
