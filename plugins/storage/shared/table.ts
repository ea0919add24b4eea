import {
  StorageError,
  type ListOptions,
  type Page,
  type ReadRepositories,
  type TableReader,
  type TableWriter,
  type WriteRepositories,
} from '../../../kit/index.js';
import { columnsOf } from './schema.js';
import { count, ident, isUuid, likePattern, type Db, type Param, type Params } from './sql.js';

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly string[];
  /** Columns a `search` matches (case-insensitive substring). */
  readonly search?: readonly string[];
  /** Columns that make the order total, appended to every ORDER BY so paging never skips or repeats. */
  readonly key?: readonly string[];
}

const PAGE_SIZE_MAX = 255;

/** The spec of the schema's table `name` (its columns as the migrations make them). */
export const tableSpec = (name: string, options: Pick<TableSpec, 'search' | 'key'> = {}): TableSpec => ({
  name,
  columns: columnsOf(name),
  ...options,
});

/** Columns of type UUID (by the schema's naming): a value that is not a UUID matches no row, it is no error. */
const UUID_COLUMNS = new Set(['uuid', 'idempotency_key']);

/** The columns `values` gives a value (undefined gives none), checked against the table's. */
function definedEntries(spec: TableSpec, values: object): [string, Param][] {
  const entries = Object.entries(values).filter(([, v]) => v !== undefined) as [string, Param][];
  for (const [column] of entries)
    if (!spec.columns.includes(column)) throw new StorageError(`${spec.name} has no column ${column}`);
  return entries;
}

/** SQL and parameters for an equality filter; unknown columns are a programming error. */
function whereSql(db: Db, spec: TableSpec, where: object, alias = '') {
  const parts: string[] = [];
  const params: Record<string, Param> = {};
  for (const [column, value] of definedEntries(spec, where)) {
    const ref = `${alias}${ident(column)}`;
    const uuid = UUID_COLUMNS.has(column);
    if (value === null) parts.push(`${ref} IS NULL`);
    else if (Array.isArray(value)) {
      const values = uuid ? (value as unknown[]).filter(isUuid) : (value as Param[]);
      params[`w_${column}`] = values as Param;
      const first = typeof values[0];
      const type = uuid ? 'uuid' : first === 'string' ? 'text' : first === 'bigint' ? 'bigint' : 'int';
      parts.push(values.length === 0 ? 'false' : db.dialect.inList(ref, `$w_${column}`, type));
    } else if (uuid && !isUuid(value)) parts.push('false');
    else {
      params[`w_${column}`] = value;
      parts.push(`${ref} = $w_${column}${uuid ? '::uuid' : ''}`);
    }
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : 'true', params };
}

/**
 * A page (`at.page` 1-based, 0 the first too) of `SELECT ${columns} ${from} ORDER BY ${order}` (`from`: FROM and
 * WHERE), and the total of `from`.
 */
export async function page<R>(
  db: Db,
  columns: string,
  from: string,
  order: string,
  params: Params,
  at: { readonly page: number; readonly perPage: number },
): Promise<Page<R>> {
  const [total] = await db.query<{ total: bigint }>(`SELECT count(*) AS total ${from}`, params);
  const items = await db.query<R>(
    `SELECT ${columns} ${from} ORDER BY ${order} LIMIT $limit::bigint OFFSET $offset::bigint`,
    { ...params, limit: at.perPage, offset: (Math.max(at.page, 1) - 1) * at.perPage },
  );
  return { items, total: count(total?.total) };
}

/**
 * A page of the rows of `spec` that `where` and the search of `options` select, sorted and paged by `options`:
 * `SELECT ${columns} ${from} AND <the selection>` (`from` names the table `alias` and ends in a condition).
 */
export function listPage<R>(
  db: Db,
  spec: TableSpec,
  where: object,
  options: ListOptions<R>,
  query: { from: string; alias?: string; columns?: string; params?: Params },
): Promise<Page<R>> {
  const alias = query.alias ?? '';
  const w = whereSql(db, spec, where, alias);
  const params: Record<string, Param> = { ...w.params, ...query.params };
  let search = 'true';
  if (options.search && spec.search?.length) {
    params.search = likePattern(options.search);
    search = `(${spec.search.map((c) => `${alias}${ident(c)}::text ILIKE $search::text ESCAPE '\\'`).join(' OR ')})`;
  }
  const direction = options.direction === 'desc' ? 'DESC' : 'ASC';
  const sort = options.sort ?? spec.key?.[0] ?? 'id';
  if (!spec.columns.includes(sort)) throw new StorageError(`${spec.name} cannot be sorted by ${sort}`);
  const keys = (spec.key ?? ['id']).filter((k) => k !== sort).map((k) => `${alias}${ident(k)} ${direction}`);
  // nulls last in either direction, so a page is the same on every engine
  const order = [`${alias}${ident(sort)} ${direction} NULLS LAST`, ...keys].join(', ');
  const from = `${query.from} AND ${w.sql} AND ${search}`;
  const perPage = Math.min(Math.max(options.perPage ?? PAGE_SIZE_MAX, 1), PAGE_SIZE_MAX);
  return page<R>(db, query.columns ?? `${alias}*`, from, order, params, { page: options.page ?? 1, perPage });
}

