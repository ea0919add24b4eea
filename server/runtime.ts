import { renameSync, writeFileSync } from 'node:fs';
import {
  CONFIG_ENV,
  ConfigError,
  droppedKeyIssues,
  errorName,
  InternalError,
  nextStartIssues,
  pluginIssues,
  UnavailableError,
  parseBindAddress,
  parseConfigDocument,
  REDACTED,
  redactConfig,
  SECRET_PATHS,
  URL_SECRET_PATHS,
  keepUrlPassword,
  type Config,
  type LiveConfig,
  type Logger,
  type PluginRegistry,
} from '../core/index.js';
import type { FastifyListenOptions } from 'fastify';
import type { DependencyContainer } from 'tsyringe';
import { buildApp, type App } from './app.js';
import { closeUnusedConnectionsOnClose } from './connections.js';
import { CONFIG, LOGGER, REGISTRY, type RunningConfig } from './container.js';

export interface ReconfigureResult {
  /** The new configuration with secrets redacted. */
  readonly config: Config;
  /** Keys that changed but only take effect at the next start. */
  readonly pendingRestart: readonly string[];
}

/** How long a stop waits for requests in flight before it closes their connections. */
export const STOP_GRACE_MS = 10_000;

/**
 * Owns the listening application: starts it, applies configuration updates (`PUT /v0/server/config`), and
 * stops it. A change of bind address, TLS or trusted proxies starts a new listener, on the same address too, and
 * drains the old one.
 */
export class ServerRuntime {
  readonly #live: RunningConfig;
  readonly #logger: Logger;
  readonly #registry: PluginRegistry;
  #app: App | undefined;
  #updating: Promise<unknown> = Promise.resolve();

  constructor(
    /** The API's container (server/container.ts); its CONFIG is the running configuration this runtime updates. */
    private readonly container: DependencyContainer,
    /** File that `PUT /v0/server/config` writes (BENCHTRACK_CONFIG_PATH), if any. */
    private readonly configPath: string | undefined,
    /** Directory that relative plugin specifiers resolve against, as at start-up. */
    private readonly baseDir: string,
  ) {
    this.#live = container.resolve(CONFIG);
    this.#logger = container.resolve(LOGGER);
    this.#registry = container.resolve(REGISTRY);
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
      this.#logger.warn(
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
   * their current value), refuses one that leaves out the secret key, or a key whose running value would then
   * change, unless `confirmed` names it, checks the files the next start opens and its plugins the way it will
   * load them, and opens the new listener if the listener settings changed. Only then is the document saved (BENCHTRACK_CONFIG_PATH, then
   * BENCHTRACK_CONFIG) and applied. Any failure throws and leaves the saved document, the running configuration
   * and the listener as they were.
   */
  reconfigure(document: unknown, confirmed: readonly string[] = []): Promise<ReconfigureResult> {
    // One update at a time: each is checked against, and replaces, what the one before it applied.
    const result = this.#updating.then(() => this.#reconfigure(document, confirmed));
    this.#updating = result.catch(() => undefined);
    return result;
  }

  async #reconfigure(document: unknown, confirmed: readonly string[]): Promise<ReconfigureResult> {
    const previous = this.#live.current;
    const merged = keepRedactedSecrets(document, previous);
    const source = { kind: 'env', description: 'PUT /v0/server/config' } as const;
    const { config } = parseConfigDocument(merged, source, previous.security.secret_key);
    const issues = [
      ...droppedKeyIssues(merged, config, previous, confirmed),
      ...nextStartIssues(config, previous),
      ...(await pluginIssues(config.plugins, {
        registry: this.#registry,
        previous: previous.plugins,
        baseDir: this.baseDir,
      })),
    ];
    if (issues.length > 0) throw new ConfigError(source.description, issues);

