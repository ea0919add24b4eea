import type { Sql } from 'postgres';
import { UuidColumn, type Column, type Db, type Dialect, type Param, type Params } from '../shared/sql.js';

/** The pool, or the connection a transaction or read holds: all the repositories need is to run statements. */
export type Connection = Pick<Sql, 'unsafe'>;

const compiled = new Map<string, { readonly text: string; readonly names: readonly string[] }>();

/**
 * Turns `$name` placeholders into `$1, $2, ...` (one number per name). The server types each parameter from the
 * statement, so the SQL casts where the context does not say (`unnest($ids::int[])`).
 */
function compile(sql: string) {
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

/** The driver's statement of `sql` with `params`, prepared once per connection. */
function run(connection: Connection, sql: string, params: Params = {}) {
  const { text, names } = compile(sql);
  const values = names.map((name) => {
    if (!(name in params)) throw new Error(`no value for $${name} in: ${sql}`);
    return value(params[name]);
  });
  return connection.unsafe(text, values as never[], { prepare: true });
}

/** Runs a query and returns its rows as plain objects (UUIDs as strings, timestamps as Dates, int8 as bigint). */
export async function query<R>(connection: Connection, sql: string, params?: Params): Promise<R[]> {
  return (await run(connection, sql, params)) as unknown as R[];
}

/** Runs a query and returns its rows as arrays of column values, the cheap way to read many rows. */
export async function queryValues(
  connection: Connection,
  sql: string,
  params?: Params,
): Promise<unknown[][]> {
  return (await run(connection, sql, params).values()) as unknown as unknown[][];
}

/** The SQL PostgreSQL writes its own way (plugins/storage/shared/sql.ts). */
export const postgresDialect: Dialect = {
  capabilities: { skipLocked: true },
  timestamp: 'timestamptz',
  inList: (expression, param, type) => `${expression} = ANY(${param}::${type}[])`,
  rows: (alias, columns) =>
    `unnest(${columns.map(([, param, type]) => `${param}::${type}[]`).join(', ')}) AS ${alias}(${columns.map(([name]) => name).join(', ')})`,
  scanFilter: () => 'true',
  epochMs: (column) => `(extract(epoch FROM ${column}) * 1000)::float8`,
  fromEpochMs: (param) => `to_timestamp(${param}::float8 / 1000)`,
  day: (column) => `to_char(${column}, 'YYYY-MM-DD')`,
  listWithout: (column, value) => `array_remove(${column}, ${value})`,
};

/** The statements of the transaction or read running on `connection`, for the shared repositories. */
export function postgresDb(connection: Connection): Db {
  return {
    dialect: postgresDialect,
    query: (sql, params) => query(connection, sql, params),
    execute: async (sql, params) => (await run(connection, sql, params)).count,
    async columns(sql, params, allocate) {
      const rows = await queryValues(connection, sql, params);
      const columns = allocate(rows.length);
      columns.forEach((column, c) => fill(column, rows, c));
      return rows.length;
    },
  };
}

/** Column `c` of `rows` into `column`: a loop per kind of column, so each store site stays monomorphic. */
function fill(column: Column, rows: readonly unknown[][], c: number): void {
  const n = rows.length;
  if (column instanceof UuidColumn)
    for (let i = 0; i < n; i++) putUuid(column.words, column.count, i, (rows[i] as unknown[])[c] as string);
  else if (Array.isArray(column))
    for (let i = 0; i < n; i++) column[i] = (rows[i] as unknown[])[c] as string | null;
  else if (column instanceof Float64Array)
    for (let i = 0; i < n; i++) column[i] = ((rows[i] as unknown[])[c] as number | null) ?? Number.NaN;
  else for (let i = 0; i < n; i++) column[i] = ((rows[i] as unknown[])[c] as number | null) ?? 0;
}

/** The value of each hex digit's character code (PostgreSQL writes UUIDs in lower case), 0 for others. */
const HEX = new Uint8Array(128);
for (let d = 0; d < 16; d++) HEX[d.toString(16).charCodeAt(0)] = d;

/** A UUID's text as four 32-bit words, word k of row i at `k * count + i`, read by character code (no slicing). */
function putUuid(words: Uint32Array, count: number, i: number, text: string): void {
  let at = 0;
  for (let k = 0; k < 4; k++) {
    let word = 0;
    for (let d = 0; d < 8; d++, at++) {
      if (text.charCodeAt(at) === 45) at++; // '-'
      word = word * 16 + (HEX[text.charCodeAt(at)] as number);
    }
    words[k * count + i] = word;
  }
}
