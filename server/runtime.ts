import { renameSync, writeFileSync } from 'node:fs';
import {
  CONFIG_ENV,
  InternalError,
  parseBindAddress,
  parseConfigDocument,
  REDACTED,
  redactConfig,
  SECRET_PATHS,
  type Config,
  type LiveConfig,
} from '../core/index.js';
import { buildApp, type App } from './app.js';
import type { AppDependencies } from './dependencies.js';

export interface ReconfigureResult {
  /** The new configuration with secrets redacted. */
  readonly config: Config;
  /** Keys that changed but only take effect at the next start. */
  readonly pendingRestart: readonly string[];
}

type RuntimeDependencies = Omit<AppDependencies, 'config' | 'reconfigure'>;

/** How long a stop waits for requests in flight before it closes their connections. */
export const STOP_GRACE_MS = 10_000;

/**
 * Owns the listening application: starts it, applies configuration updates (`PUT /v0/server/config`), and
 * stops it. A change of bind address, TLS or body limit starts a new listener and drains the old one.
 */
export class ServerRuntime {
  readonly #live: { current: Config };
  #app: App | undefined;

  constructor(
    private readonly deps: RuntimeDependencies,
    config: Config,
    /** File that `PUT /v0/server/config` writes (BENCHTRACK_CONFIG_PATH), if any. */
    private readonly configPath: string | undefined,
  ) {
    this.#live = { current: config };
  }

  get config(): LiveConfig {
    return this.#live;
  }

  get app(): App {
    if (!this.#app) throw new InternalError('the server is not started');
    return this.#app;
  }

  async start(): Promise<App> {
    this.#app = await this.#listen();
    return this.#app;
  }

  /**
   * Stops listening and waits for requests in flight, for `graceMs` at most: a client that never reads its
   * answer, or never finishes sending its body, would otherwise hold the shutdown open forever. After the grace
   * period every connection is closed.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    const app = this.#app;
    if (!app) return;
    const deadline = setTimeout(() => {
      this.deps.logger.warn(
        { grace_ms: graceMs },
        'requests still in flight after the grace period: closing them',
      );
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await app.close();
    } finally {
      clearTimeout(deadline);
      this.#app = undefined;
    }
  }

  /**
   * Validates a new document with the same schema as at start-up (secrets sent back as `************` keep
   * their current value), saves it to BENCHTRACK_CONFIG and to BENCHTRACK_CONFIG_PATH, and applies it. An
   * invalid document throws and changes nothing.
   */
  async reconfigure(document: unknown): Promise<ReconfigureResult> {
    const previous = this.#live.current;
    const merged = keepRedactedSecrets(document, previous);
    const { config } = parseConfigDocument(
      merged,
      { kind: 'env', description: 'PUT /v0/server/config' },
      previous.security.secret_key,
    );
    const text = JSON.stringify(merged, null, 2);
    if (this.configPath) {
      writeFileSync(`${this.configPath}.tmp`, `${text}\n`, { mode: 0o600 });
      renameSync(`${this.configPath}.tmp`, this.configPath);
    }
    process.env[CONFIG_ENV] = text;

    this.#live.current = config;
    this.deps.logger.level = config.logging.log.level;
    const pendingRestart: string[] = (['database', 'plugins'] as const).filter(
      (key) => JSON.stringify(config[key]) !== JSON.stringify(previous[key]),
    );
    if (JSON.stringify(logDestination(config)) !== JSON.stringify(logDestination(previous)))
      pendingRestart.push('logging');
    if (listenerChanged(previous, config)) await this.#restartListener();
    this.deps.logger.info({ pendingRestart }, 'configuration updated');
    return { config: redactConfig(config), pendingRestart };
  }

  async #listen(): Promise<App> {
    const app = await buildApp({
      ...this.deps,
      config: this.#live,
      reconfigure: (doc) => this.reconfigure(doc),
    });
    const address = parseBindAddress(this.#live.current.server.bind_address);
    if (!address)
      throw new InternalError(`bind_address ${this.#live.current.server.bind_address} passed validation`);
    await app.listen({ host: address.host, port: address.port });
    return app;
  }

  /** Starts the new listener first (so a bad address fails before the old one goes), then drains the old one. */
  async #restartListener(): Promise<void> {
    const old = this.#app;
    this.#app = await this.#listen();
    if (old) {
      const deadline = setTimeout(() => old.server.closeAllConnections(), STOP_GRACE_MS);
      setImmediate(() => void old.close().finally(() => clearTimeout(deadline)));
    }
  }
}

/** Where logs go; the level applies at once, a new destination at the next start. */
function logDestination({ logging }: Config) {
  return {
    name: logging.name,
    mode: logging.log.mode,
    path: logging.log.mode === 'file' ? logging.log.path : undefined,
  };
}

function listenerChanged(a: Config, b: Config): boolean {
  return (
    a.server.bind_address !== b.server.bind_address ||
    a.server.request_body_max_bytes !== b.server.request_body_max_bytes ||
    JSON.stringify(a.server.tls) !== JSON.stringify(b.server.tls)
  );
}

/** Replaces `************` at a secret's path with the secret currently configured there. */
function keepRedactedSecrets(document: unknown, current: Config): unknown {
  const copy = structuredClone(document);
  for (const path of SECRET_PATHS) restore(copy, current, path);
  return copy;
}

function restore(target: unknown, source: unknown, path: readonly string[]): void {
  if (typeof target !== 'object' || target === null || typeof source !== 'object' || source === null) return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '*') {
    if (!Array.isArray(target) || !Array.isArray(source)) return;
    target.forEach((item, i) => restore(item, source[i], rest));
    return;
  }
  const t = target as Record<string, unknown>;
  const s = source as Record<string, unknown>;
  if (rest.length === 0) {
    if (t[head] === REDACTED) t[head] = s[head];
  } else restore(t[head], s[head], rest);
}
