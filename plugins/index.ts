import type { PluginRegistry } from '../core/index.js';
import { builtinAdapters } from './adapters/index.js';
import { registerBuiltinModels } from './models/index.js';
import duckdbStorage from './storage/duckdb/index.js';
import postgresStorage from './storage/postgres/index.js';

/**
 * The built-in plugins, registered by the composition roots through the same contract third parties use.
 * Models are registered with their module specifiers, so worker threads load them exactly as they load a
 * third-party model. Only composition roots import this module.
 */
export function registerBuiltins(registry: PluginRegistry): void {
  registry.register(duckdbStorage);
  registry.register(postgresStorage);
  for (const adapter of builtinAdapters) registry.register(adapter);
  registerBuiltinModels(registry);
}