    const next = listenerChanged(previous, config) ? await this.#listen(config) : undefined;
    try {
      this.#save(merged);
    } catch (error) {
      await next?.close();
      throw error;
    }
    this.#live.current = config;
    this.#logger.level = config.logging.log.level;
    if (next) this.#replaceListener(next);
    const pendingRestart: string[] = (['database', 'plugins'] as const).filter(
      (key) => JSON.stringify(config[key]) !== JSON.stringify(previous[key]),
    );
    if (JSON.stringify(logDestination(config)) !== JSON.stringify(logDestination(previous)))
      pendingRestart.push('logging');
    this.#logger.info({ pendingRestart }, 'configuration updated');
    return { config: redactConfig(config), pendingRestart };
  }

  /** Writes the file first (the one that outlives the process), then the environment variable. */
  #save(document: unknown): void {
    const text = JSON.stringify(document, null, 2);
    if (this.configPath) {
      try {
        writeFileSync(`${this.configPath}.tmp`, `${text}\n`, { mode: 0o600 });
        renameSync(`${this.configPath}.tmp`, this.configPath);
      } catch (error) {
        throw new UnavailableError(
          `cannot save the configuration to ${this.configPath} (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was changed: make the file and its directory writable by the server, then send the update again`,
        );
      }
    }
    process.env[CONFIG_ENV] = text;
  }

  /** Builds and opens a listener for `config`; a listener that cannot open is a configuration problem. */
  async #listen(config: Config = this.#live.current): Promise<App> {
    const reconfigure = (doc: unknown, confirmed: readonly string[]) => this.reconfigure(doc, confirmed);
    const app = await buildApp(this.container, config.server, reconfigure).catch((error: unknown) => {
      throw config.server.tls && errorName(error) !== 'ConfigError' ? tlsError(error) : error;
    });
    const address = parseBindAddress(config.server.bind_address);
    if (!address) throw new InternalError(`bind_address ${config.server.bind_address} passed validation`);
    closeUnusedConnectionsOnClose(app);
    // reusePort (Node.js 22.12 and later; fastify passes it on to net.Server.listen): a new listener on the address
    // of the running one (a TLS change) opens beside it, then the old one stops taking connections and drains
    const options: FastifyListenOptions & { reusePort: boolean } = { ...address, reusePort: true };
    try {
      await app.listen(options);
    } catch (error) {
      await app.close();
      throw listenError(error, config.server.bind_address);
    }
    return app;
  }

  /** Swaps in the new listener, then drains the old one in the background. */
  #replaceListener(next: App): void {
    const old = this.#app;
    this.#app = next;
    if (old) {
      // the old listener stops taking connections now: on the same address (reusePort), a connection it took after
      // the update's answer would be served with the old settings (plain HTTP where TLS was asked for)
      old.server.close();
      const deadline = setTimeout(() => old.server.closeAllConnections(), STOP_GRACE_MS);
      setImmediate(() => void old.close().finally(() => clearTimeout(deadline)));
    }
  }
}

const LISTEN_ADVICE: Record<string, string> = {
  EADDRINUSE: 'the address is in use; choose a free port or stop what listens there',
  EADDRNOTAVAIL: 'the IP address is not one of this machine; use one of its addresses, 127.0.0.1 or 0.0.0.0',
  EACCES: 'permission denied; ports below 1024 need privileges, choose a higher port',
};

function tlsError(error: unknown): ConfigError {
  return new ConfigError('server.tls', [
    {
      path: 'server.tls',
      message: `cannot be used: ${(error as Error).message}; give a PEM certificate chain and its PKCS #8 private key`,
    },
  ]);
}

function listenError(error: unknown, bindAddress: string): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const advice = LISTEN_ADVICE[code];
  if (!advice) return error;
  return new ConfigError('server.bind_address', [
    { path: 'server.bind_address', message: `cannot listen on ${bindAddress} (${code}): ${advice}` },
  ]);
}

/** Where logs go; the level applies at once, a new destination at the next start. */
function logDestination({ logging }: Config) {
  return {
    name: logging.name,
    mode: logging.log.mode,
    path: logging.log.mode === 'file' ? logging.log.path : undefined,
  };
}

/** Settings built into a listener; the body limit is read for every request and needs none. */
function listenerChanged(a: Config, b: Config): boolean {
  return (
    a.server.bind_address !== b.server.bind_address ||
    JSON.stringify(a.server.tls) !== JSON.stringify(b.server.tls) ||
    JSON.stringify(a.server.trusted_proxies) !== JSON.stringify(b.server.trusted_proxies)
  );
}

/** Replaces `************` at a secret's path with the secret currently configured there. */
function keepRedactedSecrets(document: unknown, current: Config): unknown {
  const copy = structuredClone(document);
  for (const path of SECRET_PATHS) restore(copy, current, path);
  for (const path of URL_SECRET_PATHS) restore(copy, current, path, keepUrlPassword);
  return copy;
}

/** A secret sent back as `************` keeps the current one. */
const keepRedacted = (sent: unknown, current: unknown) => (sent === REDACTED ? current : sent);

function restore(
  target: unknown,
  source: unknown,
  path: readonly string[],
  keep: (sent: unknown, current: unknown) => unknown = keepRedacted,
): void {
  if (typeof target !== 'object' || target === null || typeof source !== 'object' || source === null) return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '*') {
    if (!Array.isArray(target) || !Array.isArray(source)) return;
    // a list of secrets (database.replicas): each element is one, kept against the element at its index
    if (rest.length === 0) target.forEach((item, i) => (target[i] = keep(item, source[i])));
    else target.forEach((item, i) => restore(item, source[i], rest, keep));
    return;
  }
  const t = target as Record<string, unknown>;
  const s = source as Record<string, unknown>;
  if (rest.length === 0) {
    if (head in t) t[head] = keep(t[head], s[head]);
  } else restore(t[head], s[head], rest, keep);
}
