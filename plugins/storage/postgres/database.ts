import { setTimeout as sleep } from 'node:timers/promises';
import postgres, { type ReservedSql, type Sql } from 'postgres';
import { z } from 'zod';
import {
  StorageError,
  type LockKey,
  type Logger,
  type StorageHealth,
  type TransactionOptions,
} from '../../../kit/index.js';
import { connectionDropped, connectionLost, retryable, unavailable, uniqueKey } from './failures.js';
import { LOCK_KINDS } from './locks.js';
import type { Connection } from './sql.js';

const url = z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' });

export const optionsSchema = z.strictObject({
  /** Its password never appears in a message or a log line. */
  url,
  /** Connections of this process's pool at most (the server's max_connections is shared by every process). */
  max_connections: z.number().int().min(1).max(1000).default(10),
  /** Seconds to wait for a new connection before a call fails with 503. */
  connect_timeout_seconds: z.number().int().min(1).max(600).default(10),
  /** Streaming read replicas of the same database (database.replicas); reads go there once they caught up. */
  replicas: z.array(url).max(16).default([]),
});

export type PostgresOptions = z.input<typeof optionsSchema>;
export type DatabaseOptions = z.output<typeof optionsSchema>;

/** Attempts of a write transaction that keeps failing for a retryable reason (serialization, deadlock, race). */
const MAX_ATTEMPTS = 40;

/**
 * Attempts of a write transaction refused the same unique key each time: the next attempt sees the committed row,
 * so the same key again is a row deleted and inserted anew meanwhile, or one no attempt gets past (fail early).
 */
const SAME_KEY_ATTEMPTS = 8;

/**
 * Seconds a pooled connection that closed waits before it opens again. The driver's default grows with every close
 * (up to 20 s) while the connect timeout runs, so repeated terminations time queries out; a down server fails
 * requests at once anyway (503).
 */
const RECONNECT_DELAY_SECONDS = 0.05;

/** Where a URL points, for messages: user, host, port and database, never the password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

/**
 * Settings of every connection. Each run of a prepared statement is planned for its parameters: from the sixth run
 * PostgreSQL may settle on a generic plan, which takes every array parameter for 10 elements and prunes no metric
 * partition when planning (the perf statement for hundreds of series then counted all its points once per point).
 * No JIT: the history and perf statements read tens of thousands of rows by index, but their estimated cost grows with
 * the partitions and crosses the JIT thresholds, and compiling took longer than reading (docs/performance.md).
 */
export const SESSION = { plan_cache_mode: 'force_custom_plan', jit: 'off' } as const;

const ISOLATION = {
  serializable: 'isolation level serializable',
  locked: 'isolation level read committed',
} as const;

/**
 * One PostgreSQL database through a pool of connections. Write transactions are SERIALIZABLE (READ COMMITTED where
 * the caller locks what it reads) and run again when aborted for a conflict with another writer of any process.
 * Reads run in REPEATABLE READ READ ONLY transactions. A lost connection fails the call with an UnavailableError
 * (503) and marks the database unavailable until a call or a probe succeeds.
 */
export class Database {
  #closed = false;
  #lost: Date | undefined;
  #probing: Promise<void> | undefined;
  #recovered = 0;
  #retried = 0;
  readonly #inFlight = new Set<Promise<unknown>>();

  private constructor(
    readonly sql: Sql,
    /** Sessions that hold `exclusive` keys around a transaction: apart from the pool, which they wait for. */
    private readonly lockSessions: Sql,
    readonly where: string,
    private readonly logger: Logger,
  ) {}

  /** `key`: the configuration key that gave the URL, for messages. */
  static async open(options: DatabaseOptions, logger: Logger, key = 'database.url'): Promise<Database> {
    const where = describeUrl(options.url);
    const settings = {
      max: options.max_connections,
      connect_timeout: options.connect_timeout_seconds,
      types: { bigint: postgres.BigInt },
      onnotice: () => undefined,
      connection: { application_name: 'benchtrack', ...SESSION },
      backoff: () => RECONNECT_DELAY_SECONDS,
    };
    const sql = postgres(options.url, settings);
    try {
      await sql.unsafe('SELECT 1');
    } catch (error) {
      await sql.end({ timeout: 0 });
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      throw new StorageError(
        `cannot connect to the PostgreSQL database of ${key} (${where}): ${reason}; check ${key} (host, port, user, password, database name) and that the server is running and accepts connections`,
        {},
        { cause: error },
      );
    }
    // opened only when a transaction names exclusive keys
    const lockSessions = postgres(options.url, settings);
    return new Database(sql, lockSessions, where, logger);
  }

