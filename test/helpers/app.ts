import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  parseConfigDocument,
  PluginRegistry,
  secretValues,
  type Config,
  type ConfigDocument,
  type Storage,
} from '../../core/index.js';
import { registerBuiltins } from '../../plugins/index.js';
import { buildApp, type App } from '../../server/app.js';
import { WorkerPool } from '../../workers/pool.js';

export interface TestApp {
  readonly app: App;
  readonly config: Config;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  readonly registry: PluginRegistry;
  /** Temporary directory holding the database file and the log. */
  readonly dir: string;
  /** Everything logged so far (Bunyan JSON lines). */
  logText(): string;
  close(): Promise<void>;
}

/**
 * The real application over a real temporary DuckDB file and a real worker pool, logging JSON lines to a file
 * in the temporary directory. `document` is merged over the test defaults; `extend` may add routes before
 * the app is ready (to exercise the shell's behaviour with bodies, slow handlers, thrown errors).
 */
export async function createTestApp(
  document: ConfigDocument = {},
  extend?: (app: App) => void,
): Promise<TestApp> {
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
  const logger = createLogger({
    name: config.logging.name,
    log: config.logging.log,
    secrets: secretValues(config),
  });
  const registry = new PluginRegistry();
  registerBuiltins(registry);
  const storage = await registry
    .get('storage', 'duckdb')
    .plugin.open({ file: config.database.file }, { logger });
  const pool = new WorkerPool(logger, { maxThreads: 2 });
  const app = await buildApp({ config, logger, registry, storage, pool });
  extend?.(app);
  await app.ready();
  return {
    app,
    config,
    storage,
    pool,
    registry,
    dir,
    logText: () => readFileSync(logPath, 'utf8'),
    async close() {
      await app.close();
      await pool.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
