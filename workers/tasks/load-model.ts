import { InputError, PluginError } from '../../core/errors.js';
import type { ModelParams, ModelPlugin } from '../../core/plugins/contracts.js';
import { PluginRegistry } from '../../core/plugins/registry.js';
import type { BoundaryModelRef } from '../../core/services/context.js';

export interface LoadedModel {
  readonly plugin: ModelPlugin;
  readonly params: ModelParams;
  readonly module: string;
}

/**
 * This thread's plugins: each model module is imported once per thread and registered with the same checks as
 * on the main thread (kind, id, API version, unique ids), so a plugin cannot pass there and fail here.
 */
const registry = new PluginRegistry();
const modules = new Map<string, Promise<void>>();

/** Imports a model by module specifier (built-ins and third-party models alike) and parses its parameters. */
export async function loadModel(ref: BoundaryModelRef): Promise<LoadedModel> {
  let loaded = modules.get(ref.module);
  if (loaded === undefined) {
    loaded = importModule(ref.module).then((exports) => void registry.registerExports(exports, ref.module));
    modules.set(ref.module, loaded);
    loaded.catch(() => modules.delete(ref.module));
  }
  await loaded;
  const entry = registry.find('model', ref.id);
  if (entry === undefined || entry.module !== ref.module) {
    throw new PluginError(`module ${ref.module} exports no model plugin "${ref.id}"`, {
      module: ref.module,
      model: ref.id,
    });
  }
  const parsed = entry.plugin.params.safeParse(ref.params);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => issue.message);
    throw new InputError(messages.join('; '), { model: entry.plugin.id, issues: messages });
  }
  return { plugin: entry.plugin, params: parsed.data, module: ref.module };
}

async function importModule(module: string): Promise<Record<string, unknown>> {
  try {
    return (await import(module)) as Record<string, unknown>;
  } catch (error) {
    throw new PluginError(`cannot load model module ${module}: ${(error as Error).message}`, { module });
  }
}
