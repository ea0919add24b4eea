/**
 * Rows a write transaction inserts into the tables every report writes (metric, report, version, head_version,
 * usage_entry), kept until a statement or the COMMIT needs them: a group commit sends one multi-row INSERT per
 * small table in the same call as its COMMIT, and one Appender takes every metric of the group. Under load each
 * call to DuckDB waits for a libuv thread and a core, so the number of calls, not their size, bounds the writer.
 *
 * Why it is exact: the writer flushes deferred rows before any statement it runs (sql.ts, `Database`) and before
 * COMMIT, so a statement sees every row inserted before it; the query cache is told of each table at its first
 * deferred row (`note`). A failed flush fails the statement or COMMIT that needed it and the whole transaction;
 * a rollback drops what was not flushed, and the id blocks drawn (`Database`'s rollback says why).
 */
import duckdb from '@duckdb/node-bindings';
import type { DuckDBAppender, DuckDBMaterializedResult } from '@duckdb/node-api';
import { ident } from '../shared/sql.js';

/** Ids drawn from a sequence at once: one statement per this many rows. */
const ID_BLOCK = 64;

export type DeferredType = 'INTEGER' | 'BIGINT' | 'UUID' | 'VARCHAR' | 'TIMESTAMP' | 'DATE';

/** A table whose rows may be deferred: its columns in table order, each with its type. */
export interface DeferredTable {
  readonly name: string;
  readonly columns: readonly (readonly [name: string, type: DeferredType])[];
}

/** A row's value: numbers for integers, text for UUIDs, text and dates, Date for timestamps. */
export type Cell = string | number | Date | null;

/** Columns of one chunk of rows, in table order: typed arrays copied into DuckDB's vectors in one call each. */
interface ChunkColumn {
  readonly type: duckdb.Type;
  /** 8 bytes a value for BIGINT, DOUBLE and TIMESTAMP, 4 for INTEGER, 16 for UUID (DuckDB's 128-bit layout). */
  readonly data: ArrayBufferView;
  /** 1 for rows that are NULL (their `data` is ignored). */
  readonly nulls?: Uint8Array | undefined;
}

/** Rows a chunk holds at most (DuckDB's vector size). */
const CHUNK_ROWS = 2048;

/**
 * A value as SQL text: numbers and times as such, any text as hex cast to the column's type, so no value can end a
 * literal whatever it holds, and DuckDB checks it as the column's type.
 */
function literal(value: Cell, type: DeferredType): string {
  if (value === null) return 'NULL';
  if (value instanceof Date) return `make_timestamp(${value.getTime() * 1000})`;
  if (typeof value === 'number') return String(value);
  return `decode(unhex('${Buffer.from(value, 'utf8').toString('hex')}'))::${type}`;
}

/** One INSERT of `rows` into `table`, every value a literal. */
function insertSql(table: DeferredTable, rows: readonly Record<string, Cell>[]): string {
  const names = table.columns.map(([name]) => ident(name)).join(', ');
  const values = rows
    .map((row) => `(${table.columns.map(([name, type]) => literal(row[name] ?? null, type)).join(', ')})`)
    .join(',\n');
  return `INSERT INTO ${ident(table.name)} (${names}) VALUES ${values};\n`;
}

export class DeferredRows {
  readonly #rows = new Map<DeferredTable, Record<string, Cell>[]>();
  readonly #appenders = new Map<string, DuckDBAppender>();
  readonly #opening = new Map<string, Promise<DuckDBAppender>>();
  readonly #ids = new Map<string, number[]>();
  #flushing: Promise<void> | undefined;

  /**
   * `run` and `createAppender`: the writer's own, without flushing and without showing them to the caches (they
   * only move rows the caches were told of already, or draw ids). `note`: tells the query cache a table is
   * written.
   */
  constructor(
    private readonly run: (sql: string) => Promise<DuckDBMaterializedResult>,
    private readonly createAppender: (table: string) => Promise<DuckDBAppender>,
    private readonly note: (table: string) => void,
  ) {}

  /** The next id of `sequence`, from a block drawn ahead. */
  async nextId(sequence: string): Promise<number> {
    let block = this.#ids.get(sequence);
    if (!block || block.length === 0) {
      const result = await this.run(`SELECT nextval('${sequence}')::BIGINT FROM range(${ID_BLOCK})`);
      block = (await result.getRows()).map((row) => Number(row[0])).sort((a, b) => b - a);
      this.#ids.set(sequence, block);
    }
    return block.pop() as number;
  }

  /** Drops the ids drawn ahead: the next come from the sequences as they are (after an import or a rollback). */
  forgetIds(): void {
    this.#ids.clear();
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

  /**
   * Moves every waiting row into its table (throws what the first failing INSERT or Appender threw). A statement
   * run beside a flush waits for it, so it too sees every row inserted before it.
   */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => undefined);
    if (this.#rows.size === 0 && this.#appenders.size === 0) return;
    const flushing = this.#move();
    this.#flushing = flushing;
    try {
      await flushing;
    } finally {
      if (this.#flushing === flushing) this.#flushing = undefined;
    }
  }

  async #move(): Promise<void> {
    try {
      const inserts = this.take();
      if (inserts) await this.run(inserts);
    } catch (error) {
      // the transaction fails with it: nothing waiting is kept (rows queued meanwhile, on success, are)
      this.discard();
      throw error;
    }
  }

  /**
   * For the COMMIT: flushes the Appenders (they append to the transaction in this thread) and answers the INSERT
   * statements of the other waiting rows, to send in one call with the COMMIT ('' when none waits).
   */
  take(): string {
    let sql = '';
    for (const [table, rows] of this.#rows) sql += insertSql(table, rows);
    this.#rows.clear();
    for (const [table, appender] of this.#appenders) {
      this.#appenders.delete(table);
      try {
        appender.flushSync();
      } finally {
        closeQuietly(appender);
      }
    }
    return sql;
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

  async #appender(table: string): Promise<DuckDBAppender> {
    const open = this.#appenders.get(table);
    if (open) return open;
    let opening = this.#opening.get(table);
    if (!opening) {
      this.note(table);
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
