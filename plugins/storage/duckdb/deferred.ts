/**
 * Rows a write transaction inserts into the tables every report writes (metric, report, version, head_version,
 * usage_entry), kept until a statement or the COMMIT needs them in the table. A report used to send four INSERT
 * statements and open an Appender of its own (bench/ingest-anatomy.ts: about half of the writer's time per report);
 * a group commit of up to 16 reports now sends one INSERT per small table with all their rows, and one Appender
 * takes every metric of the group.
 *
 * Why it is exact: deferred rows are invisible to SQL until flushed, so the writer flushes them before any statement
 * it runs (sql.ts for prepared statements, `Database` for the rest) and before COMMIT; a statement therefore always
 * sees every row the transaction inserted before it, as if each had been an INSERT. The statement cache is told of
 * each table at its first deferred row (`note`), so it stops answering reads of that table until the transaction
 * ends, as for an INSERT. A failure at a flush (a constraint) fails the statement or COMMIT that needed it, and the
 * transaction rolls back as a whole; a rollback drops what was not flushed. Ids come from blocks drawn from the
 * tables' own sequences (DuckDB sequences are not transactional: a block drawn in a transaction that rolled back is
 * never handed out again), so nothing that inserts with the sequence's default can collide with them.
 */
import duckdb from '@duckdb/node-bindings';
import type {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBPreparedStatement,
  DuckDBResultReader,
} from '@duckdb/node-api';
import { bind, ident } from './sql.js';

/** Ids drawn from a sequence at once: one statement per this many rows. */
const ID_BLOCK = 64;

/** The SQL types of the columns of deferred tables. */
export type DeferredType = 'INTEGER' | 'BIGINT' | 'UUID' | 'VARCHAR' | 'TIMESTAMP' | 'DATE';

/** A table whose rows may be deferred: its columns in table order, each with its type, and its id sequence. */
export interface DeferredTable {
  readonly name: string;
  readonly columns: readonly (readonly [name: string, type: DeferredType])[];
  readonly sequence?: string;
}

/** A row's value: numbers for integers, text for UUIDs, text and dates, Date for timestamps. */
export type Cell = string | number | Date | null;

/** Columns of one chunk of rows, in table order: typed arrays copied into DuckDB's vectors in one call each. */
export interface ChunkColumn {
  readonly type: duckdb.Type;
  /** 8 bytes a value for BIGINT, DOUBLE and TIMESTAMP, 4 for INTEGER, 16 for UUID (DuckDB's 128-bit layout). */
  readonly data: ArrayBufferView;
  /** 1 for rows that are NULL (their `data` is ignored). */
  readonly nulls?: Uint8Array | undefined;
}

/** Rows a chunk holds at most (DuckDB's vector size). */
export const CHUNK_ROWS = 2048;

/** How a column's values are bound (as a list) and turned back into the column's type in the INSERT. */
const EXPRESSION: Record<DeferredType, (param: string) => string> = {
  INTEGER: (p) => `unnest(${p}::INTEGER[])`,
  BIGINT: (p) => `unnest(${p}::BIGINT[])`,
  UUID: (p) => `unnest(${p}::VARCHAR[])::UUID`,
  VARCHAR: (p) => `unnest(${p}::VARCHAR[])`,
  TIMESTAMP: (p) => `make_timestamp(unnest(${p}::BIGINT[]))`,
  DATE: (p) => `unnest(${p}::VARCHAR[])::DATE`,
};

/** One INSERT of any number of rows of `table`, every column a list parameter `$c<i>`. */
function insertSql(table: DeferredTable): string {
  const names = table.columns.map(([name]) => ident(name)).join(', ');
  const values = table.columns.map(([, type], i) => EXPRESSION[type](`$c${i}`)).join(', ');
  return `INSERT INTO ${ident(table.name)} (${names}) SELECT ${values}`;
}

export class DeferredRows {
  readonly #rows = new Map<DeferredTable, Record<string, Cell>[]>();
  readonly #appenders = new Map<string, DuckDBAppender>();
  readonly #opening = new Map<string, Promise<DuckDBAppender>>();
  readonly #statements = new Map<DeferredTable, { sql: string; statement: DuckDBPreparedStatement }>();
  readonly #ids = new Map<string, number[]>();
  #flushing = false;

