import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { StorageError, type Logger, type StorageHealth } from '../../../kit/index.js';
import { QueryCache } from './cache.js';
import { DeferredRows } from './deferred.js';
import { HistoryCache } from './history-cache.js';
import { LatestVersions } from './latest-versions.js';
import { committedAnyway, failureOf, unavailable } from './failures.js';
import {
  closeHandle,
  connectAll,
  openError,
  optionsSchema,
  prepareLocation,
  type DatabaseOptions,
  type DuckDbOptions,
  type Handle,
} from './handle.js';
import { useReadView, useWriter } from './sql.js';

/** Files opened by this process: DuckDB must have exactly one instance per file per process. */
const openFiles = new Set<string>();

/** Writes committed together at most: bounds what one failure makes run again. */
const GROUP_MAX = 16;

interface PendingWrite {
  readonly fn: (connection: DuckDBConnection) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Pauses between attempts to reopen an invalidated database: from half a second, doubling, up to 10 s. */
const REOPEN_FIRST_DELAY_MS = 500;
const REOPEN_MAX_DELAY_MS = 10_000;

/** BEGIN plus a catalog read: DuckDB takes a transaction's snapshot at its first access, not at BEGIN. */
const ANCHORED_BEGIN = 'BEGIN TRANSACTION; SELECT NULL FROM duckdb_schemas() LIMIT 0';

/**
 * One DuckDB file: one instance, one writer connection used by one transaction at a time, and a small pool of
 * reader connections; init-once, no use after close, serialized writes. After a fatal I/O error (a checkpoint on a
 * full disk) every call fails with an UnavailableError (503) while the instance is reopened; `health()` tells.
 */
export class Database {
  #closed = false;
  #handle: Handle | undefined;
  #state: { readonly status: 'ok' | 'disk_full' | 'reopening'; readonly since?: Date } = { status: 'ok' };
  #reopened = 0;
  #reopening: Promise<void> | undefined;
  readonly #stopReopening = new AbortController();
  readonly #pendingWrites: PendingWrite[] = [];
  #writing = false;
  readonly #idleReaders: DuckDBConnection[] = [];
  readonly #waitingReaders: ((connection: DuckDBConnection) => void)[] = [];
  readonly #inFlight = new Set<Promise<unknown>>();
  #nextMetricId: bigint | undefined;
  #commits = 0;
  /** The caches beside the writer and the readers (cache.ts, history-cache.ts, latest-versions.ts). */
  cache!: QueryCache;
  historyCache!: HistoryCache;
  latestVersions!: LatestVersions;
  /** Rows of the running write transaction waiting to be inserted (deferred.ts); replaced with the instance. */
  deferred!: DeferredRows;
  /** Sends the waiting rows' INSERT statements and COMMIT in one call, shown to no cache (they know of them). */
  #commitWith!: (inserts: string) => Promise<unknown>;

  private constructor(
    readonly path: string,
    private readonly options: DatabaseOptions,
    handle: Handle,
    readonly logger: Logger,
  ) {
    this.#install(handle);
  }

  static async open(input: DuckDbOptions, logger: Logger): Promise<Database> {
    const options = optionsSchema.parse(input);
    const path = resolve(options.file);
    if (openFiles.has(path)) {
      throw new StorageError(
        `database ${path} is already open in this process; open it once and share the storage`,
      );
    }
    prepareLocation(path);
    const handle = await connectAll(path, options).catch((error: unknown) => {
      throw openError(path, error);
    });
    openFiles.add(path);
    const setting = await handle.writer.runAndReadAll(`SELECT current_setting('memory_limit')`);
    logger.info({ path, memory_limit: setting.getRows()[0]?.[0] }, 'database opened');
    return new Database(path, options, handle, logger);
  }

  /** The writer connection, for migrations (before the database is shared). */
  get setupConnection(): DuckDBConnection {
    return this.#live().writer;
  }

  /** Write transactions committed since the database was opened (replication skips a sync when unchanged). */
  get commits(): number {
    return this.#commits;
  }

  /** A connection of its own for long background work (compaction, snapshots) outside the writer queue. */
  async connect(): Promise<DuckDBConnection> {
    const { instance, others } = this.#live();
    const connection = await instance.connect();
    others.add(connection);
    return connection;
  }

  /** Closes a connection from `connect` before the database closes. */
  disconnect(connection: DuckDBConnection): void {
    this.#handle?.others.delete(connection);
    connection.closeSync();
  }

