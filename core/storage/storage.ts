/**
 * The storage contract: repository-level operations, never raw SQL. Each storage plugin (DuckDB embedded,
 * later PostgreSQL) implements it, and `test/contract/storage.ts` is the suite every implementation passes.
 */

/** What an engine can do, so callers branch on capabilities, never on "is this DuckDB?". */
export interface StorageCapabilities {
  /** Only one write transaction may run at a time; the storage serializes them itself. */
  readonly singleWriter: boolean;
  /** History and perf queries return columnar typed arrays. */
  readonly columnarReads: boolean;
}

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

/** Server-wide key/value settings kept in the database (server identity, first-run markers). */
export interface MetaReader {
  get(key: string): Promise<string | undefined>;
}

export interface MetaWriter extends MetaReader {
  set(key: string, value: string): Promise<void>;
}

/** Repositories usable on a read snapshot. */
export interface ReadRepositories {
  readonly meta: MetaReader;
}

/** Repositories usable inside a write transaction. */
export interface WriteRepositories extends ReadRepositories {
  readonly meta: MetaWriter;
}

export interface Storage {
  readonly capabilities: StorageCapabilities;
  /** Migrations applied when this storage was opened (empty when the schema was already current). */
  readonly appliedMigrations: readonly AppliedMigration[];
  /** The highest migration version recorded in the database. */
  schemaVersion(): Promise<number>;
  /**
   * Runs `fn` in one write transaction: everything it writes commits together, or nothing does when it throws
   * (the error is rethrown). Write transactions are serialized.
   */
  transaction<T>(fn: (tx: WriteRepositories) => Promise<T>): Promise<T>;
  /** Runs `fn` against a consistent read snapshot; reads run concurrently with each other and with writes. */
  read<T>(fn: (repos: ReadRepositories) => Promise<T>): Promise<T>;
  /** Waits for running work, then releases the database. Idempotent; any later call fails. */
  close(): Promise<void>;
}
