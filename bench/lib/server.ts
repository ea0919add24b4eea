import type { AddressInfo } from 'node:net';
import { parseConfigDocument, type ConfigDocument } from '../../core/index.js';
import { composeApi, type ComposedApi } from '../../server/composition.js';

export interface BenchServer {
  readonly url: string;
  /** The composed API, for benches that look inside it (bench/ingest-anatomy.ts). */
  readonly api: ComposedApi;
  close(): Promise<void>;
}

/**
 * The production server stack (runtime, storage, worker pool) on a database file, or on the configuration's
 * `database` section given (a PostgreSQL URL), listening on 127.0.0.1.
 */
export async function startBenchServer(
  database: string | ConfigDocument['database'],
  extra: ConfigDocument = {},
): Promise<BenchServer> {
  const { config } = parseConfigDocument(
    {
      security: { secret_key: 'bench-secret-key-0123456789abcdef' },
      server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 64 * 1024 * 1024 },
      database: typeof database === 'string' ? { file: database } : database,
      logging: { log: { stderr_terminal: { level: 'error' } } },
      ...extra,
    },
    { kind: 'default', description: 'bench' },
  );
  const api = await composeApi(config, { baseDir: process.cwd() });
  const app = await api.runtime.start();
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    api,
    async close() {
      await api.runtime.stop();
      await api.close();
    },
  };
}