  health(): StorageHealth {
    if (this.#closed) return { status: 'closed', reopened: this.#reopened };
    const { status, since } = this.#state;
    return { status, ...(since ? { since: since.toISOString() } : {}), reopened: this.#reopened };
  }

  /** The open instance, or the error a new call gets while there is none (closed, or being reopened). */
  #live(): Handle {
    if (this.#closed) throw new StorageError(`database ${this.path} is closed`);
    return this.#current();
  }

  /** The open instance for work already accepted (it finishes after close begins), unless it is being reopened. */
  #current(): Handle {
    if (!this.#handle || this.#state.status === 'reopening') throw unavailable('fatal');
    return this.#handle;
  }

  /**
   * Runs `fn` in a write transaction on the writer connection, in call order. Writes that queue up while one runs
   * commit together (one commit and WAL sync for many reports); when one of a group fails, the group rolls back and
   * each runs again alone, so a failure is only ever its own. `fn` may run twice: no effects outside the database.
   */
  write<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#track(
      () =>
        new Promise<T>((resolve, reject) => {
          this.#pendingWrites.push({ fn, resolve, reject } as PendingWrite);
          void this.#drainWrites();
        }),
    );
  }

  async #drainWrites(): Promise<void> {
    if (this.#writing) return;
    this.#writing = true;
    try {
      while (this.#pendingWrites.length > 0) {
        const group = this.#pendingWrites.splice(0, GROUP_MAX);
        if (group.length > 1 && (await this.#commitTogether(group)) === undefined) continue;
        for (const write of group) {
          const failed = await this.#commitTogether([write]);
          if (failed) write.reject(failed.error);
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  /** Undefined when the whole group committed (each write is then resolved); the error after a rollback. */
  async #commitTogether(group: readonly PendingWrite[]): Promise<{ error: unknown } | undefined> {
    const results: unknown[] = [];
    let committed = false;
    try {
      const { writer } = this.#current();
      await writer.run('BEGIN TRANSACTION');
      for (const write of group) results.push(await write.fn(writer));
      await this.#commit();
      committed = true;
    } catch (error) {
      await this.#rollback();
      return { error };
    } finally {
      this.cache.endTransaction();
      this.historyCache.end(committed);
      this.latestVersions.end(committed);
    }
    group.forEach((write, i) => write.resolve(results[i]));
    return undefined;
  }

  /**
   * COMMIT with the rows still waiting in the same call (deferred.ts), the cache told before and after. A
   * commit made durable before its checkpoint failed counts as made (the database is reopened).
   */
  async #commit(): Promise<void> {
    const inserts = this.deferred.take();
    const changed = this.cache.beginCommit();
    try {
      await this.#commitWith(inserts);
      if (this.#state.status === 'disk_full') this.#state = { status: 'ok' };
    } catch (error) {
      if (!committedAnyway(error)) throw error;
      this.#failed(error);
    } finally {
      this.cache.endCommit(changed);
    }
    this.#commits += 1;
  }

  /**
   * Runs `fn` on a reader connection as one consistent snapshot. A read the cache answers whole costs no
   * BEGIN; the first statement that reaches DuckDB begins and anchors the snapshot (sql.ts). If a table the cache
   * answered from changed before that, the attempt is dropped and `fn` runs again, anchored before it starts.
   */
  read<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.#track(async () => {
      const connection =
        this.#idleReaders.pop() ??
        (await new Promise<DuckDBConnection>((resolve) => this.#waitingReaders.push(resolve)));
      try {
        const first = await this.#readOn(connection, fn, false);
        if (!first.stale) return first.value;
        const again = await this.#readOn(connection, fn, true);
        // anchored before `fn` began, nothing was served before the snapshot
        if (again.stale) throw new StorageError('a read anchored at its start found its snapshot stale');
        return again.value;
      } finally {
        this.#releaseReader(connection);
      }
    });
  }

  /** One attempt of `read`, anchored by its first statement (or at once, `eager`); stale answers are dropped. */
  async #readOn<T>(
    connection: DuckDBConnection,
    fn: (connection: DuckDBConnection) => Promise<T>,
    eager: boolean,
  ): Promise<{ stale: true; value?: undefined } | { stale: false; value: T }> {
    const view = this.cache.view();
    const served = new Set<string>();
    let anchoring: Promise<void> | undefined;
    let begun = false;
    let stale = false;
    const anchor = () =>
      (anchoring ??= (async () => {
        await connection.run(ANCHORED_BEGIN);
        begun = true;
        if (!this.cache.current(served, view)) {
          stale = true;
          throw new StorageError('the cache changed before the snapshot; the read runs again');
        }
      })());
    useReadView(connection, { cache: this.cache, before: anchor, view, served });
    try {
      if (eager) await anchor();
      const value = await fn(connection);
      return stale ? { stale } : { stale, value };
    } catch (error) {
      if (stale) return { stale };
      throw error;
    } finally {
      useReadView(connection, undefined);
      if (begun) await connection.run('COMMIT');
    }
  }

  /**
   * Reserves `count` consecutive metric ids and returns the first, inside a write transaction: the single writer
   * of a file only this process opens makes an in-process counter safe. Ids of a rollback are skipped.
   */
  async reserveMetricIds(connection: DuckDBConnection, count: number): Promise<bigint> {
    if (this.#nextMetricId === undefined) {
      const reader = await connection.runAndReadAll('SELECT coalesce(max(id), 0)::BIGINT + 1 FROM metric');
      this.#nextMetricId = BigInt(reader.getRows()[0]?.[0] as bigint);
    }
    const first = this.#nextMetricId;
    this.#nextMetricId += BigInt(count);
    return first;
  }

  /** Reads ids from the table and sequences again (after a bulk import wrote rows with their own ids). */
  forgetMetricIds(): void {
    this.#nextMetricId = undefined;
    this.deferred.forgetIds();
  }

  /** Waits for running work, then releases every connection and the file. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopReopening.abort();
    await this.#reopening;
    await Promise.allSettled([...this.#inFlight]);
    // refused by an instance DuckDB invalidated: closing then checkpoints if it can, as by default
    if (!this.options.checkpoint_on_close && this.#handle)
      await this.#handle.writer.run('PRAGMA disable_checkpoint_on_shutdown').catch(() => undefined);
    this.#release();
    openFiles.delete(this.path);
    this.logger.debug({ path: this.path }, 'database closed');
  }

  /**
   * Starts a call unless the database is closed or being reopened, tracks it until it settles, and turns a
   * disk-full or fatal engine error into an UnavailableError.
   */
  async #track<T>(start: () => Promise<T>): Promise<T> {
    this.#live();
    const tracked = start().catch((error: unknown) => {
      throw this.#failed(error);
    });
    this.#inFlight.add(tracked);
    const forget = () => this.#inFlight.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  /** Records what an engine error says about the database (reopening it after a fatal one); the caller's error. */
  #failed(error: unknown): unknown {
    const failure = failureOf(error);
    if (failure === undefined) return error;
    const log = { err: error, path: this.path };
    if (failure === 'fatal' && !this.#closed && !this.#reopening) {
      this.#state = { status: 'reopening', since: new Date() };
      this.logger.error(log, 'database invalidated by a fatal error: reopening it');
      this.#reopening = this.#reopen().finally(() => (this.#reopening = undefined));
    } else if (failure === 'disk_full' && this.#state.status === 'ok') {
      this.#state = { status: 'disk_full', since: new Date() };
      this.logger.error(log, 'database disk full: writes fail until space is freed');
    }
    return unavailable(failure, error);
  }

  /** Waits for the calls in flight, closes the instance, and opens the file again until that works or closes. */
  async #reopen(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
    this.#release();
    for (let delay = REOPEN_FIRST_DELAY_MS; !this.#closed; delay = Math.min(delay * 2, REOPEN_MAX_DELAY_MS)) {
      try {
        const handle = await connectAll(this.path, this.options);
        if (this.#closed) return closeHandle(handle);
        this.#install(handle);
        this.#reopened++;
        this.#state = { status: 'ok' };
        this.logger.warn({ path: this.path, reopened: this.#reopened }, 'database reopened');
        return;
      } catch (error) {
        this.logger.error({ err: error, path: this.path, retry_ms: delay }, 'database reopen failed');
        await sleep(delay, undefined, { signal: this.#stopReopening.signal }).catch(() => undefined);
      }
    }
  }

  /** Starts using a newly opened instance: fresh caches (nothing of the old instance's state is trusted). */
  #install(handle: Handle): void {
    this.#handle = handle;
    this.cache = new QueryCache();
    this.historyCache = new HistoryCache();
    this.latestVersions = new LatestVersions();
    this.cache.onWrite = (table, insert) => {
      this.historyCache.changed(table, insert);
      this.latestVersions.changed(table);
    };
    this.#nextMetricId = undefined;
    const { run, createAppender } = useWriter(handle.writer, this.cache, () => this.deferred.flush());
    this.#commitWith = (inserts) => run(`${inserts}COMMIT`);
    this.deferred = new DeferredRows(run, createAppender, (table) => this.cache.noteAppend(table));
    this.#idleReaders.length = 0;
    for (const reader of handle.readers) this.#releaseReader(reader);
  }

  #release(): void {
    if (this.#handle) closeHandle(this.#handle);
    this.#handle = undefined;
  }

  async #rollback(): Promise<void> {
    this.deferred.discard();
    // a block drawn in this transaction may not be on disk: DuckDB logs a sequence's advance with a commit, so
    // after a crash the sequence could hand those ids out again to rows stored meanwhile
    this.deferred.forgetIds();
    try {
      await this.#current().writer.run('ROLLBACK');
    } catch (error) {
      if (failureOf(error) === undefined && this.#state.status !== 'reopening')
        this.logger.error({ err: error, path: this.path }, 'rollback failed');
    }
  }

  #releaseReader(connection: DuckDBConnection): void {
    // a connection of a closed instance is dropped; the reopened one brought its own
    if (!this.#handle?.readers.includes(connection)) return;
    const next = this.#waitingReaders.shift();
    if (next) next(connection);
    else this.#idleReaders.push(connection);
  }
}
