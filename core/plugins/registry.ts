import { pathToFileURL } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { formatPath } from '../issues.js';
import { PluginError } from '../errors.js';
import {
  SUPPORTED_PLUGIN_API_VERSIONS,
  type Plugin,
  type PluginKind,
  type PluginOfKind,
} from './contracts.js';

const ID = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*$/;

const zodSchemaLike = z.custom<z.ZodType>(
  (value) =>
    typeof value === 'object' && value !== null && typeof (value as z.ZodType).safeParse === 'function',
  { error: 'must be a zod schema' },
);
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: 'must be a function',
});

const meta = {
  id: z.string().regex(ID, { error: 'must be lower-case words joined by _ or - (e.g. rust_criterion)' }),
  aliases: z.array(z.string().regex(ID, { error: 'must be lower-case words joined by _ or -' })).optional(),
  apiVersion: z.number().int({ error: 'must be an integer' }),
  description: z.string().min(1, { error: 'must not be empty' }),
  optionsSchema: zodSchemaLike.optional(),
};

const definitionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('adapter'), ...meta, reads: z.string().min(1), parse: fn }),
    z.object({ kind: z.literal('model'), ...meta, params: zodSchemaLike, limits: fn }),
    z.object({
      kind: z.literal('storage'),
      ...meta,
      capabilities: z.object({ singleWriter: z.boolean(), columnarReads: z.boolean() }),
      schemes: z
        .array(z.string().regex(SCHEME, { error: 'must be a lower-case URL scheme without ":" (postgres)' }))
        .min(1, { error: 'must list at least one URL scheme (file for database.file)' }),
      open: fn,
    }),
  ],
  { error: 'kind must be adapter, model or storage' },
);

/** A registered plugin with its parsed options and the module it came from (workers load it from there). */
export interface RegisteredPlugin<P extends Plugin = Plugin> {
  readonly plugin: P;
  readonly options: unknown;
  /** Module specifier (file URL or package name) the plugin was loaded from; `undefined` when registered as an object. */
  readonly module: string | undefined;
}

export interface RegisterOptions {
  readonly options?: unknown;
  readonly module?: string;
}

/**
 * Holds the plugins of one process. Validates each definition when it is registered: kind, id, API version,
 * the kind's functions, unique ids and aliases, and options against the plugin's own schema.
 */
export class PluginRegistry {
  readonly #entries = new Map<string, RegisteredPlugin>();
  readonly #aliases = new Map<string, string>();