  /**
   * `connection`: the writer (its statements prepared here are not shown to the caches: they only move rows the
   * caches were told of already). `read`: runs a statement on the writer without flushing (for the id blocks).
   * `createAppender`: the writer's own, which tells the statement cache the table is written. `note`: tells the
   * statement cache a table is written.
   */
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly read: (sql: string) => Promise<DuckDBResultReader>,
    private readonly createAppender: (table: string) => Promise<DuckDBAppender>,
    private readonly note: (table: string) => void,
  ) {}

  /** True while rows wait. */
  get pending(): boolean {
    return this.#rows.size > 0 || this.#appenders.size > 0;
  }

  /** The next id of `sequence`, from a block drawn ahead. */
  async nextId(sequence: string): Promise<number> {
    let block = this.#ids.get(sequence);
    if (!block || block.length === 0) {
      const reader = await this.read(`SELECT nextval('${sequence}')::BIGINT FROM range(${ID_BLOCK})`);
      block = reader
        .getRows()
        .map((row) => Number(row[0]))
        .sort((a, b) => b - a);
      this.#ids.set(sequence, block);
    }
    return block.pop() as number;
  }

  /** Inserts one row of `table` (every column in `row`); it reaches the table at the next flush. */
  insert(table: DeferredTable, row: Record<string, Cell>): void {
    let rows = this.#rows.get(table);
    if (!rows) {
      this.#rows.set(table, (rows = []));
      this.note(table.name);
    }
    rows.push(row);
  }

  /** Appends `rows` rows given as columns (one per table column, in order) to `table`'s Appender. */
  async appendChunk(table: string, rows: number, columns: readonly ChunkColumn[]): Promise<void> {
    const appender = await this.#appender(table);
    const chunk = duckdb.create_data_chunk(columns.map((c) => duckdb.create_logical_type(c.type)));
    for (let start = 0; start < rows; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows - start);
      if (start > 0) duckdb.data_chunk_reset(chunk);
      columns.forEach((column, index) => fillVector(chunk, index, column, start, count));
      duckdb.data_chunk_set_size(chunk, count);
      duckdb.append_data_chunk(rawAppender(appender), chunk);
    }
  }

  /** Moves every waiting row into its table (throws what the first failing INSERT or Appender threw). */
  async flush(): Promise<void> {
    if (this.#flushing || !this.pending) return;
    this.#flushing = true;
    try {
      for (const [table, rows] of this.#rows) {
        this.#rows.delete(table);
        await this.#insert(table, rows);
      }
      for (const [table, appender] of this.#appenders) {
        this.#appenders.delete(table);
        try {
          appender.flushSync();
        } finally {
          closeQuietly(appender);
        }
      }
    } finally {
      this.#flushing = false;
      this.discard();
    }
  }

  /** Drops the rows still waiting (the transaction rolls back). */
  discard(): void {
    this.#rows.clear();
    for (const appender of this.#appenders.values()) {
      try {
        duckdb.appender_clear(rawAppender(appender));
      } catch {
        // an Appender of an aborted transaction: closing it below is all that is left
      }
      closeQuietly(appender);
    }
    this.#appenders.clear();
  }

  async #insert(table: DeferredTable, rows: readonly Record<string, Cell>[]): Promise<void> {
    let prepared = this.#statements.get(table);
    if (!prepared) {
      const sql = insertSql(table);
      prepared = { sql, statement: await this.connection.prepare(sql) };
      this.#statements.set(table, prepared);
    }
    const params = Object.fromEntries(
      table.columns.map(([name, type], i) => [
        `c${i}`,
        rows.map((row) => {
          const value = row[name] ?? null;
          if (value instanceof Date) return BigInt(value.getTime()) * 1000n;
          return type === 'BIGINT' && typeof value === 'number' ? BigInt(value) : value;
        }) as string[],
      ]),
    );
    const { statement, sql } = prepared;
    statement.clearBindings();
    const { values, types } = bind(sql, params);
    statement.bind(values, types);
    await statement.run();
  }

  async #appender(table: string): Promise<DuckDBAppender> {
    const open = this.#appenders.get(table);
    if (open) return open;
    let opening = this.#opening.get(table);
    if (!opening) {
      opening = this.createAppender(table);
      this.#opening.set(table, opening);
    }
    try {
      const appender = await opening;
      this.#appenders.set(table, appender);
      return appender;
    } finally {
      this.#opening.delete(table);
    }
  }
}

/** The bindings' handle of an Appender (node-api keeps it in a field of its own). */
function rawAppender(appender: DuckDBAppender): duckdb.Appender {
  return (appender as unknown as { appender: duckdb.Appender }).appender;
}

function closeQuietly(appender: DuckDBAppender): void {
  try {
    appender.closeSync();
  } catch {
    // flushed or cleared first, so closing writes nothing; an aborted transaction refuses it
  }
}

/** Rows [start, start + count) of `column` into vector `index` of `chunk`, with its NULLs. */
function fillVector(
  chunk: duckdb.DataChunk,
  index: number,
  column: ChunkColumn,
  start: number,
  count: number,
): void {
  const vector = duckdb.data_chunk_get_vector(chunk, index);
  const width = column.type === duckdb.Type.INTEGER ? 4 : column.type === duckdb.Type.UUID ? 16 : 8;
  duckdb.copy_data_to_vector(
    vector,
    0,
    column.data.buffer as ArrayBuffer,
    column.data.byteOffset + start * width,
    count * width,
  );
  const nulls = column.nulls?.subarray(start, start + count);
  if (!nulls?.includes(1)) return;
  const bits = new Uint8Array(Math.ceil(count / 64) * 8).fill(0xff);
  for (let i = 0; i < count; i++) if (nulls[i]) bits[i >> 3] = (bits[i >> 3] as number) & ~(1 << (i & 7));
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, bits.buffer, 0, bits.byteLength);
}
