import { dirname } from 'node:path';
import type { ConfigError } from '../core/index.js';
import {
  CONFIG_PATH_ENV,
  createLogger,
  errorName,
  loadConfig,
  redactConfig,
  secretValues,
  type LoadedConfig,
} from '../core/index.js';
import { CLOSE_GRACE_MS } from '../workers/pool.js';
import { composeApi, openDatabase, storageOpener } from './composition.js';
import { migrateCommand } from './migrate.js';
import { restoreCommand } from './restore.js';
import { STOP_GRACE_MS } from './runtime.js';

/** Past this, a shutdown that has not finished (a query or a native call that never returns) exits anyway. */
const SHUTDOWN_LIMIT_MS = STOP_GRACE_MS + CLOSE_GRACE_MS + 5_000;

/**
 * Entry of `benchtrack-api`: the configuration, then the composition root (server/composition.ts), then HTTP.
 * Nothing binds before the configuration is valid; SIGTERM/SIGINT drain in-flight requests and close the database.
 */
async function main(): Promise<void> {
  const loaded = loadOrExit();
  const { config } = loaded;
  const api = await composeApi(config, {
    baseDir: loaded.source.path ? dirname(loaded.source.path) : process.cwd(),
    configPath: process.env[CONFIG_PATH_ENV],
  });
  const { logger, runtime } = api;
  for (const warning of loaded.warnings) logger.warn(warning);
  logger.info({ source: loaded.source.description, config: redactConfig(config) }, 'configuration loaded');
  try {
    await runtime.start();
  } catch (error) {
    await api.close();
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
    await api.close();
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
  const logger = createLogger({
    name: config.logging.name,
    log: { mode: 'stderr_terminal', level: 'warn' },
    secrets: () => secretValues(config),
  });
  await restoreCommand(args, config, await storageOpener(config, logger));
  process.exit(0);
}

/**
 * `benchtrack-api migrate --to ...`: copies the configured database (or `--from`) into a new database of any
 * engine, then exits.
 */
async function migrate(args: readonly string[]): Promise<void> {
  const { config } = loadOrExit();
  const logger = createLogger({
    name: config.logging.name,
    log: { mode: 'stderr_terminal', level: 'warn' },
    secrets: () => secretValues(config),
  });
  await migrateCommand(args, config, (database) => openDatabase(database, logger));
  process.exit(0);
}

const commands: Record<string, (args: readonly string[]) => Promise<void>> = { restore, migrate };
const command = commands[process.argv[2] ?? ''];
(command ? command(process.argv.slice(3)) : main()).catch((error: unknown) => exitWith(error));