  register(candidate: unknown, { options, module }: RegisterOptions = {}): RegisteredPlugin {
    const label = describe(candidate, module);
    const parsed = definitionSchema.safeParse(candidate);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${formatPath(i.path) || 'definition'} ${i.message}`);
      throw new PluginError(`${label} is not a valid plugin: ${problems.join('; ')}`, { module });
    }
    const plugin = candidate as Plugin;
    if (!SUPPORTED_PLUGIN_API_VERSIONS.includes(plugin.apiVersion)) {
      throw new PluginError(
        `${label} declares apiVersion ${plugin.apiVersion}, which this Benchtrack does not support (supported: ${SUPPORTED_PLUGIN_API_VERSIONS.join(', ')}); upgrade Benchtrack or use a plugin release for this API version`,
        { module },
      );
    }
    for (const name of [plugin.id, ...(plugin.aliases ?? [])]) {
      const taken = this.#resolve(plugin.kind, name);
      if (taken !== undefined) {
        const other = this.#entries.get(key(plugin.kind, taken));
        throw new PluginError(
          `${label} uses the ${plugin.kind} id "${name}", already taken by ${describe(other?.plugin, other?.module)}`,
          { module },
        );
      }
    }
    if (plugin.kind === 'storage') this.#checkSchemes(plugin, label, module);
    let parsedOptions: unknown = options;
    if (plugin.optionsSchema) {
      const result = plugin.optionsSchema.safeParse(options ?? {});
      if (!result.success) {
        const problems = result.error.issues.map((i) => `${formatPath(i.path) || 'options'}: ${i.message}`);
        throw new PluginError(`${label} rejected its options: ${problems.join('; ')}`, { module });
      }
      parsedOptions = result.data;
    }
    const entry: RegisteredPlugin = { plugin, options: parsedOptions, module };
    this.#entries.set(key(plugin.kind, plugin.id), entry);
    for (const alias of plugin.aliases ?? []) this.#aliases.set(key(plugin.kind, alias), plugin.id);
    return entry;
  }

  /**
   * Imports a module and registers every plugin it exports: the default export (one plugin or an array) or,
   * without one, the named export `plugins`. Relative specifiers resolve against `baseDir`.
   */
  async load(
    specifier: string,
    options: { options?: unknown; baseDir?: string } = {},
  ): Promise<RegisteredPlugin[]> {
    const module = toModuleSpecifier(specifier, options.baseDir ?? process.cwd());
    let exports: Record<string, unknown>;
    try {
      exports = (await import(module)) as Record<string, unknown>;
    } catch (error) {
      throw new PluginError(
        `cannot load plugin module ${specifier}: ${(error as Error).message}`,
        { module },
        {
          cause: error,
        },
      );
    }
    return this.registerExports(exports, module, options.options, specifier);
  }

  /**
   * Registers every plugin a module exports (what `load` does once the module is imported): the default export,
   * one plugin or an array, or without one the named export `plugins`. Worker threads use it with modules they
   * import themselves, so a plugin is checked the same way in every thread.
   */
  registerExports(
    exports: Record<string, unknown>,
    module: string,
    options?: unknown,
    /** How the module was named (a relative path, say), for messages. */
    specifier = module,
  ): RegisteredPlugin[] {
    const exported = exports.default ?? exports.plugins;
    if (exported === undefined) {
      throw new PluginError(
        `plugin module ${specifier} exports no plugin: export one plugin or an array of plugins as default`,
        { module },
      );
    }
    const list = Array.isArray(exported) ? exported : [exported];
    return list.map((plugin) => this.register(plugin, { options, module }));
  }

  /** A copy holding the same plugins but those loaded from `modules` (to try another plugin list on it). */
  without(modules: ReadonlySet<string>): PluginRegistry {
    const copy = new PluginRegistry();
    for (const [entryKey, entry] of this.#entries) {
      if (entry.module !== undefined && modules.has(entry.module)) continue;
      copy.#entries.set(entryKey, entry);
      for (const alias of entry.plugin.aliases ?? [])
        copy.#aliases.set(key(entry.plugin.kind, alias), entry.plugin.id);
    }
    return copy;
  }

  find<K extends PluginKind>(kind: K, idOrAlias: string): RegisteredPlugin<PluginOfKind<K>> | undefined {
    const id = this.#resolve(kind, idOrAlias);
    return id === undefined
      ? undefined
      : (this.#entries.get(key(kind, id)) as RegisteredPlugin<PluginOfKind<K>> | undefined);
  }

  /** Like {@link find}, but a missing plugin is an error naming the ids that exist. */
  get<K extends PluginKind>(kind: K, idOrAlias: string): RegisteredPlugin<PluginOfKind<K>> {
    const found = this.find(kind, idOrAlias);
    if (found) return found;
    const known = this.list(kind).map((entry) => entry.plugin.id);
    throw new PluginError(
      `no ${kind} plugin "${idOrAlias}" is registered (known: ${known.join(', ') || 'none'})`,
    );
  }

  list<K extends PluginKind>(kind: K): RegisteredPlugin<PluginOfKind<K>>[] {
    return [...this.#entries.values()].filter((entry) => entry.plugin.kind === kind) as RegisteredPlugin<
      PluginOfKind<K>
    >[];
  }

  /** The storage engine that serves a URL scheme (`file`: database.file), if one is registered. */
  storageFor(scheme: string): RegisteredPlugin<PluginOfKind<'storage'>> | undefined {
    return this.list('storage').find((entry) => entry.plugin.schemes.includes(scheme));
  }

  #checkSchemes(plugin: PluginOfKind<'storage'>, label: string, module: string | undefined): void {
    for (const scheme of plugin.schemes) {
      const other = this.storageFor(scheme);
      if (other)
        throw new PluginError(
          `${label} serves the URL scheme "${scheme}", already served by ${describe(other.plugin, other.module)}`,
          { module },
        );
    }
  }

  #resolve(kind: PluginKind, name: string): string | undefined {
    if (this.#entries.has(key(kind, name))) return name;
    return this.#aliases.get(key(kind, name));
  }
}

function key(kind: PluginKind, id: string): string {
  return `${kind}:${id}`;
}

function describe(candidate: unknown, module: string | undefined): string {
  const record = (typeof candidate === 'object' && candidate !== null ? candidate : {}) as Record<
    string,
    unknown
  >;
  const id = typeof record.id === 'string' ? `"${record.id}"` : '(without id)';
  const kind = typeof record.kind === 'string' ? ` ${record.kind}` : '';
  return `plugin ${id}${kind ? ` (${kind.trim()}${module ? ` from ${module}` : ''})` : module ? ` (from ${module})` : ''}`;
}

/** Relative and absolute paths become file URLs; package names stay as they are. */
export function toModuleSpecifier(specifier: string, baseDir: string): string {
  if (specifier.startsWith('file:')) return specifier;
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href;
  if (specifier.startsWith('./') || specifier.startsWith('../'))
    return pathToFileURL(resolve(baseDir, specifier)).href;
  return specifier;
}
