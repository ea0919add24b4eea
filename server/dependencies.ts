import type {
  DroppableKey,
  LiveConfig,
  Logger,
  Mailer,
  PluginRegistry,
  Storage,
  WorkLimit,
} from '../core/index.js';
import type { WorkerPool } from '../workers/pool.js';

/** Everything the HTTP layer needs, wired by the composition root (server/main.ts) or by tests. */
export interface AppDependencies {
  /** The running configuration; replaced as a whole by `PUT /v0/server/config`. */
  readonly config: LiveConfig;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly storage: Storage;
  readonly pool: WorkerPool;
  /** Defaults to SMTP or the log, as the configuration says. */
  readonly mailer?: Mailer;
  readonly now?: () => Date;
  /** Bounds heavy requests in flight (server/heavy-requests.ts has the defaults); shared across listener restarts. */
  readonly heavyLimit?: WorkLimit;
  /** Authentication attempts (sign-up, login, confirm, invalid tokens) per client address per minute. */
  readonly authAttemptsPerMinute?: number;
  /**
   * Validates, saves and applies a new configuration document (the runtime restarts the listener if needed);
   * `confirmed` lists the keys the document may leave out.
   */
  readonly reconfigure?: (
    document: unknown,
    confirmed: readonly DroppableKey[],
  ) => Promise<{ config: unknown; pendingRestart: readonly string[] }>;
}
