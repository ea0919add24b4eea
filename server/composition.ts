import { basename, dirname, join } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import {
  chooseStorage,
  createLogger,
  JobLeases,
  NotificationDispatcher,
  NotificationSignal,
  PluginRegistry,
  RegressionAnalyzer,
  ReplicationService,
  secretValues,
  StatsService,
  type Config,
  type DeliveryTiming,
  type Logger,
  type Mailer,
  type Storage,
  type WorkLimit,
} from '../core/index.js';
import { registerBuiltins } from '../plugins/index.js';
import { WorkerPool, type WorkerPoolOptions } from '../workers/pool.js';
import { CLOCK, createApiContainer, type RunningConfig } from './container.js';
import type { PendingAnswersOptions } from './heavy-requests.js';
import { ServerRuntime } from './runtime.js';
import { JobSweep } from './job-sweep.js';
import { NotificationLoop } from './notification-loop.js';
import type { Resolver } from './webhook-sender.js';
import { StatsSchedule } from './stats-schedule.js';

/** Where the configuration came from: relative plugin paths resolve against `baseDir`, updates go to `configPath`. */
export interface ConfigOrigin {
  readonly baseDir: string;
  /** The file `PUT /v0/server/config` writes (BENCHTRACK_CONFIG_PATH), if any. */
  readonly configPath?: string | undefined;
}

/** Parts a caller (a test, a benchmark) replaces; everything else comes from the configuration. */
export interface ApiReplacements {
  readonly logger?: Logger;
  readonly mailer?: Mailer;
  readonly now?: () => Date;
  readonly heavyLimit?: WorkLimit;
  readonly pendingAnswers?: PendingAnswersOptions;
  readonly authAttemptsPerMinute?: number;
  readonly pool?: WorkerPoolOptions;
  /** Options of the storage engine besides those the configuration gives. */
  readonly storage?: Record<string, unknown>;
  /** How notification deliveries are paced (tests shorten the pauses between attempts). */
  readonly deliveryTiming?: DeliveryTiming;
  /** How webhook host names are resolved (tests answer names of their own). */
  readonly webhookResolver?: Resolver;
  /** How long a data store or replica store may go without answering or moving a byte (30 s by default). */
  readonly storeStallMs?: number;
}

/** The composed API: its container, and the runtime that listens. */
export interface ComposedApi {
  readonly container: DependencyContainer;
  readonly runtime: ServerRuntime;
  readonly config: RunningConfig;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  readonly replication: ReplicationService;
  /** Stops replication (after a last sync), closes the worker pool and the database (after `runtime.stop()`). */
  close(): Promise<void>;
}

/**
 * Opens a database file with the storage engine the configuration selects (restore checks a backup this way);
 * the plugins the configuration lists are not loaded.
 */
export async function storageOpener(
  config: Config,
  logger: Logger,
): Promise<(file: string) => Promise<Storage>> {
  const registry = new PluginRegistry();
  registerBuiltins(registry);
  const { plugin, options } = chooseStorage(registry, config.database);
  return (file) => plugin.open({ ...options, file }, { logger });
}

/**
 * Opens the database a `database` section describes with the engine it selects (migrations applied), without the
 * plugins the configuration lists (`benchtrack-api migrate` opens two databases this way).
 */
export async function openDatabase(database: Config['database'], logger: Logger): Promise<Storage> {
  const registry = new PluginRegistry();
  registerBuiltins(registry);
  const { plugin, options } = chooseStorage(registry, database);
  return plugin.open(options, { logger });
}

/**
 * The composition root of `benchtrack-api`, shared by server/main.ts, the tests and the benchmarks: the logger,
 * the plugins (built-ins and those the configuration lists), the storage engine the configuration selects, the
 * worker pool, and the container that builds every service from them.
 */
export async function composeApi(
  config: Config,
  origin: ConfigOrigin,
  replace: ApiReplacements = {},
): Promise<ComposedApi> {
  const running: RunningConfig = { current: config };
  // secrets of the running configuration, which PUT /v0/server/config may change
  const logger =
    replace.logger ??
    createLogger({
      name: config.logging.name,
      log: config.logging.log,
      secrets: () => secretValues(running.current),
    });
  const registry = new PluginRegistry();
  registerBuiltins(registry);
  for (const entry of config.plugins) {
    const plugins = await registry.load(entry.module, { options: entry.options, baseDir: origin.baseDir });
    for (const { plugin } of plugins)
      logger.info({ plugin: plugin.id, kind: plugin.kind, module: entry.module }, 'plugin loaded');
  }
  const engine = chooseStorage(registry, config.database);
  const storage = await engine.plugin.open({ ...replace.storage, ...engine.options }, { logger });
  const file = config.database.file;
  let replication: ReplicationService;
  try {
    replication = await ReplicationService.create(
      storage,
      {
        replicas: config.plus?.disaster_recovery?.replicas ?? [],
        // replicas copy an embedded database file (an engine without one cannot replicate: create refuses)
        work: file === undefined ? '' : join(dirname(file), `.replication-${basename(file)}`),
        open: (copy) => engine.plugin.open({ ...engine.options, file: copy }, { logger }),
        ...(replace.storeStallMs ? { stallMs: replace.storeStallMs } : {}),
      },
      logger.child({ task: 'replication' }),
    );
    await replication.start();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const pool = new WorkerPool(logger, replace.pool);
  const container = createApiContainer({
    config: running,
    logger,
    registry,
    storage,
    pool,
    replication,
    ...(replace.mailer ? { mailer: replace.mailer } : {}),
    ...(replace.now ? { now: replace.now } : {}),
    ...(replace.heavyLimit ? { heavyLimit: replace.heavyLimit } : {}),
    ...(replace.pendingAnswers ? { pendingAnswers: replace.pendingAnswers } : {}),
    ...(replace.authAttemptsPerMinute ? { authAttemptsPerMinute: replace.authAttemptsPerMinute } : {}),
    ...(replace.deliveryTiming ? { deliveryTiming: replace.deliveryTiming } : {}),
    ...(replace.webhookResolver ? { webhookResolver: replace.webhookResolver } : {}),
    ...(replace.storeStallMs ? { storeStallMs: replace.storeStallMs } : {}),
  });
  const stats = new StatsSchedule(container.resolve(StatsService), running, logger, container.resolve(CLOCK));
  stats.start();
  const sweep = new JobSweep(container.resolve(JobLeases), running, logger.child({ task: 'job-sweep' }));
  sweep.start();
  const notifications = new NotificationLoop(
    container.resolve(NotificationDispatcher),
    container.resolve(NotificationSignal),
    logger.child({ task: 'notifications' }),
    container.resolve(CLOCK),
  );
  notifications.start();
  return {
    container,
    runtime: new ServerRuntime(container, origin.configPath, origin.baseDir),
    config: running,
    logger,
    registry,
    storage,
    pool,
    replication,
    async close() {
      await sweep.stop();
      await stats.stop();
      await container.resolve(RegressionAnalyzer).idle();
      await notifications.stop();
      await replication.stop();
      await pool.close();
      await storage.close();
    },
  };
}
