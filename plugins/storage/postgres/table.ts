import {
  StorageError,
  type ListOptions,
  type Page,
  type TableReader,
  type TableWriter,
  type Where,
} from '../../../kit/index.js';
import {
  execute,
  ident,
  isUuid,
  likePattern,
  query,
  type Connection,
  type Param,
  type Params,
} from './sql.js';

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly string[];
  /** Columns a `search` matches (case-insensitive substring). */
  readonly search?: readonly string[];
  /** Columns that make the order total, appended to every ORDER BY so paging never skips or repeats. */
  readonly key?: readonly string[];
}

export const PAGE_SIZE_MAX = 255;

/** Columns of type uuid (by the schema's naming): a value that is not a UUID matches no row, it is no error. */
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
    const uuid = UUID_COLUMNS.has(column);
    if (value === null) parts.push(`${ref} IS NULL`);
    else if (Array.isArray(value)) {
      const values = uuid ? (value as unknown[]).filter(isUuid) : (value as Param[]);
      params[`w_${column}`] = values as Param;
      parts.push(values.length === 0 ? 'false' : `${ref} = ANY(${param}${uuid ? '::uuid[]' : ''})`);
    } else if (uuid && !isUuid(value)) parts.push('false');
    else {
      params[`w_${column}`] = value as Param;
      parts.push(`${ref} = ${param}${uuid ? '::uuid' : ''}`);
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
    search = `(${spec.search.map((c) => `${alias}${ident(c)}::text ILIKE $search::text ESCAPE '\\'`).join(' OR ')})`;
  }
  const direction = options.direction === 'desc' ? 'DESC' : 'ASC';
  const sort = options.sort ?? spec.key?.[0] ?? 'id';
  if (!spec.columns.includes(sort)) throw new StorageError(`${spec.name} cannot be sorted by ${sort}`);
  const keys = (spec.key ?? ['id']).filter((k) => k !== sort).map((k) => `${alias}${ident(k)} ${direction}`);
  // nulls last either way, as the embedded engine sorts them, so a page is the same on both
  const order = [`${alias}${ident(sort)} ${direction} NULLS LAST`, ...keys].join(', ');
  const perPage = Math.min(Math.max(options.perPage ?? PAGE_SIZE_MAX, 1), PAGE_SIZE_MAX);
  const page = Math.max(options.page ?? 1, 1);
  params.limit = perPage;
  params.offset = (page - 1) * perPage;
  return { search, order, limit: 'LIMIT $limit::bigint OFFSET $offset::bigint', params };
}

export function tableReader<R>(connection: Connection, spec: TableSpec): TableReader<R> {
  const table = ident(spec.name);
  const count = async (filter: string, params: Params) => {
    const [row] = await query<{ total: bigint }>(
      connection,
      `SELECT count(*) AS total FROM ${table} WHERE ${filter}`,
      params,
    );
    return Number(row?.total ?? 0);
  };
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
      const total = await count(filter, params);
      const items = await query<R>(
        connection,
        `SELECT * FROM ${table} WHERE ${filter} ORDER BY ${p.order} ${p.limit}`,
        params,
      );
      return { items, total };
    },
    count(where: Where<R>) {
      const w = whereSql(spec, where);
      return count(w.sql, w.params);
    },
  };
}

function checkColumns(spec: TableSpec, entries: readonly [string, unknown][]): void {
  for (const [column] of entries) {
    if (!spec.columns.includes(column)) throw new StorageError(`${spec.name} has no column ${column}`);
  }
}

export function tableWriter<R, N>(connection: Connection, spec: TableSpec): TableWriter<R, N> {
  const table = ident(spec.name);
  return {
    ...tableReader<R>(connection, spec),
    async insert(values) {
      const entries = Object.entries(values as object).filter(([, v]) => v !== undefined);
      checkColumns(spec, entries);
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
      checkColumns(spec, entries);
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
