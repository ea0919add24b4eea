import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { formatPath } from '../issues.js';
import { missingPackageIssues } from './optional-packages.js';
import { configSchema, type Config } from './schema.js';

export const CONFIG_ENV = 'BENCHTRACK_CONFIG';
export const CONFIG_PATH_ENV = 'BENCHTRACK_CONFIG_PATH';
export const DEFAULT_CONFIG_PATH = '/etc/benchtrack/benchtrack.json';

/** Where the running configuration came from. `description` is what error lines and logs print. */
export interface ConfigSource {
  readonly kind: 'env' | 'path' | 'default_path' | 'default';
  readonly description: string;
  readonly path?: string;
}

export interface LoadedConfig {
  readonly config: Config;
  readonly source: ConfigSource;
  /** Things worth a warning in the log once the logger exists (it is configured by this document). */
  readonly warnings: readonly string[];
}

export interface LoadConfigOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Overrides `/etc/benchtrack/benchtrack.json` (tests). */
  readonly defaultPath?: string;
}

/**
 * Loads the configuration. Precedence, first match wins:
 * 1. `BENCHTRACK_CONFIG` (JSON text),
 * 2. the file named by `BENCHTRACK_CONFIG_PATH` (skipped with a warning when it does not exist),
 * 3. `/etc/benchtrack/benchtrack.json` when it exists,
 * 4. the default document.
 * Throws {@link ConfigError} listing every problem of the chosen document.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const defaultPath = options.defaultPath ?? DEFAULT_CONFIG_PATH;
  const warnings: string[] = [];

  const inline = env[CONFIG_ENV];
  if (inline !== undefined && inline.trim() !== '') {
    const source: ConfigSource = { kind: 'env', description: `environment variable ${CONFIG_ENV}` };
    return finish(parseJson(inline, source), source, warnings);
  }

  const configuredPath = env[CONFIG_PATH_ENV];
  if (configuredPath !== undefined && configuredPath.trim() !== '') {
    const source: ConfigSource = {
      kind: 'path',
      description: `file ${configuredPath} (${CONFIG_PATH_ENV})`,
      path: configuredPath,
    };
    const text = readIfExists(configuredPath, source);
    if (text !== undefined) return finish(parseJson(text, source), source, warnings);
    warnings.push(`${CONFIG_PATH_ENV} names ${configuredPath}, which does not exist; looking further`);
  }

  const defaultSource: ConfigSource = {
    kind: 'default_path',
    description: `file ${defaultPath}`,
    path: defaultPath,
  };
  const text = readIfExists(defaultPath, defaultSource);
  if (text !== undefined) return finish(parseJson(text, defaultSource), defaultSource, warnings);

  return finish({}, { kind: 'default', description: 'default configuration' }, warnings);
}

/**
 * Validates a configuration document (already parsed JSON) against the schema, and checks that the client package
 * of every configured replica and data store is installed. Used at start-up and by `PUT /v0/server/config`. A
 * missing `security.secret_key` is taken from `fallbackSecret` when given, otherwise generated, with a warning.
 */
export function parseConfigDocument(
  document: unknown,
  source: ConfigSource,
  fallbackSecret?: string,
): { config: Config; warnings: string[] } {
  const parsed = configSchema.safeParse(document);
  if (!parsed.success)
    throw new ConfigError(source.description, zodIssuesToConfigIssues(parsed.error.issues));
  const missing = missingPackageIssues(parsed.data);
  if (missing.length > 0) throw new ConfigError(source.description, missing);
  const warnings: string[] = [];
  let secret = parsed.data.security.secret_key ?? fallbackSecret;
  if (secret === undefined) {
    secret = randomUUID();
    warnings.push(
      'security.secret_key is not set: generated a random one for this run, so sessions and API tokens will not survive a restart; set security.secret_key to keep them',
    );
  }
  return { config: { ...parsed.data, security: { ...parsed.data.security, secret_key: secret } }, warnings };
}

function finish(document: unknown, source: ConfigSource, warnings: string[]): LoadedConfig {
  const { config, warnings: more } = parseConfigDocument(document, source);
  return { config, source, warnings: [...warnings, ...more] };
}

function readIfExists(path: string, source: ConfigSource): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError(source.description, [
      { path: '', message: `cannot read the file (${code ?? String(error)}); check its permissions` },
    ]);
  }
}

function parseJson(text: string, source: ConfigSource): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(source.description, [
      { path: '', message: `is not valid JSON: ${(error as Error).message}` },
    ]);
  }
}

/** Turns zod issues into one line per problem: the dotted key path and the rule. */
export function zodIssuesToConfigIssues(issues: readonly z.core.$ZodIssue[]): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          path: formatPath([...issue.path, key]),
          message: 'is not a known key; check its spelling against the configuration reference',
        });
      }
      continue;
    }
    out.push({ path: formatPath(issue.path), message: issue.message });
  }
  return out;
}