  /**
   * Runs `fn` in a write transaction, again after a random pause when PostgreSQL aborts it for a conflict or a
   * unique race. `exclusive` keys are taken by a session of their own after BEGIN and before the first statement
   * (which takes the snapshot), and held until the last attempt ends; the transaction's connection is taken first,
   * so a pool full of transactions waiting for the keys cannot starve the holder.
   */
  transaction<T>(fn: (connection: Connection) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const isolation = ISOLATION[options.isolation ?? 'serializable'];
    const keys = options.exclusive ?? [];
    return this.#track(async () => {
      let session: ReservedSql | undefined;
      const holding = async (connection: Connection) => {
        if (keys.length > 0 && !session) session = await this.#lock(keys);
        return fn(connection);
      };
      try {
        let refused: { key: string | undefined; times: number } = { key: undefined, times: 0 };
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.#begin(isolation, false, holding);
          } catch (error) {
            const key = uniqueKey(error);
            refused = { key, times: key !== undefined && key === refused.key ? refused.times + 1 : 1 };
            if (attempt >= MAX_ATTEMPTS || !retryable(error) || refused.times >= SAME_KEY_ATTEMPTS)
              throw error;
            this.#retried++;
            await sleep(Math.random() * Math.min(2 ** attempt, 100));
          }
        }
      } finally {
        if (session) await this.#unlock(session);
      }
    });
  }

  /** A session holding the advisory locks of `keys`, taken in one order so two holders cannot deadlock. */
  async #lock(keys: readonly LockKey[]): Promise<ReservedSql> {
    const pairs = keys
      .map((key) => [LOCK_KINDS[key.kind], key.id] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const session = await this.lockSessions.reserve();
    try {
      for (const [kind, id] of pairs)
        await session.unsafe('SELECT pg_advisory_lock($1::int, $2::int)', [kind, id]);
      return session;
    } catch (error) {
      await this.#unlock(session);
      throw error;
    }
  }

  async #unlock(session: ReservedSql): Promise<void> {
    // a session that died has let its locks go with it
    await session.unsafe('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    session.release();
  }

  /** Runs `fn` in a read-only transaction: one snapshot for all it reads, concurrent with everything. */
  read<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    return this.#track(() => this.#begin('isolation level repeatable read read only', true, fn));
  }

  /**
   * BEGIN, `fn`, COMMIT on one connection of the pool. A pooled connection the server dropped fails at BEGIN (or at
   * the first statement, while the backend goes away): the attempt runs again, up to once per pooled connection,
   * when nothing of it can have taken effect (it failed at BEGIN, or is read-only). A write that lost its
   * connection once `fn` began fails (503: whether COMMIT reached the server is unknown).
   */
  async #begin<T>(
    options: string,
    readOnly: boolean,
    fn: (connection: Connection) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let began = false;
      try {
        return (await this.sql.begin(options, (tx) => {
          began = true;
          return fn(tx);
        })) as T;
      } catch (error) {
        if ((began && !readOnly) || attempt > this.sql.options.max || !connectionDropped(error)) throw error;
      }
    }
  }

  /** Runs `fn` on the pool outside any transaction (bookkeeping reads). */
  run<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    return this.#track(() => fn(this.sql));
  }

  health(): StorageHealth {
    const counts = { reopened: this.#recovered, retried: this.#retried };
    if (this.#closed) return { status: 'closed', ...counts };
    if (!this.#lost) return { status: 'ok', ...counts };
    this.#probe();
    return { status: 'unavailable', since: this.#lost.toISOString(), ...counts };
  }

  /** Waits for running work, then closes every connection. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    await this.#probing;
    await Promise.all([this.sql.end({ timeout: 5 }), this.lockSessions.end({ timeout: 5 })]);
  }

  /** Tracks a call until it settles; a lost connection becomes an UnavailableError and marks the database. */
  #track<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StorageError(`database ${this.where} is closed`));
    const tracked = work().then(
      (result) => {
        this.#reachable();
        return result;
      },
      (error: unknown) => {
        if (!connectionLost(error)) throw error;
        this.#unreachable(error);
        throw unavailable(error);
      },
    );
    this.#inFlight.add(tracked);
    const forget = () => this.#inFlight.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  #unreachable(error: unknown): void {
    if (this.#lost) return;
    this.#lost = new Date();
    this.logger.error(
      { err: error, database: this.where },
      'database server unreachable: calls fail with 503 until it answers again',
    );
  }

  #reachable(): void {
    if (!this.#lost) return;
    this.#lost = undefined;
    this.#recovered++;
    this.logger.warn(
      { database: this.where, reconnected: this.#recovered },
      'database server reachable again',
    );
  }

  /** While unavailable, health checks ask the server (one at a time), so health recovers without traffic. */
  #probe(): void {
    if (this.#probing || this.#closed) return;
    this.#probing = this.sql
      .unsafe('SELECT 1')
      .then(
        () => this.#reachable(),
        () => undefined,
      )
      .finally(() => (this.#probing = undefined));
  }
}
