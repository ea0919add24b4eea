import type { Config, Logger, PluginRegistry, Storage } from '../core/index.js';
import type { WorkerPool } from '../workers/pool.js';

/** Everything the HTTP layer needs, wired by the composition root (server/main.ts) or by tests. */
export interface AppDependencies {
  readonly config: Config;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly storage: Storage;
  readonly pool: WorkerPool;
}
