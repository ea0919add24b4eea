import type { Mailer } from '../accounts/mailer.js';
import type { LiveConfig, Tokens } from '../accounts/tokens.js';
import type { ChangePointEngine } from '../detection/columns.js';
import type { Logger } from '../logging.js';
import type { BoundaryColumns } from '../boundaries/boundary-columns.js';
import type { PerfShapeInput } from '../perf/shape.js';
import type { PlotImageInput } from '../perf/image-input.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { Storage } from '../storage/storage.js';

/** A boundary job as the engine takes it: see workers/tasks/boundaries.ts for the layout. */
/** Which model a series uses: the module to import, the model id (or alias) in it, and its parameters. */
export interface BoundaryModelRef {
  /** Module specifier (file URL or package name) whose exports hold the model, as the registry recorded it. */
  readonly module: string;
  readonly id: string;
  /** Threshold parameters; parsed again in the worker with the model's own schema (worker input is an edge). */
  readonly params: unknown;
}

/**
 * The limits of many series at once, columnar so that it crosses threads as a few moved buffers. Series i's
 * samples are `values[offsets[i] .. offsets[i + 1])`, newest first; its model is `models[modelIndex[i]]`.
 */
export interface BoundaryJob {
  /** Series count + 1 entries: 0, then the end of each series in `values`. */
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
  /** One entry per series: an index into `models`. */
  readonly modelIndex: Uint16Array;
  /** The distinct (model, parameters) pairs of the job; few, whatever the series count. */
  readonly models: readonly BoundaryModelRef[];
}

/** Computes boundary columns (inline for small jobs, in worker threads otherwise). */
export type BoundaryEngine = (job: BoundaryJob) => Promise<BoundaryColumns>;

/** Turns perf columns into the answer's bytes (in a worker when the answer is large). */
export type PerfShaper = (input: PerfShapeInput, format: 'json' | 'csv' | 'arrow') => Promise<Uint8Array>;

/** Renders a plot image to PNG or SVG bytes, as its input says (in a worker). */
export type ImageRenderer = (input: PlotImageInput) => Promise<Uint8Array>;

/** What the services share: storage, tokens, mail, plugins, the running configuration and the clock. */
export interface ServiceContext {
  readonly storage: Storage;
  readonly tokens: Tokens;
  readonly mailer: Mailer;
  readonly config: LiveConfig;
  readonly logger: Logger;
  /** Adapters and threshold models. */
  readonly registry: PluginRegistry;
  readonly boundaries: BoundaryEngine;
  readonly perfShaper: PerfShaper;
  readonly renderImage: ImageRenderer;
  /** Change-point detection of many series (in worker threads). */
  readonly changePoints: ChangePointEngine;
  readonly now: () => Date;
}
