import type { Db, Dialect, Params } from '../shared/sql.js';
import { isRead, tablesOf, type QueryCache, type ReadView } from './cache.js';
import { readColumns } from './columns.js';
import {
  BIGINT,
  DOUBLE,
  DuckDBTimestampValue,
  INTEGER,
  LIST,
  listValue,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBMaterializedResult,
  type DuckDBPreparedStatement,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';

/**
 * JavaScript parameters as DuckDB values, typed where DuckDB cannot infer them. Only those the statement mentions
 * are bound (DuckDB rejects extra ones), so one parameter set serves a count query and its page query.
 */
function bind(
  named: ReadonlySet<string>,
  params: Params,
): { values: Record<string, DuckDBValue>; types: Record<string, DuckDBType> } {
  const values: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!named.has(key)) continue;
    if (value instanceof Date) {
      values[key] = new DuckDBTimestampValue(BigInt(value.getTime()) * 1000n);
    } else if (value instanceof Float64Array) {
      values[key] = listValue(Array.from(value));
      types[key] = LIST(DOUBLE);
    } else if (value instanceof Int32Array || value instanceof Uint32Array) {
      values[key] = listValue(Array.from(value));
      types[key] = LIST(INTEGER);
    } else if (Array.isArray(value)) {
      values[key] = listValue(value as DuckDBValue[]);
      const first: unknown = value.find((item: unknown) => item !== null && item !== undefined);
      types[key] = LIST(typeof first === 'string' ? VARCHAR : typeof first === 'bigint' ? BIGINT : INTEGER);
    } else if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      // DuckDB infers BIGINT for every integral number, which 2^63 and beyond overflow; past 2^53 a number is a
      // double that happens to be integral, and is bound as one
      values[key] = value;
      types[key] = DOUBLE;
    } else {
      values[key] = (value ?? null) as DuckDBValue;
    }
  }
  return { values, types };
}

/**
 * Prepared statements per connection and SQL text (planning costs more than running most small statements), each with
 * its run in progress: a statement's bindings are its own until that run has returned.
 */
const statements = new WeakMap<
  DuckDBConnection,
  Map<string, { readonly statement: DuckDBPreparedStatement; turn: Promise<unknown> }>
>();

/** How the statements on a connection of the Database use its cache (cache.ts): as the writer, or as a read. */
export interface Use {
  readonly cache: QueryCache;
  /** Runs before each statement: flushes the writer's deferred rows (deferred.ts), or anchors a read's snapshot. */
  readonly before: () => Promise<void>;
  /** A read's view of the cache (none on the writer). */
  readonly view?: ReadView;
  /** The tables of the answers a read was given before its snapshot was anchored. */
  readonly served?: Set<string>;
}

const uses = new WeakMap<DuckDBConnection, Use>();

/**
 * Registers the writer: each of its statements, through sql.ts or its own methods, first flushes the deferred rows
 * (`flush`, so every statement sees them) and is shown to the cache, so no write leaves it stale. Answers the
 * connection's own `run` and `createAppender`, which do neither (for the deferred rows themselves).
 */
export function useWriter(
  writer: DuckDBConnection,
  cache: QueryCache,
  flush: () => Promise<void>,
): Pick<DuckDBConnection, 'run' | 'createAppender'> {
  uses.set(writer, { cache, before: flush });
  const own = { run: writer.run.bind(writer), createAppender: writer.createAppender.bind(writer) };
  // the connection's other methods that run SQL (runAndReadAll, streamAndRead, ...) call one of these four
  for (const method of ['run', 'stream', 'start', 'startStream'] as const) {
    const original = writer[method].bind(writer) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
    Object.defineProperty(writer, method, {
      value: async (sql: string, ...rest: unknown[]) => {
        await flush();
        if (!isRead(sql)) cache.noteWrite(sql);
        return original(sql, ...rest);
      },
    });
  }
  Object.defineProperty(writer, 'createAppender', {
    value: async (...args: Parameters<DuckDBConnection['createAppender']>) => {
      await flush();
      cache.noteAppend(args[0]);
      return own.createAppender(...args);
    },
  });
  return own;
}

/** Lets the read running on `connection` use the cache as `read` says; `undefined` ends it. */
export function useReadView(connection: DuckDBConnection, read: Use | undefined): void {
  if (read) uses.set(connection, read);
  else uses.delete(connection);
}

/**
 * What a statement text is, learned once per text: the parameters it names, whether it only reads, and the cached
 * tables it reads (cache.ts).
 */
