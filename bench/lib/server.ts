import type { AddressInfo } from 'node:net';
import { createLogger, parseConfigDocument, PluginRegistry } from '../../core/index.js';
import { registerBuiltins } from '../../plugins/index.js';
import { ServerRuntime } from '../../server/runtime.js';
import { WorkerPool } from '../../workers/pool.js';

export interface BenchServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The production server stack (runtime, storage, worker pool) on a database file, listening on 127.0.0.1. */
export async function startBenchServer(file: string): Promise<BenchServer> {
  const { config } = parseConfigDocument(
    {
      security: { secret_key: 'bench-secret-key-0123456789abcdef' },
      server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 64 * 1024 * 1024 },
      database: { file },
      logging: { log: { stderr_terminal: { level: 'error' } } },
    },
    { kind: 'default', description: 'bench' },
  );
  const logger = createLogger({ name: 'bench', log: config.logging.log });
  const registry = new PluginRegistry();
  await registerBuiltins(registry);
  const storage = await registry.get('storage', 'duckdb').plugin.open({ file }, { logger });
  const pool = new WorkerPool(logger);
  const runtime = new ServerRuntime({ logger, registry, storage, pool }, config, undefined, process.cwd());
  const app = await runtime.start();
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await runtime.stop();
      await pool.close();
      await storage.close();
    },
  };
}
