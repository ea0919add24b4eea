import type { ModelPlugin, PluginRegistry, RegisteredPlugin } from '../../core/index.js';
import changePoint from './change-point.js';
import deltaIqr from './delta-iqr.js';
import iqr from './iqr.js';
import logNormal from './log-normal.js';
import percentage from './percentage.js';
import staticModel from './static.js';
import tTest from './t-test.js';
import zScore from './z-score.js';

/** Source (.ts under tsx and vitest) or compiled (.js): a specifier must name the file that exists. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const moduleOf = (file: string) => new URL(`./${file}${EXTENSION}`, import.meta.url).href;

/**
 * The module specifier (file URL) of each built-in model, by model id. Each module's default export is the
 * plugin. Worker threads load a model from its specifier, exactly like a third-party model file.
 */
export const builtinModelModules = {
  static: moduleOf('static'),
  percentage: moduleOf('percentage'),
  z_score: moduleOf('z-score'),
  t_test: moduleOf('t-test'),
  log_normal: moduleOf('log-normal'),
  iqr: moduleOf('iqr'),
  delta_iqr: moduleOf('delta-iqr'),
  change_point: moduleOf('change-point'),
} as const satisfies Record<string, string>;

export type BuiltinModelId = keyof typeof builtinModelModules;

const builtinModels: Record<BuiltinModelId, ModelPlugin> = {
  static: staticModel,
  percentage,
  z_score: zScore,
  t_test: tTest,
  log_normal: logNormal,
  iqr,
  delta_iqr: deltaIqr,
  change_point: changePoint,
};

/**
 * Registers every built-in model, each with its module specifier (entry.module), which is what the boundary task
 * needs to load the model in a worker. The main thread takes the plugins from its own imports (in the API's
 * bundle, the bundled copy), not from importing those files again: the same code, without a second copy of the
 * kit and zod to load at start.
 */
export function registerBuiltinModels(registry: PluginRegistry): RegisteredPlugin<ModelPlugin>[] {
  return Object.entries(builtinModels).map(
    ([id, plugin]) =>
      registry.register(plugin, {
        module: builtinModelModules[id as BuiltinModelId],
      }) as RegisteredPlugin<ModelPlugin>,
  );
}