interface Shape {
  readonly named: ReadonlySet<string>;
  readonly read: boolean;
  readonly tables: readonly string[] | undefined;
}

/** Statement texts `shapeOf` remembers at most before it starts again. */
const SHAPES_MAX = 4_096;
const shapes = new Map<string, Shape>();

function shapeOf(sql: string): Shape {
  let shape = shapes.get(sql);
  if (!shape) {
    if (shapes.size >= SHAPES_MAX) shapes.clear();
    shape = {
      named: new Set(Array.from(sql.matchAll(/\$(\w+)/g), (m) => m[1] as string)),
      read: isRead(sql),
      tables: tablesOf(sql),
    };
    shapes.set(sql, shape);
  }
  return shape;
}

/**
 * Runs the statement of `sql` with `params`. A prepared statement holds one set of bindings, so the concurrent runs
 * of one statement on one connection (a read's `Promise.all`) take turns.
 */
async function run(
  connection: DuckDBConnection,
  sql: string,
  params: Params,
): Promise<DuckDBMaterializedResult> {
  const use = uses.get(connection);
  await use?.before();
  const shape = shapeOf(sql);
  const { values, types } = bind(shape.named, params);
  // DuckDB plans a prepared statement without parameters once, folding constant filters with the table's
  // statistics of then (on an empty table it answers no rows ever after): such a statement runs unprepared, through
  // the connection's `run` (on the writer, useWriter's, which notes what it writes).
  if (Object.keys(values).length === 0) return connection.run(sql);
  if (!shape.read) use?.cache.noteWrite(sql);
  let prepared = statements.get(connection);
  if (!prepared) statements.set(connection, (prepared = new Map()));
  let kept = prepared.get(sql);
  if (!kept)
    prepared.set(sql, (kept = { statement: await connection.prepare(sql), turn: Promise.resolve() }));
  const { statement } = kept;
  const result = kept.turn.then(() => {
    statement.clearBindings();
    statement.bind(values, types);
    return statement.run();
  });
  kept.turn = result.catch(() => undefined);
  return result;
}

/** Runs a query and returns its rows as plain objects (UUIDs as strings, timestamps as Dates). */
export async function query<R>(connection: DuckDBConnection, sql: string, params: Params = {}): Promise<R[]> {
  const use = uses.get(connection);
  const tables = use && shapeOf(sql).tables;
  const key = tables && `${sql}\u0000${JSON.stringify(params, paramText)}`;
  if (key) {
    const rows = use.cache.get(key, tables, use.view);
    if (rows) {
      for (const table of tables) use.served?.add(table);
      return rows as R[];
    }
  }
  const rows = (await (await run(connection, sql, params)).getRowObjectsJS()) as R[];
  if (key) use.cache.set(key, tables, rows, use.view);
  return rows;
}

/** Parameters as cache-key text: typed arrays as arrays, big integers as digits. */
function paramText(_key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** The SQL DuckDB writes its own way (plugins/storage/shared/sql.ts). */
const duckdbDialect: Dialect = {
  capabilities: { skipLocked: false },
  timestamp: 'TIMESTAMP',
  inList: (expression, param, type) => `${expression} IN (SELECT unnest(${param}::${type}[]))`,
  rows: (alias, columns) =>
    `(SELECT ${columns.map(([name, param, type]) => `unnest(${param}::${type}[]) AS ${name}`).join(', ')}) ${alias}`,
  scanFilter: (column, param) => `list_contains(${param}, ${column})`,
  epochMs: (column) => `epoch_ms(${column})::DOUBLE`,
  fromEpochMs: (param) => `make_timestamp(${param}::BIGINT * 1000)`,
  day: (column) => `strftime(${column}, '%Y-%m-%d')`,
  listWithout: (column, value) => `list_filter(${column}, x -> x <> ${value})`,
};

/** The statements of the transaction or read running on `connection`, for the shared repositories. */
export function duckDb(connection: DuckDBConnection): Db {
  return {
    dialect: duckdbDialect,
    query: (sql, params) => query(connection, sql, params),
    execute: async (sql, params = {}) => Number((await run(connection, sql, params)).rowsChanged),
    async columns(sql, params, allocate) {
      const result = await run(connection, sql, params);
      const chunks = await result.fetchAllChunks();
      const count = chunks.reduce((n, chunk) => n + chunk.rowCount, 0);
      readColumns(result, chunks, allocate(count));
      return count;
    },
  };
}

/** Runs `fn` in a transaction of `connection` (a connection of its own, not the writer's): COMMIT, or ROLLBACK. */
export async function inTransaction<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await fn();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
