import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { InputError, PluginError, type ModelParams, type ModelPlugin } from '../../core/index.js';

/** Which model a series uses: the module to import, the model id in it, and the model's parameters. */
export interface BoundaryModelRef {
  /** Module specifier (file URL or package name) whose exports hold the model, as the registry recorded it. */
  readonly module: string;
  /** The model's id (or an alias of it). */
  readonly id: string;
  /** Threshold parameters; parsed again here with the model's own schema (worker input is an edge). */
  readonly params: unknown;
}

export interface LoadedModel {
  readonly plugin: ModelPlugin;
  readonly params: ModelParams;
  readonly module: string;
}

/** Imported modules of this thread, by specifier: each model module is imported once per thread. */
const modules = new Map<string, Promise<unknown[]>>();

/**
 * Imports a model by module specifier (built-ins and third-party models alike) and parses its parameters.
 * The module's default export (one plugin or an array) or, without one, its `plugins` export is searched for
 * a model with the given id or alias, as `PluginRegistry.load` does on the main thread.
 */
export async function loadModel(ref: BoundaryModelRef): Promise<LoadedModel> {
  let exported = modules.get(ref.module);
  if (exported === undefined) {
    exported = importPlugins(ref.module);
    modules.set(ref.module, exported);
    exported.catch(() => modules.delete(ref.module));
  }
  const plugin = (await exported).find((candidate) => isModel(candidate, ref.id));
  if (plugin === undefined) {
    throw new PluginError(`module ${ref.module} exports no model plugin "${ref.id}"`, {
      module: ref.module,
      model: ref.id,
    });
  }
  const parsed = plugin.params.safeParse(ref.params);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => issue.message);
    throw new InputError(messages.join('; '), { model: plugin.id, issues: messages });
  }
  return { plugin, params: parsed.data, module: ref.module };
}

async function importPlugins(module: string): Promise<unknown[]> {
  let exports: Record<string, unknown>;
  try {
    exports = await importModule(module);
  } catch (error) {
    throw new PluginError(`cannot load model module ${module}: ${(error as Error).message}`, { module });
  }
  const exported = exports.default ?? exports.plugins;
  return Array.isArray(exported) ? exported : [exported];
}

function isModel(candidate: unknown, id: string): candidate is ModelPlugin {
  if (typeof candidate !== 'object' || candidate === null) return false;
  const plugin = candidate as Partial<ModelPlugin>;
  return (
    plugin.kind === 'model' &&
    typeof plugin.limits === 'function' &&
    typeof plugin.params?.safeParse === 'function' &&
    (plugin.id === id || (plugin.aliases ?? []).includes(id))
  );
}

/**
 * `import()`, except for TypeScript sources in a development worker thread: on Node 20, tsx's ESM hooks are not
 * active in worker threads while its CommonJS hook is, so a `.ts` model (a built-in under `tsx` or vitest, or
 * a third-party model file in development) is loaded with `require` there. Compiled JavaScript never takes
 * this path.
 */
async function importModule(module: string): Promise<Record<string, unknown>> {
  try {
    return (await import(module)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    const path = module.startsWith('file:') ? fileURLToPath(module) : module;
    return createRequire(import.meta.url)(path) as Record<string, unknown>;
  }
}
