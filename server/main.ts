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
  type LoadedConfig,
  type Logger,
} from '../core/index.js';
import { registerBuiltins } from '../plugins/index.js';
import { WorkerPool } from '../workers/pool.js';
import { ServerRuntime } from './runtime.js';
import { defaultHeavyLimit } from './heavy-requests.js';

/**
 * Composition root of `benchtrack-api`: configuration, logger, plugins, storage, worker pool, HTTP. Nothing
 * binds before the configuration is valid; SIGTERM/SIGINT drain in-flight requests and close the database.
 */
async function main(): Promise<void> {
  const loaded = loadOrExit();
  const { config } = loaded;
  const logger = createLoggerOrExit(config);
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
  );
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

function createLoggerOrExit(config: Config): Logger {
  try {
    return createLogger({
      name: config.logging.name,
      log: config.logging.log,
      secrets: secretValues(config),
    });
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

main().catch((error: unknown) => exitWith(error));
