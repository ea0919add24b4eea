import type { ModelPlugin, PluginRegistry, RegisteredPlugin } from '../../core/index.js';

/** Source (.ts under tsx and vitest) or compiled (.js): a specifier must name the file that exists. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const moduleOf = (file: string) => new URL(`./${file}${EXTENSION}`, import.meta.url).href;

/**
 * The module specifier (file URL) of each built-in model, by model id. Each module's default export is the
 * plugin. Built-ins are loaded by specifier exactly like a third-party model file (this module imports none of
 * them), so the specifier the main thread records is the one worker threads import.
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

/**
 * Loads and registers every built-in model; each registry entry records its module specifier (entry.module),
 * which is what the boundary task needs to load the model in a worker.
 */
export async function registerBuiltinModels(
  registry: PluginRegistry,
): Promise<RegisteredPlugin<ModelPlugin>[]> {
  const entries: RegisteredPlugin<ModelPlugin>[] = [];
  for (const module of Object.values(builtinModelModules)) {
    for (const entry of await registry.load(module)) entries.push(entry as RegisteredPlugin<ModelPlugin>);
  }
  return entries;
}
