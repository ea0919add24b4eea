import { dirname } from 'node:path';
import type { ConfigError } from '../core/index.js';
import {
  CONFIG_PATH_ENV,
  createLogger,
  errorName,
  loadConfig,
  PluginRegistry,
  redactConfig,
  secretValues,
  type Config,
  type LiveConfig,
  type LoadedConfig,
  type Logger,
} from '../core/index.js';
import { registerBuiltins } from '../plugins/index.js';
import { CLOSE_GRACE_MS, WorkerPool } from '../workers/pool.js';
import { defaultHeavyLimit } from './heavy-requests.js';
import { restoreCommand } from './restore.js';
import { ServerRuntime, STOP_GRACE_MS } from './runtime.js';

/** Past this, a shutdown that has not finished (a query or a native call that never returns) exits anyway. */
const SHUTDOWN_LIMIT_MS = STOP_GRACE_MS + CLOSE_GRACE_MS + 5_000;

/**
 * Composition root of `benchtrack-api`: configuration, logger, plugins, storage, worker pool, HTTP. Nothing
 * binds before the configuration is valid; SIGTERM/SIGINT drain in-flight requests and close the database.
 */
async function main(): Promise<void> {
  const loaded = loadOrExit();
  const { config } = loaded;
  // Redact the secrets of the running configuration, which PUT /v0/server/config may change.
  let running: LiveConfig = { current: config };
  const logger = createLoggerOrExit(config, () => secretValues(running.current));
  for (const warning of loaded.warnings) logger.warn(warning);
  logger.info({ source: loaded.source.description, config: redactConfig(config) }, 'configuration loaded');

  const registry = new PluginRegistry();
  await registerBuiltins(registry);
  const baseDir = loaded.source.path ? dirname(loaded.source.path) : process.cwd();
  for (const entry of config.plugins) {
    const plugins = await registry.load(entry.module, { options: entry.options, baseDir });
    for (const { plugin } of plugins)
      logger.info({ plugin: plugin.id, kind: plugin.kind, module: entry.module }, 'plugin loaded');
  }

  const storage = await registry
    .get('storage', 'duckdb')
    .plugin.open({ file: config.database.file }, { logger });
  const pool = new WorkerPool(logger);

  const runtime = new ServerRuntime(
    // one limit for the process: a listener restart (PUT /v0/server/config) does not reset it
    { logger, registry, storage, pool, heavyLimit: defaultHeavyLimit() },
    config,
    process.env[CONFIG_PATH_ENV],
    baseDir,
  );
  running = runtime.config;
  try {
    await runtime.start();
  } catch (error) {
    await pool.close();
    await storage.close();
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    setTimeout(() => {
      logger.error({ limit_ms: SHUTDOWN_LIMIT_MS }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    await runtime.stop();
    await pool.close();
    await storage.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

function loadOrExit(): LoadedConfig {
  try {
    return loadConfig();
  } catch (error) {
    exitWith(error);
  }
}

function createLoggerOrExit(config: Config, secrets: () => readonly string[]): Logger {
  try {
    return createLogger({ name: config.logging.name, log: config.logging.log, secrets });
  } catch (error) {
    exitWith(error);
  }
}

/** Start-up failures before (or without) a logger: one line per problem on stderr, exit code 1. */
function exitWith(error: unknown): never {
  const message =
    errorName(error) === 'ConfigError'
      ? (error as ConfigError).message
      : String((error as Error).message ?? error);
  process.stderr.write(`benchtrack-api: ${message.split('\n').join('\nbenchtrack-api: ')}\n`);
  process.exit(1);
}

/**
 * `benchtrack-api restore ...`: rebuilds the configured database from a backup, then exits (the server must be
 * stopped: a database another process holds is refused).
 */
async function restore(args: readonly string[]): Promise<void> {
  const { config } = loadOrExit();
  const logger = createLoggerOrExit(
    { ...config, logging: { ...config.logging, log: { mode: 'stderr_terminal', level: 'warn' } } },
    () => secretValues(config),
  );
  const registry = new PluginRegistry();
  await registerBuiltins(registry);
  const storage = registry.get('storage', 'duckdb').plugin;
  await restoreCommand(args, config, (file) => storage.open({ file }, { logger }));
  process.exit(0);
}

(process.argv[2] === 'restore' ? restore(process.argv.slice(3)) : main()).catch((error: unknown) =>
  exitWith(error),
);
