import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  parseConfigDocument,
  RegressionAnalyzer,
  type Config,
  type ConfigDocument,
  type DeliveryTiming,
  type Logger,
  type PluginRegistry,
  type Storage,
  type WorkLimit,
} from '../../core/index.js';
import { buildApp, type App } from '../../server/app.js';
import { composeApi } from '../../server/composition.js';
import type { PendingAnswersOptions } from '../../server/heavy-requests.js';
import type { Resolver } from '../../server/webhook-sender.js';
import type { WorkerPool, WorkerPoolOptions } from '../../workers/pool.js';
import { copyMigratedDuckdb } from './duckdb-template.js';
import { freshPostgresDatabase, onPostgres } from './engine.js';

export interface TestApp {
  /** The application currently listening (a listener restart replaces it). */
  readonly app: App;
  readonly config: Config;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  readonly registry: PluginRegistry;
  readonly logger: Logger;
  /** Settles once the regression analysis of every report so far has run (it runs after each report's commit). */
  settled(): Promise<void>;
  /** Temporary directory holding the log (and the database file on the embedded engine). */
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
  /** Worker pool settings (at most two threads, started when a task comes, otherwise). */
  readonly pool?: WorkerPoolOptions;
  /** Options of the storage plugin besides its file or URL. */
  readonly storage?: Record<string, unknown>;
  /** The heavy-request limit (the server's default otherwise). */
  readonly heavyLimit?: WorkLimit;
  readonly pendingAnswers?: PendingAnswersOptions;
  /** How notification deliveries are paced (production's pauses otherwise). */
  readonly deliveryTiming?: DeliveryTiming;
  /** How webhook host names are resolved (the system resolver otherwise). */
  readonly webhookResolver?: Resolver;
  /** How long a data store or replica store may go without answering (the server's default otherwise). */
  readonly storeStallMs?: number;
}

/**
 * A database of its own: a file in the test's directory, or in the integration-postgres project a fresh PostgreSQL
 * database (unless the test names a database file, which is then about the embedded engine). A test that names
 * its own database.url keeps it on either project. Either way a database the test does not name already holds the
 * migrated schema (a copy of a migrated template), as after the first start of a server; one it names is its own.
 */
async function testDatabase(dir: string, document: ConfigDocument) {
  if (document.database?.url !== undefined) return { database: document.database, drop: async () => {} };
  if (document.database?.file !== undefined) return { database: document.database, drop: async () => {} };
  if (!onPostgres) {
    const file = join(dir, 'benchtrack.db');
    await copyMigratedDuckdb(file);
    // deleted with its directory once closed: folding its WAL into it first (40-70 ms a test app) is wasted
    return {
      database: { file, ...document.database },
      storage: { checkpoint_on_close: false },
      drop: async () => {},
    };
  }
  const { url, drop } = await freshPostgresDatabase();
  return { database: { url, ...document.database }, drop };
}

async function testConfig(document: ConfigDocument) {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-test-'));
  const logPath = join(dir, 'api.log');
  const { database, drop, storage } = await testDatabase(dir, document);
  const { config } = parseConfigDocument(
    {
      security: { secret_key: 'test-secret-key-0123456789abcdef' },
      server: { bind_address: '127.0.0.1:0' },
      logging: { log: { mode: 'file', level: 'debug', path: logPath, if_exists: 'append' } },
      ...document,
      database,
    },
    { kind: 'default', description: 'test configuration' },
  );
  return { config, dir, logPath, drop, storage };
}

/** The production composition root over the test configuration, with the parts a test replaces. */
async function compose(document: ConfigDocument, options: TestAppOptions) {
  const { config, dir, logPath, drop, storage } = await testConfig(document);
  let api: Awaited<ReturnType<typeof composeApi>>;
  try {
    api = await composeApi(
      config,
      {
        baseDir: options.configPath ? dirname(options.configPath) : process.cwd(),
        configPath: options.configPath,
      },
      {
        // no thread until a task needs one (most test apps never run a task): a thread loads tsx and its task
        // modules, about 0.3 s of a test app's 0.7-1 s (measured at load 8)
        pool: { maxThreads: 2, minThreads: 0, ...options.pool },
        authAttemptsPerMinute: options.authAttemptsPerMinute ?? 10_000,
        ...(options.now ? { now: options.now } : {}),
        ...(options.heavyLimit ? { heavyLimit: options.heavyLimit } : {}),
        ...(options.pendingAnswers ? { pendingAnswers: options.pendingAnswers } : {}),
        ...(options.deliveryTiming ? { deliveryTiming: options.deliveryTiming } : {}),
        ...(options.webhookResolver ? { webhookResolver: options.webhookResolver } : {}),
        ...(options.storeStallMs ? { storeStallMs: options.storeStallMs } : {}),
        ...(storage || options.storage ? { storage: { ...storage, ...options.storage } } : {}),
      },
    );
  } catch (error) {
    // a configuration the server refuses (a test of start-up errors): its database and directory go at once
    await drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { api, dir, logPath, drop };
}

/** Closes what `compose` opened when the app then fails to start (a bad TLS file): its pool, database and directory. */
async function discard({ api, dir, drop }: Awaited<ReturnType<typeof compose>>): Promise<void> {
  await api.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
}

function finish(
  { api, dir, logPath, drop }: Awaited<ReturnType<typeof compose>>,
  app: () => App,
  stop: () => Promise<void>,
): TestApp {
  return {
    get app() {
      return app();
    },
    get config() {
      return api.config.current;
    },
    storage: api.storage,
    pool: api.pool,
    registry: api.registry,
    logger: api.logger,
    dir,
    logText: () => readFileSync(logPath, 'utf8'),
    settled: () => api.container.resolve(RegressionAnalyzer).idle(),
    async close() {
      await stop();
      await api.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The real server over a real temporary DuckDB file and a real worker pool, listening on 127.0.0.1 through
 * the same composition root and runtime as production (so `PUT /v0/server/config` works), logging JSON lines to
 * a file. E-mail goes to the log (no SMTP relay unless `document.smtp` says so).
 */
export async function createTestApp(
  document: ConfigDocument = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const composed = await compose(document, options);
  const { runtime } = composed.api;
  try {
    await runtime.start();
  } catch (error) {
    await discard(composed);
    throw error;
  }
  return finish(
    composed,
    () => runtime.app,
    () => runtime.stop(options.stopGraceMs),
  );
}

/** The application without listening, with extra routes added before it is ready (tests of the HTTP shell). */
export async function createShellTestApp(
  document: ConfigDocument,
  extend: (app: App) => void,
): Promise<TestApp> {
  const composed = await compose(document, {});
  let app: App;
  try {
    app = await buildApp(composed.api.container);
    extend(app);
    await app.ready();
  } catch (error) {
    await discard(composed);
    throw error;
  }
  return finish(
    composed,
    () => app,
    () => app.close(),
  );
}
