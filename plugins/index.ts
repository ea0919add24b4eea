import type { PluginRegistry } from '../core/index.js';
import duckdbStorage from './storage/duckdb/index.js';

/**
 * The built-in plugins, registered by the composition roots through the same contract third parties use.
 * Only composition roots import this module.
 */
export function registerBuiltins(registry: PluginRegistry): void {
  registry.register(duckdbStorage);
}
