import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorName, type ConfigIssue } from '../errors.js';
import { toModuleSpecifier, type PluginRegistry } from '../plugins/registry.js';
import { redactUrl } from './redact.js';
import type { Config } from './schema.js';

/** The database a configuration opens, as a message shows it (a URL without its password). */
const databaseOf = (config: Config) =>
  config.database.url ? redactUrl(config.database.url) : config.database.file;

/** Keys a runtime update may leave out of the document only when the caller confirms it (`?confirm=`). */
export const DROPPABLE_KEYS = ['security.secret_key', 'database'] as const;
export type DroppableKey = (typeof DROPPABLE_KEYS)[number];

type Document = Record<string, Record<string, unknown> | undefined>;

const asDocument = (value: unknown): Document =>
  (typeof value === 'object' && value !== null ? value : {}) as Document;

/**
 * Problems of a runtime update that leaves out what the running server depends on: a document without
 * `security.secret_key` makes the next start generate a random key (every session and API token dies), one
 * without `database.file` makes it open another (empty) database. Each needs an explicit confirmation.
 */
export function droppedKeyIssues(
  document: unknown,
  next: Config,
  previous: Config,
  confirmed: readonly DroppableKey[],
): ConfigIssue[] {
  const doc = asDocument(document);
  const issues: ConfigIssue[] = [];
  if (doc.security?.secret_key === undefined && !confirmed.includes('security.secret_key')) {
    issues.push({
      path: 'security.secret_key',
      message:
        'is missing: the next start would generate a random key and every session and API token would stop working. Send the key back (************ keeps the current one), or repeat with ?confirm=security.secret_key (benchtrack server config update --confirm security.secret_key)',
    });
  }
  const databaseChanged = JSON.stringify(next.database) !== JSON.stringify(previous.database);
  const named = doc.database?.file !== undefined || doc.database?.url !== undefined;
  if (!named && databaseChanged && !confirmed.includes('database')) {
    issues.push({
      path: 'database.file',
      message: `is missing: the next start would open ${databaseOf(next)} instead of ${databaseOf(previous)}, without the data there. Send the database section back, or repeat with ?confirm=database (benchtrack server config update --confirm database)`,
    });
  }
  return issues;
}

/**
 * A new log file with `if_exists: fail` that already exists would make the next start exit (spec), so the
 * update is refused now. The running server's own log file is not new, and is not checked.
 */
export function logFileIssues(next: Config, previous: Config): ConfigIssue[] {
  const log = next.logging.log;
  if (log.mode !== 'file' || log.if_exists !== 'fail' || !existsSync(log.path)) return [];
  const old = previous.logging.log;
  if (old.mode === 'file' && old.path === log.path && old.if_exists === 'fail') return [];
  return [
    {
      path: 'logging.log.if_exists',
      message: `is fail and the log file ${log.path} already exists, so the next start would exit; choose append or truncate, or another path`,
    },
  ];
}

export interface PluginCheckOptions {
  /** The running registry: its built-ins stay, the plugins of the running configuration are set aside. */
  readonly registry: PluginRegistry;
  /** Plugins of the running configuration (they may stay wherever they are). */
  readonly previous: Config['plugins'];
  /** Directory that relative specifiers resolve against (the configuration file's). */
  readonly baseDir: string;
}

/**
 * Checks the `plugins` list of a runtime update the way the next start will use it: every module is imported
 * and registered in a scratch registry (definition, API version, unique ids, options). A plugin that is not in
 * the running configuration must be an installed package or a file inside `baseDir`: an update over HTTP may
 * not make the server run code from anywhere else on disk.
 */
export async function pluginIssues(
  plugins: Config['plugins'],
  options: PluginCheckOptions,
): Promise<ConfigIssue[]> {
  const { baseDir } = options;
  const running = new Set(options.previous.map((entry) => entry.module));
  const scratch = options.registry.without(
    new Set(options.previous.map((entry) => toModuleSpecifier(entry.module, baseDir))),
  );
  const issues: ConfigIssue[] = [];
  for (const [index, entry] of plugins.entries()) {
    const path = `plugins[${index}]`;
    const misplaced = running.has(entry.module) ? undefined : placementProblem(entry.module, baseDir);
    if (misplaced) {
      issues.push({ path, message: misplaced });
      continue;
    }
    try {
      await scratch.load(entry.module, { options: entry.options, baseDir });
    } catch (error) {
      if (errorName(error) !== 'PluginError') throw error;
      issues.push({ path, message: (error as Error).message });
    }
  }
  return issues;
}

const ADVICE =
  'a plugin added through the API must be an installed package or a file in the configuration directory';

function placementProblem(specifier: string, baseDir: string): string | undefined {
  let file: string | undefined;
  if (specifier.startsWith('file:')) {
    try {
      file = fileURLToPath(specifier);
    } catch {
      return `${JSON.stringify(specifier)} is not a valid file URL`;
    }
  } else if (isAbsolute(specifier) || specifier.startsWith('./') || specifier.startsWith('../')) {
    file = resolve(baseDir, specifier);
  }
  if (file !== undefined) {
    const inside = relative(baseDir, file);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
      return `${JSON.stringify(specifier)} is ${file}, outside the configuration directory ${baseDir}: ${ADVICE}`;
    return undefined;
  }
  if (specifier.includes(':') || specifier.includes('\\') || specifier.split('/').includes('..'))
    return `${JSON.stringify(specifier)} is neither a package name nor a relative path: ${ADVICE}`;
  return undefined;
}
