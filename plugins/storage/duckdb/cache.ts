/**
 * Answers of reads of the small tables ingest reads on every report and seldom writes (projects, organizations,
 * users, dimensions, series, thresholds, webhooks), kept across write transactions.
 *
 * Why it is exact: only the writer uses it, write transactions run one at a time, and the cache sees every
 * statement the writer runs first. A read is served only while the transaction has written no table it reads; a
 * transaction's end drops the answers that read what it wrote (everything, when a write's target is unknown).
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

/** Frozen answers by statement and parameters, least recently used first out, with hit and miss counts. */
class Answers {
  readonly #entries = new Map<string, Entry>();
  #hits = 0;
  #misses = 0;

  get(key: string): readonly unknown[] | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.rows;
  }

  set(key: string, tables: readonly string[], rows: readonly unknown[]): void {
    for (const row of rows) Object.freeze(row);
    this.#entries.set(key, { tables, rows: Object.freeze(rows) });
    if (this.#entries.size > CAPACITY) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /** Drops the answers that read any of `tables` (`'*'`: all). */
  drop(tables: ReadonlySet<string>): void {
    if (tables.has('*')) this.#entries.clear();
    else if (tables.size > 0) {
      for (const [key, entry] of this.#entries)
        if (entry.tables.some((table) => tables.has(table))) this.#entries.delete(key);
    }
  }

  get stats(): { entries: number; hits: number; misses: number } {
    return { entries: this.#entries.size, hits: this.#hits, misses: this.#misses };
  }
}

/** A statement that only reads (anything else is noted as a write). */
export function isRead(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql);
}

export class StatementCache {
  readonly #answers = new Answers();
  /** Tables written by the running transaction; `'*'` when a write's target could not be told. */
  readonly #written = new Set<string>();

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

  get(key: string, tables: readonly string[]): readonly unknown[] | undefined {
    return this.#blocked(tables) ? undefined : this.#answers.get(key);
  }

  set(key: string, tables: readonly string[], rows: readonly unknown[]): void {
    if (!this.#blocked(tables)) this.#answers.set(key, tables, rows);
  }

  /** Ends a write transaction (committed or not): answers reading what it wrote are dropped. */
  endTransaction(): void {
    this.#answers.drop(this.#written);
    this.#written.clear();
  }

  /** Tables the running transaction has written so far (`'*'`: any). */
  get written(): ReadonlySet<string> {
    return new Set(this.#written);
  }

  get stats(): { entries: number; hits: number; misses: number } {
    return this.#answers.stats;
  }

  #blocked(tables: readonly string[]): boolean {
    return this.#written.has('*') || tables.some((table) => this.#written.has(table));
  }
}

/** The commit generation of each cached table when a read transaction began (see ReadCache). */
export type ReadView = ReadonlyMap<string, number>;

/**
 * Answers of reads of the same tables on the reader connections (every read request resolves a project, its
 * organization and dimensions).
 *
 * Why it is exact: each table has a commit generation, bumped (dropping its answers) just before a COMMIT that
 * wrote it, which marks it committing, and again once the COMMIT returned. A read records the generations before
 * its snapshot and uses or stores an answer only while none of its tables changed generation or is committing;
 * the answers given before the snapshot was anchored must still be current then, or the read runs again.
 */
export class ReadCache {
  readonly #generation = new Map<string, number>();
  readonly #committing = new Map<string, number>();
  readonly #answers = new Answers();

  /** The generations a read transaction starts from; take it before the transaction's snapshot. */
  view(): ReadView {
    return new Map(this.#generation);
  }

  get(key: string, tables: readonly string[], view: ReadView): readonly unknown[] | undefined {
    return this.current(tables, view) ? this.#answers.get(key) : undefined;
  }

  set(key: string, tables: readonly string[], rows: readonly unknown[], view: ReadView): void {
    if (this.current(tables, view)) this.#answers.set(key, tables, rows);
  }

  /** A write transaction that wrote `tables` is about to commit. */
  beginCommit(tables: ReadonlySet<string>): void {
    for (const table of this.#change(tables))
      this.#committing.set(table, (this.#committing.get(table) ?? 0) + 1);
  }

  /** The COMMIT announced by `beginCommit` returned or failed. */
  endCommit(tables: ReadonlySet<string>): void {
    for (const table of this.#change(tables)) {
      const left = (this.#committing.get(table) ?? 1) - 1;
      if (left > 0) this.#committing.set(table, left);
      else this.#committing.delete(table);
    }
  }

  get stats(): { entries: number; hits: number; misses: number } {
    return this.#answers.stats;
  }

  /** Bumps the generations of the cached tables among `tables` and drops the answers reading them. */
  #change(tables: ReadonlySet<string>): string[] {
    const changed = tables.has('*') ? [...CACHED_TABLES] : [...tables].filter((t) => CACHED_TABLES.has(t));
    if (changed.length === 0) return changed;
    for (const table of changed) this.#generation.set(table, (this.#generation.get(table) ?? 0) + 1);
    this.#answers.drop(new Set(changed));
    return changed;
  }

  /** Whether none of `tables` has changed generation or is committing since `view` was taken. */
  current(tables: Iterable<string>, view: ReadView): boolean {
    for (const table of tables)
      if (this.#committing.has(table) || (this.#generation.get(table) ?? 0) !== (view.get(table) ?? 0))
        return false;
    return true;
  }
}

/** The tables a SELECT reads, or undefined when it reads any the caches do not hold. */
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
