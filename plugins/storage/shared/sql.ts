/**
 * What the repositories both SQL engines share need of an engine: a connection that runs statements with
 * `$name` parameters (`Db`), and the few pieces of SQL the two write differently (`Dialect`). The shared SQL is
 * the subset both accept: `$name::type` casts with the type names below, `ON CONFLICT`, `RETURNING`,
 * `gen_random_uuid()`, `= ANY(list)`, `count(*) FILTER (...)`.
 */

/** A JavaScript value that can be bound as a parameter. */
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
  | Int32Array;
export type Params = Readonly<Record<string, Param>>;

/** Element types of list parameters, by the names both engines accept in a cast. */
export type ListType = 'int' | 'bigint' | 'text' | 'uuid' | 'float8';

/** UUIDs as four 32-bit words per value, word k of value i at `k * count + i` (the layout of `PerfColumns`). */
export class UuidColumn {
  constructor(
    readonly words: Uint32Array,
    readonly count: number,
  ) {}
}

/** A column of a columnar read: absent numbers as NaN or 0, absent text as null; UUIDs never absent. */
export type Column = Int32Array | Float64Array | (string | null)[] | UuidColumn;

/** Statements of one transaction or read, on the connection it holds. */
export interface Db {
  readonly dialect: Dialect;
  /** Rows as plain objects: UUIDs as text, timestamps as Dates, 64-bit integers as bigint. */
  query<R>(sql: string, params?: Params): Promise<R[]>;
  /** Runs a statement; answers the rows it changed. */
  execute(sql: string, params?: Params): Promise<number>;
  /** Copies a query's columns into the arrays `allocate` answers for the row count (many rows); the count. */
  columns(sql: string, params: Params, allocate: (count: number) => readonly Column[]): Promise<number>;
}

/** The SQL two engines write differently, as fragments the shared statements put in place. */
export interface Dialect {
  /** What the shared SQL asks for only where the engine can: `FOR UPDATE SKIP LOCKED` (several writers). */
  readonly capabilities: { readonly skipLocked: boolean };
  /** The type of timestamp columns and parameters (`$now::${d.timestamp}`). */
  readonly timestamp: string;
  /** `expression` is one of the values of the list parameter `param` (`$name`), of element type `type`. */
  inList(expression: string, param: string, type: ListType): string;
  /** A FROM item `alias` with a row per position of the list parameters (of one length), a column per list. */
  rows(alias: string, columns: readonly (readonly [name: string, param: string, type: ListType])[]): string;
  /** The metric scan's series filter beside the join (DuckDB prunes row groups by a list filter), or `true`. */
  scanFilter(column: string, param: string): string;
  /** A timestamp column as milliseconds since the epoch (a double). */
  epochMs(column: string): string;
  /** The timestamp of a parameter holding milliseconds since the epoch. */
  fromEpochMs(param: string): string;
  /** A date or timestamp as `YYYY-MM-DD` text. */
  day(column: string): string;
  /** The list column without the elements equal to `value`. */
  listWithout(column: string, value: string): string;
}

/** `build` made once per dialect, so a statement's text is one string (engines prepare once per text). */
export function perDialect<T>(build: (dialect: Dialect) => T): (dialect: Dialect) => T {
  const built = new WeakMap<Dialect, T>();
  return (dialect) => {
    let value = built.get(dialect);
    if (value === undefined) built.set(dialect, (value = build(dialect)));
    return value;
  };
}

/** Quotes an identifier that comes from code (never from input). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Escapes LIKE wildcards so a search for `50%` matches the text `50%`. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The text forms of a UUID both engines read (any case, with or without hyphens, optionally braced). */
const UUID_TEXT = /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

/** Whether `text` reads as a UUID: a value that does not matches no row, it is no error. */
export function isUuid(text: unknown): text is string {
  return typeof text === 'string' && UUID_TEXT.test(text);
}

/** A count as a number, however the engine answers it (bigint, or text for a sum of big integers). */
export function count(value: bigint | string | number | null | undefined): number {
  return Number(value ?? 0);
}
