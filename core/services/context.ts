import type { Mailer } from '../accounts/mailer.js';
import type { LiveConfig, Tokens } from '../accounts/tokens.js';
import type { ChangePointEngine } from '../detection/columns.js';
import type { Logger } from '../logging.js';
import type { BoundaryColumns } from '../models/boundary-columns.js';
import type { PerfShapeInput } from '../perf/shape.js';
import type { PlotImageInput } from '../plots/image.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { Storage } from '../storage/storage.js';

/** A boundary job as the engine takes it: see workers/tasks/boundaries.ts for the layout. */
export interface BoundaryJobInput {
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
  readonly modelIndex: Uint16Array;
  readonly models: readonly { readonly module: string; readonly id: string; readonly params: unknown }[];
}

/** Computes boundary columns (inline for small jobs, in worker threads otherwise). */
export type BoundaryEngine = (job: BoundaryJobInput) => Promise<BoundaryColumns>;

/** Turns perf columns into the answer's bytes (in a worker when the answer is large). */
export type PerfShaper = (input: PerfShapeInput, format: 'json' | 'csv' | 'arrow') => Promise<Uint8Array>;

/** Renders a plot image to PNG bytes (in a worker). */
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
