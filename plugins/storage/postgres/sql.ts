import type { Sql } from 'postgres';

/** A JavaScript value that can be bound as a query parameter. */
export type Param =
  | string
  | number
  | boolean
  | bigint
  | Date
  | null
  | undefined
  | readonly number[]
  | readonly string[]
  | readonly bigint[]
  | Float64Array
  | Int32Array
  | Uint32Array;
export type Params = Readonly<Record<string, Param>>;

/** The pool, or the connection a transaction or read holds: all the repositories need is to run statements. */
export type Connection = Pick<Sql, 'unsafe'>;

interface Compiled {
  readonly text: string;
  readonly names: readonly string[];
}

const compiled = new Map<string, Compiled>();

/**
 * Turns `$name` placeholders into PostgreSQL's `$1, $2, ...` (the same name, the same number), so the repositories
 * read like the DuckDB engine's. The server types each parameter from the statement (the driver describes it
 * once per connection and statement), so SQL casts where the context does not say (`unnest($ids::int[])`).
 */
function compile(sql: string): Compiled {
  let done = compiled.get(sql);
  if (done) return done;
  const names: string[] = [];
  const text = sql.replace(/\$([a-z_][a-z0-9_]*)/gi, (_match, name: string) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  compiled.set(sql, (done = { text, names }));
  return done;
}

/**
 * What the driver can serialize: typed arrays as plain arrays, big integers in arrays as text (the driver would
 * type an array by its first element and declare a bigint array a single int8), undefined as NULL.
 */
function value(param: Param): unknown {
  if (param === undefined) return null;
  if (ArrayBuffer.isView(param)) return Array.from(param as ArrayLike<number>);
  if (Array.isArray(param) && typeof param[0] === 'bigint') return param.map(String);
  return param;
}

function bind(sql: string, params: Params): { text: string; values: unknown[] } {
  const { text, names } = compile(sql);
  return {
    text,
    values: names.map((name) => {
      if (!(name in params)) throw new Error(`no value for $${name} in: ${sql}`);
      return value(params[name]);
    }),
  };
}

/** Runs a query and returns its rows as plain objects (UUIDs as strings, timestamps as Dates, int8 as bigint). */
export async function query<R>(connection: Connection, sql: string, params: Params = {}): Promise<R[]> {
  const { text, values } = bind(sql, params);
  return (await connection.unsafe(text, values as never[], { prepare: true })) as unknown as R[];
}

/** Runs a query and returns its rows as arrays of column values, the cheap way to read many rows. */
export async function queryValues(
  connection: Connection,
  sql: string,
  params: Params = {},
): Promise<unknown[][]> {
  const { text, values } = bind(sql, params);
  return (await connection
    .unsafe(text, values as never[], { prepare: true })
    .values()) as unknown as unknown[][];
}

/** Runs a statement and returns the number of rows it changed. */
export async function execute(connection: Connection, sql: string, params: Params = {}): Promise<number> {
  const { text, values } = bind(sql, params);
  return (await connection.unsafe(text, values as never[], { prepare: true })).count;
}

/** Quotes an identifier that comes from code (never from input). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Escapes LIKE wildcards so a search for `50%` matches the text `50%`. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The text forms PostgreSQL's uuid input accepts (any case, with or without hyphens, optionally braced). */
const UUID_TEXT = /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

/** Whether `text` casts to a uuid: one that does not matches no row, it is no error (DuckDB's TRY_CAST). */
export function isUuid(text: unknown): text is string {
  return typeof text === 'string' && UUID_TEXT.test(text);
}
