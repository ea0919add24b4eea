import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createLogger,
  parseConfigDocument,
  PluginRegistry,
  secretValues,
  type Config,
  type ConfigDocument,
  type LiveConfig,
  type Logger,
  type Storage,
  type WorkLimit,
} from '../../core/index.js';
import { registerBuiltins } from '../../plugins/index.js';
import { buildApp, type App } from '../../server/app.js';
import { ServerRuntime } from '../../server/runtime.js';
import { WorkerPool, type WorkerPoolOptions } from '../../workers/pool.js';

export interface TestApp {
  /** The application currently listening (a listener restart replaces it). */
  readonly app: App;
  readonly config: Config;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  readonly registry: PluginRegistry;
  readonly logger: Logger;
  /** Temporary directory holding the database file and the log. */
  readonly dir: string;
  /** Everything logged so far (Bunyan JSON lines). */
  logText(): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly now?: () => Date;
  readonly authAttemptsPerMinute?: number;
  /** File PUT /v0/server/config writes to (BENCHTRACK_CONFIG_PATH). */
  readonly configPath?: string;
  /** How long closing waits for requests in flight (the server's default otherwise). */
  readonly stopGraceMs?: number;
  /** Worker pool settings (two threads otherwise). */
  readonly pool?: WorkerPoolOptions;
  /** Options of the DuckDB storage plugin besides `file`. */
  readonly storage?: Record<string, unknown>;
  /** The heavy-request limit (the server's default otherwise). */
  readonly heavyLimit?: WorkLimit;
}

interface Base {
  config: Config;
  /** The configuration whose secrets the log redacts: the runtime's, once there is one. */
  running: { live: LiveConfig };
  logger: Logger;
  registry: PluginRegistry;
  storage: Storage;
  pool: WorkerPool;
  dir: string;
  logPath: string;
}

async function base(document: ConfigDocument, options: TestAppOptions = {}): Promise<Base> {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-test-'));
  const logPath = join(dir, 'api.log');
  const { config } = parseConfigDocument(
    {
      security: { secret_key: 'test-secret-key-0123456789abcdef' },
      server: { bind_address: '127.0.0.1:0' },
      logging: { log: { mode: 'file', level: 'debug', path: logPath, if_exists: 'append' } },
      database: { file: join(dir, 'benchtrack.db') },
      ...document,
    },
    { kind: 'default', description: 'test configuration' },
  );
  const running = { live: { current: config } as LiveConfig };
  const logger = createLogger({
    name: config.logging.name,
    log: config.logging.log,
    secrets: () => secretValues(running.live.current),
  });
  const registry = new PluginRegistry();
  await registerBuiltins(registry);
  const storage = await registry
    .get('storage', 'duckdb')
    .plugin.open({ ...options.storage, file: config.database.file }, { logger });
  const pool = new WorkerPool(logger, { maxThreads: 2, ...options.pool });
  return { config, running, logger, registry, storage, pool, dir, logPath };
}

function finish(b: Base, app: () => App, config: () => Config, stop: () => Promise<void>): TestApp {
  return {
    get app() {
      return app();
    },
    get config() {
      return config();
    },
    storage: b.storage,
    pool: b.pool,
    registry: b.registry,
    logger: b.logger,
    dir: b.dir,
    logText: () => readFileSync(b.logPath, 'utf8'),
    async close() {
      await stop();
      await b.pool.close();
      await b.storage.close();
      rmSync(b.dir, { recursive: true, force: true });
    },
  };
}

/**
 * The real server over a real temporary DuckDB file and a real worker pool, listening on 127.0.0.1 through
 * the same runtime as production (so `PUT /v0/server/config` works), logging JSON lines to a file. E-mail goes
 * to the log (no SMTP relay unless `document.smtp` says so).
 */
export async function createTestApp(
  document: ConfigDocument = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const b = await base(document, options);
  const runtime = new ServerRuntime(
    {
      logger: b.logger,
      registry: b.registry,
      storage: b.storage,
      pool: b.pool,
      ...(options.now ? { now: options.now } : {}),
      authAttemptsPerMinute: options.authAttemptsPerMinute ?? 10_000,
      ...(options.heavyLimit ? { heavyLimit: options.heavyLimit } : {}),
    },
    b.config,
    options.configPath,
    options.configPath ? dirname(options.configPath) : process.cwd(),
  );
  b.running.live = runtime.config;
  await runtime.start();
  return finish(
    b,
    () => runtime.app,
    () => runtime.config.current,
    () => runtime.stop(options.stopGraceMs),
  );
}

/** The application without listening, with extra routes added before it is ready (tests of the HTTP shell). */
export async function createShellTestApp(
  document: ConfigDocument,
  extend: (app: App) => void,
): Promise<TestApp> {
  const b = await base(document);
  const app = await buildApp({
    config: { current: b.config },
    logger: b.logger,
    registry: b.registry,
    storage: b.storage,
    pool: b.pool,
  });
  extend(app);
  await app.ready();
  return finish(
    b,
    () => app,
    () => b.config,
    () => app.close(),
  );
}
