import { ConfigError } from '../errors.js';
import type { StoragePlugin } from '../plugins/contracts.js';
import type { PluginRegistry } from '../plugins/registry.js';

/** The scheme standing for `database.file`: the engine that lists it opens a file path (the embedded default). */
export const FILE_SCHEME = 'file';

/** The storage engine a configuration selects, and the options to open it with. */
export interface StorageChoice {
  readonly plugin: StoragePlugin;
  readonly options:
    | { readonly url: string; readonly replicas?: readonly string[] }
    | { readonly file: string; readonly memory_limit?: string };
}

/**
 * Chooses the engine by `database`: the registered storage plugin that lists `database.url`'s scheme, opened
 * with `{ url }`, or without a URL the one that lists `file`, opened with `{ file, memory_limit }`. Nothing else names an
 * engine; a third-party engine is chosen the same way once `plugins` loads it.
 */
export function chooseStorage(
  registry: PluginRegistry,
  database: {
    readonly file?: string | undefined;
    readonly url?: string | undefined;
    readonly memory_limit?: string | undefined;
    readonly replicas?: readonly string[] | undefined;
  },
): StorageChoice {
  const { url, file = '', memory_limit } = database;
  const scheme = url === undefined ? FILE_SCHEME : url.slice(0, url.indexOf(':')).toLowerCase();
  const found = registry.storageFor(scheme);
  if (!found) {
    const known = registry.list('storage').flatMap((entry) => entry.plugin.schemes);
    throw new ConfigError('configuration', [
      {
        path: url === undefined ? 'database.file' : 'database.url',
        message: `uses the scheme ${scheme}:, which no storage plugin serves (known: ${known.join(', ') || 'none'}); add the plugin that does to plugins`,
      },
    ]);
  }
  if (url === undefined)
    return {
      plugin: found.plugin,
      options: { file, ...(memory_limit === undefined ? {} : { memory_limit }) },
    };
  return {
    plugin: found.plugin,
    options: database.replicas ? { url, replicas: database.replicas } : { url },
  };
}
