import type { z } from 'zod';
import type { Bmf } from '../bmf.js';
import type { DetectionParams } from '../detection/detect.js';
import type { Logger } from '../logging.js';
import type { Storage, StorageCapabilities } from '../storage/storage.js';

/** The plugin API version this build of Benchtrack implements. */
export const PLUGIN_API_VERSION = 1;
/** Plugin API versions the registry accepts. */
export const SUPPORTED_PLUGIN_API_VERSIONS: readonly number[] = [1];

export type PluginKind = 'adapter' | 'model' | 'storage';

/** Metadata every plugin declares; the registry validates it at registration, so a bad plugin fails at boot. */
export interface PluginMeta<K extends PluginKind> {
  readonly kind: K;
  /** snake_case where the spec fixes the id (`rust_criterion`, `t_test`), otherwise kebab-case. */
  readonly id: string;
  /** Other ids that select this plugin (`hyperfine` for `shell_hyperfine`). */
  readonly aliases?: readonly string[];
  readonly apiVersion: number;
  readonly description: string;
  /** Schema of the plugin's options; the registry parses options with it before the plugin sees them. */
  readonly optionsSchema?: z.ZodType;
}

export type Average = 'mean' | 'median';

export interface AdapterSettings {
  /** Unset is not the same as `mean`: several adapters accept only one of the two. */
  readonly average?: Average;
}

/**
 * Turns a benchmark harness's output into BMF. Pure and synchronous: no I/O, no clock, no randomness.
 * Runs in the CLI and in the API.
 */
export interface AdapterPlugin extends PluginMeta<'adapter'> {
  /** One line on what output the adapter reads, for `benchtrack adapters`. */
  readonly reads: string;
  /** `null` means "no benchmarks found" (or an unsupported `average`). */
  parse(output: string, settings: AdapterSettings): Bmf | null;
}

/** Boundary parameters of a threshold model (spec: Threshold). */
export interface ModelParams {
  readonly min_sample_size?: number | undefined;
  readonly max_sample_size?: number | undefined;
  /** Seconds. */
  readonly window?: number | undefined;
  readonly lower_boundary?: number | undefined;
  readonly upper_boundary?: number | undefined;
}

/** Limits of one series; a side is `null` when its boundary is not set. */
export interface ModelLimits {
  readonly baseline: number | null;
  readonly lower: number | null;
  readonly upper: number | null;
}

/**
 * A threshold model: computes the baseline and limits of a series from its history. Pure, synchronous and
 * deterministic; runs in worker threads, where it is loaded by module specifier, so its module must export it
 * (default export: one plugin or an array) and its parameters must survive structured cloning.
 * `modelParamsSchema` builds the standard parameter schema; `evaluateModel` is how the service calls
 * `limits` (empty history, `min_sample_size`, `max_sample_size` and non-finite results are handled there).
 */
export interface ModelPlugin<P extends ModelParams = ModelParams> extends PluginMeta<'model'> {
  /** Validates and normalizes parameters; messages name the model, the parameter, the rule and the value. */
  readonly params: z.ZodType<P>;
  /**
   * `samples` are newest first and must not be modified (they are a view into the whole job's buffer).
   * `null` when no boundary can be computed (too few samples, zero variance, non-finite input, ...); a side
   * whose boundary is not set is `null`. Never returns NaN or an infinite limit.
   */
  limits(samples: Float64Array, params: P): ModelLimits | null;
  /**
   * Declares a change-point model: its alerts come from the change points a new value confirms over the
   * history (detected with these settings), not from its limits, which are then only shown. Pure.
   */
  changePoints?(params: P): DetectionParams;
}

export interface StorageContext {
  readonly logger: Logger;
}

/** A storage engine: opens (and migrates) a database and returns repository-level operations. */
export interface StoragePlugin<O = unknown> extends PluginMeta<'storage'> {
  readonly capabilities: StorageCapabilities;
  /**
   * How the configuration selects this engine: `database.url: <scheme>://...` opens the engine that lists the
   * URL's scheme, with the options `{ url }`; the scheme `file` stands for `database.file`, opened with
   * `{ file }` (the embedded default). Each scheme belongs to one registered engine.
   */
  readonly schemes: readonly string[];
  open(options: O, context: StorageContext): Promise<Storage>;
}

export type Plugin = AdapterPlugin | ModelPlugin | StoragePlugin;
export type PluginOfKind<K extends PluginKind> = Extract<Plugin, { kind: K }>;

type Definition<T extends Plugin> = Omit<T, 'kind' | 'apiVersion'> & { apiVersion?: number };

export function defineAdapter(definition: Definition<AdapterPlugin>): AdapterPlugin {
  return { apiVersion: PLUGIN_API_VERSION, ...definition, kind: 'adapter' };
}

export function defineModel<P extends ModelParams>(definition: Definition<ModelPlugin<P>>): ModelPlugin<P> {
  return { apiVersion: PLUGIN_API_VERSION, ...definition, kind: 'model' };
}

export function defineStorage<O>(definition: Definition<StoragePlugin<O>>): StoragePlugin<O> {
  return { apiVersion: PLUGIN_API_VERSION, ...definition, kind: 'storage' };
}