/** The rows of `from` (FROM and WHERE, its rows named `alias`) counted by their status. */
export async function countByStatus<S extends string>(
  db: Db,
  alias: string,
  from: string,
  params: Params,
): Promise<Partial<Record<S, number>>> {
  const rows = await db.query<{ status: S; total: bigint }>(
    `SELECT ${alias}.status, count(*) AS total ${from} GROUP BY ${alias}.status`,
    params,
  );
  const counts: Partial<Record<S, number>> = {};
  for (const row of rows) counts[row.status] = count(row.total);
  return counts;
}

export function tableReader<R>(db: Db, spec: TableSpec): TableReader<R> {
  const table = ident(spec.name);
  return {
    async find(where) {
      const w = whereSql(db, spec, where);
      return (await db.query<R>(`SELECT * FROM ${table} WHERE ${w.sql} LIMIT 1`, w.params))[0];
    },
    all(where) {
      const w = whereSql(db, spec, where);
      return db.query<R>(`SELECT * FROM ${table} WHERE ${w.sql}`, w.params);
    },
    list(where, options) {
      return listPage<R>(db, spec, where, options, { from: `FROM ${table} WHERE true` });
    },
    async count(where) {
      const w = whereSql(db, spec, where);
      const [row] = await db.query<{ total: bigint }>(
        `SELECT count(*) AS total FROM ${table} WHERE ${w.sql}`,
        w.params,
      );
      return count(row?.total);
    },
  };
}

export function tableWriter<R, N>(db: Db, spec: TableSpec): TableWriter<R, N> {
  const table = ident(spec.name);
  return {
    ...tableReader<R>(db, spec),
    async insert(values) {
      const entries = definedEntries(spec, values as object);
      const [row] = await db.query<R>(
        `INSERT INTO ${table} (${entries.map(([c]) => ident(c)).join(', ')}) VALUES (${entries.map(([c]) => `$v_${c}`).join(', ')}) RETURNING *`,
        Object.fromEntries(entries.map(([c, v]) => [`v_${c}`, v])),
      );
      if (!row) throw new StorageError(`insert into ${spec.name} returned no row`);
      return row;
    },
    update(where, patch) {
      const entries = definedEntries(spec, patch as object);
      if (entries.length === 0) return Promise.resolve(0);
      const w = whereSql(db, spec, where);
      return db.execute(
        `UPDATE ${table} SET ${entries.map(([c]) => `${ident(c)} = $s_${c}`).join(', ')} WHERE ${w.sql}`,
        { ...w.params, ...Object.fromEntries(entries.map(([c, v]) => [`s_${c}`, v])) },
      );
    },
    delete(where) {
      const w = whereSql(db, spec, where);
      return db.execute(`DELETE FROM ${table} WHERE ${w.sql}`, w.params);
    },
  };
}

/** A repository as the engines hand it out: a reader on a snapshot, and a writer (that reads too) in a transaction. */
export interface Repository<Reader, Writer> {
  readonly reader: (db: Db) => Reader;
  readonly writer: (db: Db) => Writer;
}

/** The repositories both SQL engines share, by name: every reader's but metrics (partly the engines' own). */
export type Shared = {
  readonly [K in Exclude<keyof ReadRepositories, 'metrics'>]: Repository<
    ReadRepositories[K],
    WriteRepositories[K]
  >;
};

/** A repository whose writer is its reader and what `writes` adds. */
export function withWrites<Reader, Writer extends Reader>(
  reader: (db: Db) => Reader,
  writes: (db: Db) => Omit<Writer, keyof Reader>,
): Repository<Reader, Writer> {
  return { reader, writer: (db) => ({ ...reader(db), ...writes(db) }) as Writer };
}

/** The repository of a table and nothing more. */
export function table<R, N>(spec: TableSpec): Repository<TableReader<R>, TableWriter<R, N>> {
  return { reader: (db) => tableReader<R>(db, spec), writer: (db) => tableWriter<R, N>(db, spec) };
}

/**
 * The repository of a table with more: `reads` makes what its reader adds to the table's generic reads (the
 * writer has them too), `writes` what its writer adds to the generic writes.
 */
export function extended<
  Reader extends TableReader<unknown>,
  Writer extends Reader & TableWriter<unknown, never>,
>(
  spec: TableSpec,
  reads: (db: Db) => Omit<Reader, keyof TableReader<unknown>>,
  writes: (db: Db) => Omit<Writer, keyof Reader | keyof TableWriter<unknown, never>>,
): Repository<Reader, Writer> {
  return {
    reader: (db) => ({ ...tableReader(db, spec), ...reads(db) }) as Reader,
    writer: (db) => ({ ...tableWriter(db, spec), ...reads(db), ...writes(db) }) as Writer,
  };
}
