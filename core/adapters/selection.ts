import type { Bmf } from '../bmf.js';
import { InputError, PluginError } from '../errors.js';
import type { AdapterPlugin, AdapterSettings } from '../plugins/contracts.js';
import type { PluginRegistry } from '../plugins/registry.js';
import { foldIterations, type Fold } from './fold.js';

/**
 * Language groups: `--adapter rust` tries its members in this order and takes the first that finds
 * benchmarks (reference section 4.3). Data, not code, so adapters never import each other.
 */
export const ADAPTER_GROUPS: Readonly<Record<string, readonly string[]>> = {
  c_sharp: ['c_sharp_dot_net'],
  cpp: ['cpp_catch2', 'cpp_google'],
  dart: ['dart_benchmark_harness'],
  go: ['go_bench'],
  java: ['java_jmh'],
  js: ['js_benchmark', 'js_time', 'js_vitest'],
  python: ['python_asv', 'python_pytest'],
  ruby: ['ruby_benchmark'],
  rust: ['rust_bench', 'rust_criterion', 'rust_iai', 'rust_gungraun'],
  shell: ['shell_hyperfine'],
};

/** `magic` (auto-detection) tries these adapters and groups in this order; the first result wins. */
export const MAGIC_ORDER: readonly string[] = [
  'json',
  'c_sharp',
  'cpp',
  'dart',
  'go',
  'java',
  'js',
  'python',
  'ruby',
  'rust',
  'shell',
];

export const MAGIC = 'magic';

/** What `--adapter <name>` resolved to: one adapter, a language group, or `magic`. */
export interface AdapterSelection {
  /** The name as requested (`rust`, `hyperfine`, `magic`, ...). */
  readonly name: string;
  readonly kind: 'adapter' | 'group' | 'magic';
  /** The adapters tried, in order. */
  readonly adapters: readonly AdapterPlugin[];
  /** The first adapter's result that is not `null`, with the adapter that produced it. */
  parse(output: string, settings: AdapterSettings): AdapterMatch | null;
}

export interface AdapterMatch {
  readonly bmf: Bmf;
  readonly adapter: AdapterPlugin;
}

/**
 * Resolves an adapter id, alias, language group or `magic` against the registry. Group and `magic` names
 * take precedence over plugin ids, so a third-party plugin cannot shadow them.
 */
export function selectAdapter(registry: PluginRegistry, name: string): AdapterSelection {
  if (name === MAGIC) {
    const ids = MAGIC_ORDER.flatMap((entry) => ADAPTER_GROUPS[entry] ?? [entry]);
    return selection(
      name,
      'magic',
      ids.map((id) => member(registry, name, id)),
    );
  }
  const group = ADAPTER_GROUPS[name];
  if (group)
    return selection(
      name,
      'group',
      group.map((id) => member(registry, name, id)),
    );
  const found = registry.find('adapter', name);
  if (!found) throw new InputError(unknownAdapterMessage(registry, name), { adapter: name });
  return selection(name, 'adapter', [found.plugin]);
}

/** Every name `--adapter` accepts: ids, aliases, groups and `magic`. */
export function adapterNames(registry: PluginRegistry): string[] {
  const plugins = registry.list('adapter').flatMap(({ plugin }) => [plugin.id, ...(plugin.aliases ?? [])]);
  return [...plugins, ...Object.keys(ADAPTER_GROUPS), MAGIC];
}

function member(registry: PluginRegistry, requested: string, id: string): AdapterPlugin {
  const found = registry.find('adapter', id);
  if (!found) {
    throw new PluginError(`adapter "${requested}" needs the adapter "${id}", which is not registered`, {
      adapter: requested,
    });
  }
  return found.plugin;
}

function selection(
  name: string,
  kind: AdapterSelection['kind'],
  adapters: readonly AdapterPlugin[],
): AdapterSelection {
  return {
    name,
    kind,
    adapters,
    parse(output, settings) {
      for (const adapter of adapters) {
        const bmf = runAdapter(adapter, output, settings);
        if (bmf !== null) return { bmf, adapter };
      }
      return null;
    },
  };
}

function runAdapter(adapter: AdapterPlugin, output: string, settings: AdapterSettings): Bmf | null {
  try {
    return adapter.parse(output, settings);
  } catch (error) {
    // Adapters return null on input they do not understand; throwing is a bug in the plugin, so say whose.
    throw new PluginError(
      `adapter "${adapter.id}" failed: ${(error as Error)?.message ?? String(error)}`,
      { adapter: adapter.id },
      { cause: error },
    );
  }
}

function unknownAdapterMessage(registry: PluginRegistry, name: string): string {
  return `unknown adapter "${name}"; use one of: ${adapterNames(registry).join(', ')}`;
}

/** Settings of one submission: how each results string is read and how iterations are combined. */
export interface AdaptSettings extends AdapterSettings {
  readonly fold?: Fold | undefined;
}

/**
 * Parses every results string (one per iteration) with the selected adapter and folds them when asked.
 * A results string in which the adapter finds no benchmarks is an error naming the adapter (reference:
 * "are you sure ... is the right adapter?").
 */
export function adaptResults(
  selection: AdapterSelection,
  outputs: readonly string[],
  settings: AdaptSettings = {},
): Bmf[] {
  const adapterSettings: AdapterSettings = settings.average ? { average: settings.average } : {};
  const iterations = outputs.map((output, index) => {
    const match = selection.parse(output, adapterSettings);
    if (match === null) throw new InputError(noBenchmarksMessage(selection, settings, index, outputs.length));
    return match.bmf;
  });
  return settings.fold ? [foldIterations(iterations, settings.fold)] : iterations;
}

function noBenchmarksMessage(
  selection: AdapterSelection,
  settings: AdapterSettings,
  index: number,
  count: number,
): string {
  const which = count > 1 ? ` in results ${index + 1} of ${count}` : '';
  const average = settings.average ? ` with average "${settings.average}"` : '';
  const tried =
    selection.kind === 'adapter' ? '' : ` (tried ${selection.adapters.map((a) => a.id).join(', ')})`;
  return `no benchmarks found${which} by adapter "${selection.name}"${average}${tried}; is it the right adapter for this output? (see \`benchtrack adapters\`)`;
}
