/**
 * Answers of reads of the small tables ingest reads on every report and seldom writes (projects, organizations,
 * users, dimensions, series, thresholds, webhooks), kept across transactions for the writer and the readers alike.
 *
 * Why it is exact: only the writer writes these tables, one transaction at a time, and the cache sees every statement
 * the writer runs first, so an answer holds what is committed. The writer is served only answers of tables its
 * transaction has not written. Each table has a commit generation, bumped (dropping its answers) just before a COMMIT
 * that wrote it, which marks it committing, and again once the COMMIT returned. A read records the generations before
 * its snapshot and uses or stores an answer only while none of its tables changed generation or is committing; the
 * answers given before the snapshot was anchored must still be current then, or the read runs again.
 */
const CACHED_TABLES = new Set([
  'organization',
  'organization_role',
  'project',
  'branch',
  'head',
  'testbed',
  'benchmark',
  'measure',
  'series',
  'threshold',
  'model',
  'users',
  'webhook',
]);

/** Entries kept at most; the least recently used go first. */
const CAPACITY = 4_096;

interface Entry {
  readonly tables: readonly string[];
  readonly rows: readonly unknown[];
}

/** The commit generation of each cached table when a read transaction began. */
export type ReadView = ReadonlyMap<string, number>;

/** The value of `key`, moved to the newest end of `map` (the caches keep their maps least recently used first). */
export function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/** A statement that only reads (anything else is noted as a write). */
export function isRead(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql);
}

/** Frozen answers by statement and parameters, for the writer (no view) and for reads (their view). */
export class QueryCache {
  readonly #entries = new Map<string, Entry>();
  readonly #generation = new Map<string, number>();
  readonly #committing = new Map<string, number>();
  /** Tables written by the running write transaction; `'*'` when a write's target could not be told. */
  readonly #written = new Set<string>();
  #hits = 0;
  #misses = 0;

  /** Told of every write statement noted: its target table ('*': unknown) and whether it only inserts. */
  onWrite: (table: string, insert: boolean) => void = () => undefined;

  /** Notes a statement that is not a plain SELECT: what it writes stops being served until the transaction ends. */
  noteWrite(sql: string): void {
    if (/^\s*(BEGIN|COMMIT|ROLLBACK|ABORT|CHECKPOINT|SET|RESET|PRAGMA|EXPLAIN|DESCRIBE|SHOW)\b/i.test(sql))
      return;
    const target = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?/i.exec(sql);
    const table = target ? (target[2] as string).toLowerCase() : '*';
    this.#written.add(table);
    this.onWrite(table, target !== null && /^INSERT/i.test(target[1] as string));
  }

  /** Notes an Appender on `table`: rows inserted (the metrics writer tells the history cache what they are). */
  noteAppend(table: string): void {
    this.#written.add(table);
  }

  /** The generations a read transaction starts from; take it before the transaction's snapshot. */
  view(): ReadView {
    return new Map(this.#generation);
  }

  get(key: string, tables: readonly string[], view?: ReadView): readonly unknown[] | undefined {
    if (!this.#usable(tables, view)) return undefined;
    const entry = touch(this.#entries, key);
    if (entry) this.#hits++;
    else this.#misses++;
    return entry?.rows;
  }

  set(key: string, tables: readonly string[], rows: readonly unknown[], view?: ReadView): void {
    if (!this.#usable(tables, view)) return;
    for (const row of rows) Object.freeze(row);
    this.#entries.set(key, { tables, rows: Object.freeze(rows) });
    if (this.#entries.size > CAPACITY) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /** The running write transaction is about to commit `tables`; answers the cached ones, for `endCommit`. */
  beginCommit(tables: ReadonlySet<string> = this.#written): readonly string[] {
    const changed = tables.has('*') ? [...CACHED_TABLES] : [...tables].filter((t) => CACHED_TABLES.has(t));
    this.#change(changed);
    for (const table of changed) this.#committing.set(table, (this.#committing.get(table) ?? 0) + 1);
    return changed;
  }

  /** The COMMIT announced by `beginCommit` returned or failed. */
  endCommit(changed: readonly string[]): void {
    this.#change(changed);
    for (const table of changed) {
      const left = (this.#committing.get(table) ?? 1) - 1;
      if (left > 0) this.#committing.set(table, left);
      else this.#committing.delete(table);
    }
  }

  /** Ends a write transaction, committed or not (a rollback leaves every answer as committed). */
  endTransaction(): void {
    this.#written.clear();
  }

  get stats(): { entries: number; hits: number; misses: number } {
    return { entries: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }

  /** Whether none of `tables` has changed generation or is committing since `view` was taken. */
  current(tables: Iterable<string>, view: ReadView): boolean {
    for (const table of tables)
      if (this.#committing.has(table) || (this.#generation.get(table) ?? 0) !== (view.get(table) ?? 0))
        return false;
    return true;
  }

  #usable(tables: readonly string[], view: ReadView | undefined): boolean {
    if (view) return this.current(tables, view);
    return !this.#written.has('*') && !tables.some((table) => this.#written.has(table));
  }

  /** Bumps the generations of `tables` and drops the answers reading them. */
  #change(tables: readonly string[]): void {
    if (tables.length === 0) return;
    for (const table of tables) this.#generation.set(table, (this.#generation.get(table) ?? 0) + 1);
    for (const [key, entry] of this.#entries)
      if (entry.tables.some((table) => tables.includes(table))) this.#entries.delete(key);
  }
}

/** The tables a SELECT reads, or undefined when it reads any the cache does not hold. */
export function tablesOf(sql: string): readonly string[] | undefined {
  if (
    !isRead(sql) ||
    /\b(nextval|random|uuid|uuidv7|gen_random_uuid|now)\s*\(|\bcurrent_(date|time)/i.test(sql)
  )
    return undefined;
  const ctes = new Set(
    [...sql.matchAll(/(?:\bWITH|,)\s+"?(\w+)"?\s+AS\s*\(/gi)].map((m) => (m[1] as string).toLowerCase()),
  );
  const tables = new Set<string>();
  for (const match of sql.matchAll(/\b(?:FROM|JOIN)\s+("?)(\w+)\1(\s*\()?/gi)) {
    const name = (match[2] as string).toLowerCase();
    if (match[3] || ctes.has(name)) continue; // a table function or a CTE
    if (!CACHED_TABLES.has(name)) return undefined;
    tables.add(name);
  }
  return tables.size > 0 ? [...tables] : undefined;
}
