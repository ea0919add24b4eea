import { plotImageBuffers, type PlotImageInput } from '../core/index.js';
import type { WorkerPool } from './pool.js';
import type { PlotImageOutput } from './tasks/plot-image.js';
import { fromWireError } from './tasks/wire-error.js';

export type { PlotImageOutput } from './tasks/plot-image.js';

/**
 * Renders a plot image (PNG or SVG bytes, the input's format) in a worker. The input's typed arrays are moved to the worker, so they are
 * detached here afterwards, as is any other view of the same buffers; pass copies to keep them. An invalid input
 * rejects with an InputError naming the field.
 */
export async function renderPlotImage(pool: WorkerPool, input: PlotImageInput): Promise<Uint8Array> {
  try {
    const { bytes } = await pool.run<PlotImageOutput>('plot-image', input, plotImageBuffers(input));
    return bytes;
  } catch (error) {
    throw fromWireError(error);
  }
}
