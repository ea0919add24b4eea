import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorName, type ConfigIssue } from '../errors.js';
import { toModuleSpecifier, type PluginRegistry } from '../plugins/registry.js';
import { redactUrl, SECRET_PATHS, URL_SECRET_PATHS } from './redact.js';
import { configSchema, type Config } from './schema.js';
import { fileLocationProblem } from './writable.js';

/** The database a configuration opens, as a message shows it (a URL without its password). */
const databaseOf = (config: Config) =>
  config.database.url ? redactUrl(config.database.url) : config.database.file;

/**
 * The sections of the configuration document. `?confirm=` names one of them, or a key inside one
 * (`security.secret_key`, `server.tls`), to let an update leave it out.
 */
export const CONFIG_SECTIONS = Object.keys(configSchema.shape);

/** The problem with a `?confirm=` entry, or undefined when it names a key of the configuration. */
export function confirmKeyProblem(key: string): string | undefined {
  const [section = ''] = key.split('.');
  if (/^[a-z_]+(\.[a-z_]+)*$/.test(key) && CONFIG_SECTIONS.includes(section)) return undefined;
  return `must list configuration keys the document may leave out, comma-separated, such as security.secret_key, database, server or server.tls (a section of ${CONFIG_SECTIONS.join(', ')}, or a key in one); got ${JSON.stringify(key)}`;
}

type Document = Record<string, unknown>;

const isObject = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Settings compared as a whole: their spellings in a document differ from their parsed form. */
const WHOLE = new Set(['logging.log']);

/** Key paths whose value differs between two parsed configurations. */
function changedPaths(a: unknown, b: unknown, path: string[] = []): string[][] {
  if (isObject(a) && isObject(b) && !WHOLE.has(path.join('.'))) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) => changedPaths(a[key], b[key], [...path, key]));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
}

/**
 * Whether the document sets `path` (or a value above it that is not an object). `database.file` and
 * `database.url` name the database together: a document naming either has chosen it.
 */
function mentions(document: unknown, path: readonly string[]): boolean {
  const [section, key] = path;
  if (section === 'database' && (key === 'file' || key === 'url')) {
    const database = isObject(document) ? document.database : undefined;
    return isObject(database) && (database.file !== undefined || database.url !== undefined);
  }
  let node = document;
  for (const segment of path) {
    if (!isObject(node)) return node !== undefined;
    node = node[segment];
  }
  return node !== undefined;
}

const isSecret = (path: readonly string[]) =>
  [...SECRET_PATHS, ...URL_SECRET_PATHS].some(
    (secret) => secret.length === path.length && secret.every((s, i) => s === '*' || s === path[i]),
  );

/** A setting's value as a refusal shows it: scalars as JSON, secrets and structures not at all. */
const shown = (path: readonly string[], value: unknown) =>
  value === undefined || isObject(value) || Array.isArray(value) || isSecret(path)
    ? undefined
    : JSON.stringify(value);

const read = (config: Config, path: readonly string[]) =>
  path.reduce<unknown>((node, segment) => (isObject(node) ? node[segment] : undefined), config);

function droppedMessage(path: readonly string[], next: Config, previous: Config): string {
  const [section, key] = path;
  const advice = `Send it back, or repeat with ?confirm=${path.join('.')} (benchtrack server config update --confirm ${path.join('.')})`;
  if (section === 'database' && (key === 'file' || key === 'url'))
    return `is missing: the next start would open ${databaseOf(next)} instead of ${databaseOf(previous)}, without the data there. Send the database section back, or repeat with ?confirm=database (benchtrack server config update --confirm database)`;
  const before = shown(path, read(previous, path));
  const after = shown(path, read(next, path));
  if (read(next, path) === undefined)
    return `is missing: the update would remove the running setting${before ? ` ${before}` : ''}. ${advice}`;
  return `is missing: the update would change it${before ? ` from ${before}` : ''} to the default${after ? ` ${after}` : ''}. ${advice}`;
}

/**
 * Problems of a runtime update that leaves out what the running server depends on. The document replaces the
 * whole configuration, so a key it does not mention falls back to its default: a document holding only the
 * database would move the listener to 0.0.0.0 and the log back to stderr. Every setting whose value would change
 * that way needs an explicit confirmation (`?confirm=` naming it or its section). A document without
 * `security.secret_key` always does: the next start would generate a random key (every session and API token
 * dies), although the running server keeps its key until then.
 */
export function droppedKeyIssues(
  document: unknown,
  next: Config,
  previous: Config,
  confirmed: readonly string[],
): ConfigIssue[] {
  const isConfirmed = (path: string) => confirmed.some((key) => path === key || path.startsWith(`${key}.`));
  const issues: ConfigIssue[] = [];
  if (!mentions(document, ['security', 'secret_key']) && !isConfirmed('security.secret_key')) {
    issues.push({
      path: 'security.secret_key',
      message:
        'is missing: the next start would generate a random key and every session and API token would stop working. Send the key back (************ keeps the current one), or repeat with ?confirm=security.secret_key (benchtrack server config update --confirm security.secret_key)',
    });
  }
  let databaseNamed = false;
  for (const path of changedPaths(previous, next)) {
    const dotted = path.join('.');
    if (mentions(document, path) || isConfirmed(dotted)) continue;
    const database = dotted === 'database.file' || dotted === 'database.url';
    if (database && databaseNamed) continue;
    databaseNamed ||= database;
    issues.push({
      path: database ? 'database.file' : dotted,
      message: droppedMessage(path, next, previous),
    });
  }
  return issues;
}

/**
 * Files the next start opens that it could not: a new log file with `if_exists: fail` that already exists
 * (spec: the start exits), and a new log file or database file that cannot be written where it is named
 * ({@link fileLocationProblem}, the check the start itself makes of the log file). The running server's own
 * files are in use, and are not checked.
 */
export function nextStartIssues(next: Config, previous: Config): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const log = next.logging.log;
  const old = previous.logging.log;
  const sameLog = old.mode === 'file' && log.mode === 'file' && old.path === log.path;
  if (log.mode === 'file' && !(sameLog && old.if_exists === log.if_exists)) {
    if (log.if_exists === 'fail' && existsSync(log.path))
      issues.push({
        path: 'logging.log.if_exists',
        message: `is fail and the log file ${log.path} already exists, so the next start would exit; choose append or truncate, or another path`,
      });
    const problem = sameLog ? undefined : fileLocationProblem(log.path, 'log file');
    if (problem) issues.push({ path: 'logging.log.path', message: problem });
  }
  const file = next.database.file;
  if (file !== undefined && file !== previous.database.file) {
    const problem = fileLocationProblem(file, 'database file', true);
    if (problem) issues.push({ path: 'database.file', message: problem });
  }
  return issues;
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
