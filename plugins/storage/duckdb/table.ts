import type { DuckDBConnection } from '@duckdb/node-api';
import {
  StorageError,
  type ListOptions,
  type Page,
  type TableReader,
  type TableWriter,
  type Where,
} from '../../../kit/index.js';
import type { Cell, DeferredRows, DeferredTable } from './deferred.js';
import { execute, ident, likePattern, query, type Param, type Params } from './sql.js';

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly string[];
  /** Columns a `search` matches (case-insensitive substring). */
  readonly search?: readonly string[];
  /** Columns that make the order total, appended to every ORDER BY so paging never skips or repeats. */
  readonly key?: readonly string[];
}

export const PAGE_SIZE_MAX = 255;

/** Columns of type UUID (by the schema's naming): a value that is not a UUID matches no row, it is no error. */
const UUID_COLUMNS = new Set(['uuid', 'idempotency_key']);

/** SQL and parameters for an equality filter; unknown columns are a programming error. */
export function whereSql(
  spec: TableSpec,
  where: object,
  alias = '',
): { sql: string; params: Record<string, Param> } {
  const parts: string[] = [];
  const params: Record<string, Param> = {};
  for (const [column, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (!spec.columns.includes(column)) throw new StorageError(`${spec.name} has no column ${column}`);
    const ref = `${alias}${ident(column)}`;
    const param = `$w_${column}`;
    const cast = (sql: string) => (UUID_COLUMNS.has(column) ? `TRY_CAST(${sql} AS UUID)` : sql);
    if (value === null) parts.push(`${ref} IS NULL`);
    else if (Array.isArray(value)) {
      params[`w_${column}`] = value as Param;
      parts.push(value.length === 0 ? 'false' : `${ref} IN (SELECT ${cast(`unnest(${param})`)})`);
    } else {
      params[`w_${column}`] = value as Param;
      parts.push(`${ref} = ${cast(param)}`);
    }
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : 'true', params };
}

/** ORDER BY, search filter and LIMIT/OFFSET of a list query. */
export function pageSql<R>(
  spec: TableSpec,
  options: ListOptions<R>,
  alias = '',
): { search: string; order: string; limit: string; params: Params } {
  const params: Record<string, Param> = {};
  let search = 'true';
  if (options.search && spec.search && spec.search.length > 0) {
    params.search = likePattern(options.search);
    search = `(${spec.search.map((c) => `CAST(${alias}${ident(c)} AS VARCHAR) ILIKE $search ESCAPE '\\'`).join(' OR ')})`;
  }
  const direction = options.direction === 'desc' ? 'DESC' : 'ASC';
  const sort = options.sort ?? spec.key?.[0] ?? 'id';
  if (!spec.columns.includes(sort)) throw new StorageError(`${spec.name} cannot be sorted by ${sort}`);
  const keys = (spec.key ?? ['id']).filter((k) => k !== sort).map((k) => `${alias}${ident(k)} ${direction}`);
  const order = [`${alias}${ident(sort)} ${direction}`, ...keys].join(', ');
  const perPage = Math.min(Math.max(options.perPage ?? PAGE_SIZE_MAX, 1), PAGE_SIZE_MAX);
  const page = Math.max(options.page ?? 1, 1);
  params.limit = perPage;
  params.offset = (page - 1) * perPage;
  return { search, order, limit: 'LIMIT $limit OFFSET $offset', params };
}

export function tableReader<R>(connection: DuckDBConnection, spec: TableSpec): TableReader<R> {
  const table = ident(spec.name);
  return {
    async find(where) {
      const w = whereSql(spec, where);
      return (await query<R>(connection, `SELECT * FROM ${table} WHERE ${w.sql} LIMIT 1`, w.params))[0];
    },
    async all(where) {
      const w = whereSql(spec, where);
      return query<R>(connection, `SELECT * FROM ${table} WHERE ${w.sql}`, w.params);
    },
    async list(where, options): Promise<Page<R>> {
      const w = whereSql(spec, where);
      const p = pageSql(spec, options);
      const filter = `${w.sql} AND ${p.search}`;
      const params = { ...w.params, ...p.params };
      const [count] = await query<{ total: bigint }>(
        connection,
        `SELECT count(*) AS total FROM ${table} WHERE ${filter}`,
        params,
      );
      const items = await query<R>(
        connection,
        `SELECT * FROM ${table} WHERE ${filter} ORDER BY ${p.order} ${p.limit}`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
    async count(where: Where<R>) {
      const w = whereSql(spec, where);
      const [row] = await query<{ total: bigint }>(
        connection,
        `SELECT count(*) AS total FROM ${table} WHERE ${w.sql}`,
        w.params,
      );
      return Number(row?.total ?? 0);
    },
  };
}

export function tableWriter<R, N>(connection: DuckDBConnection, spec: TableSpec): TableWriter<R, N> {
  const table = ident(spec.name);
  return {
    ...tableReader<R>(connection, spec),
    async insert(values) {
      const entries = Object.entries(values as object).filter(([, v]) => v !== undefined);
      for (const [column] of entries) {
        if (!spec.columns.includes(column)) throw new StorageError(`${spec.name} has no column ${column}`);
      }
      const params = Object.fromEntries(entries.map(([c, v]) => [`v_${c}`, v as Param]));
      const [row] = await query<R>(
        connection,
        `INSERT INTO ${table} (${entries.map(([c]) => ident(c)).join(', ')}) VALUES (${entries.map(([c]) => `$v_${c}`).join(', ')}) RETURNING *`,
        params,
      );
      if (!row) throw new StorageError(`insert into ${spec.name} returned no row`);
      return row;
    },
    async update(where, patch) {
      const entries = Object.entries(patch as object).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return 0;
      for (const [column] of entries) {
        if (!spec.columns.includes(column)) throw new StorageError(`${spec.name} has no column ${column}`);
      }
      const w = whereSql(spec, where);
      const params = { ...w.params, ...Object.fromEntries(entries.map(([c, v]) => [`s_${c}`, v as Param])) };
      return execute(
        connection,
        `UPDATE ${table} SET ${entries.map(([c]) => `${ident(c)} = $s_${c}`).join(', ')} WHERE ${w.sql}`,
        params,
      );
    },
    async delete(where) {
      const w = whereSql(spec, where);
      return execute(connection, `DELETE FROM ${table} WHERE ${w.sql}`, w.params);
    },
  };
}

/**
 * `insert` of a table that every report writes, through the writer's deferred rows (deferred.ts) instead of an
 * INSERT statement: the id from a block of the table's sequence (when it has one), every other column from
 * `values` (absent ones NULL, UUIDs in lower case), which is also the row answered, as the table would show it.
 */
export async function deferredInsert<R>(
  deferred: DeferredRows,
  table: DeferredTable,
  values: object,
): Promise<R> {
  const given = values as Record<string, Cell | undefined>;
  for (const [column, value] of Object.entries(given)) {
    if (value !== undefined && !table.columns.some(([name]) => name === column))
      throw new StorageError(`${table.name} has no column ${column}`);
  }
  const row: Record<string, Cell> = {};
  for (const [column, type] of table.columns) {
    const value = given[column] ?? null;
    if (column === 'id' && table.sequence && value === null) row.id = await deferred.nextId(table.sequence);
    else row[column] = type === 'UUID' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  deferred.insert(table, row);
  return row as R;
}
