// @ts-check
// Tables as maps of frozen rows, and the generic row operations every repository shares.
import { ConflictError, StorageError } from 'benchtrack/plugin-kit';

/**
 * @typedef {Record<string, any>} Row
 * @typedef {{
 *   search?: readonly string[],
 *   unique?: readonly (readonly string[])[],
 *   order?: readonly string[],
 *   key?: (row: Row) => unknown,
 * }} TableSpec
 *   `search`: columns a list's search matches; `unique`: column sets no two rows share (rows with a null there
 *   excepted); `order`: the default sort and the tie-breakers that make paging stable; `key`: the row's key when
 *   it has no generated `id`.
 * @typedef {{ readonly tables: Record<string, Map<unknown, Row>>, readonly sequences: Record<string, number> }} State
 */

const NAMED = {
  search: ['name', 'slug', 'uuid'],
  unique: [
    ['project_id', 'slug'],
    ['project_id', 'name'],
  ],
};

/** Every table, named as its repository, with what it keeps unique (the naming rules services rely on). */
export const TABLES = /** @type {const} @satisfies {Record<string, TableSpec>} */ ({
  meta: { key: (row) => row.key },
  users: { search: ['name', 'slug', 'uuid'], unique: [['slug'], ['email']] },
  tokens: { search: ['name', 'uuid'], unique: [['token_hash']] },
  organizations: { search: ['name', 'slug', 'uuid'], unique: [['slug']] },
  roles: { key: (row) => `${row.organization_id}:${row.user_id}`, order: ['organization_id', 'user_id'] },
  invitations: { search: ['email', 'uuid'] },
  projects: { search: ['name', 'slug', 'uuid'], unique: [['slug'], ['organization_id', 'name']] },
  branches: NAMED,
  heads: {},
  headVersions: { key: (row) => `${row.head_id}:${row.version_id}`, order: ['head_id', 'version_id'] },
  versions: {},
  testbeds: NAMED,
  benchmarks: NAMED,
  measures: NAMED,
  series: { unique: [['testbed_id', 'benchmark_id', 'measure_id']] },
  thresholds: { search: ['uuid'], unique: [['branch_id', 'testbed_id', 'measure_id']] },
  models: {},
  alerts: { search: ['uuid'] },
  reports: { search: ['uuid'], unique: [['project_id', 'idempotency_key']] },
  metrics: {},
  plots: { search: ['title', 'uuid'], order: ['rank', 'id'] },
  usage: { key: (row) => `${row.organization_id}:${row.day}` },
  snapshots: { key: (row) => row.day },
  regressions: { search: ['uuid', 'note'] },
  regressionSeries: {
    key: (row) => `${row.regression_id}:${row.series_id}`,
    order: ['regression_id', 'series_id'],
  },
  regressionAlerts: { key: (row) => row.alert_id, order: ['alert_id'] },
  regressionEvents: {},
  runners: { search: ['name', 'slug', 'uuid'], unique: [['slug'], ['key_hash']] },
  runnerSpecs: { key: (row) => `${row.runner_id}:${row.spec}`, order: ['runner_id', 'spec'] },
  jobs: { search: ['uuid', 'spec'] },
  jobLogs: {},
  webhooks: { search: ['uuid', 'url'] },
  notifications: {},
  deliveries: {},
  deliveryAttempts: {},
  notificationPreferences: {
    key: (row) => `${row.user_id}:${row.project_id}`,
    order: ['user_id', 'project_id'],
  },
});

/** @typedef {keyof typeof TABLES} TableName */

/** The table of each kind of dimension. */
export const DIMENSION_TABLES = /** @type {const} */ ({
  branch: 'branches',
  testbed: 'testbeds',
  benchmark: 'benchmarks',
  measure: 'measures',
});

/** @returns {State} a database with every table, empty. */
export function emptyState() {
  return { tables: Object.fromEntries(Object.keys(TABLES).map((name) => [name, new Map()])), sequences: {} };
}

/**
 * A transaction's or a read's window on one state. Committed states are never changed: a transaction copies a
 * table the first time it writes to it (copy on write), and its state replaces the committed one when it commits.
 * A read keeps the state it started on, so it sees one snapshot however long it runs.
 */
export class View {
  /** @param {State} state @param {boolean} writable */
  constructor(state, writable) {
    this.writable = writable;
    /** @type {State} */
    this.state = writable ? { tables: { ...state.tables }, sequences: { ...state.sequences } } : state;
    /** @type {Set<string>} */
    this.copied = new Set();
  }

  /** @param {TableName} name @returns {Map<unknown, Row>} */
  rows(name) {
    return /** @type {Map<unknown, Row>} */ (this.state.tables[name]);
  }

  /** The table, ready to be changed. @param {TableName} name */
  edit(name) {
    if (!this.writable)
      throw new StorageError(`a read cannot write to ${name}: write inside storage.transaction`);
    if (!this.copied.has(name)) {
      this.state.tables[name] = new Map(this.rows(name));
      this.copied.add(name);
    }
    return this.rows(name);
  }

  /** The next id of a table (ids are never reused, rolled-back ones aside). @param {TableName} name */
  next(name) {
    const id = (this.state.sequences[name] ?? 0) + 1;
    this.state.sequences[name] = id;
    return id;
  }
}

/** @param {unknown} a @param {unknown} b */
const same = (a, b) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);

/** Whether a row passes an equality filter: `null` matches null, a list any of its values. @param {Row} row @param {object} where */
export function matches(row, where) {
  for (const [column, wanted] of Object.entries(where)) {
    if (wanted === undefined) continue;
    const value = row[column];
    if (
      wanted === null
        ? value !== null
        : Array.isArray(wanted)
          ? !wanted.some((w) => same(value, w))
          : !same(value, wanted)
    )
      return false;
  }
  return true;
}

/** Ascending order of two column values; nulls last. @param {any} a @param {any} b */
function compare(a, b) {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sorts rows in place by `keys`, each ascending or descending, nulls last either way. @param {Row[]} rows @param {readonly string[]} keys @param {1 | -1} sign */
export function sortRows(rows, keys, sign = 1) {
  return rows.sort((a, b) => {
    for (const key of keys) {
      const [x, y] = [a[key], b[key]];
      if (x == null || y == null) {
        if (x != y) return x == null ? 1 : -1;
      } else {
        const order = compare(x, y);
        if (order !== 0) return sign * order;
      }
    }
    return 0;
  });
}

const PAGE_SIZE_MAX = 255;

/**
 * One page of rows, searched, sorted and paged as `ListOptions` asks; the total is before paging.
 * @param {Row[]} rows @param {TableSpec} spec @param {import('benchtrack/plugin-kit').ListOptions<any>} options
 */
export function page(rows, spec, options) {
  const term = options.search?.toLowerCase();
  const found =
    term && spec.search
      ? rows.filter((row) =>
          spec.search?.some((c) => row[c] != null && String(row[c]).toLowerCase().includes(term)),
        )
      : rows;
  const tieBreakers = spec.order ?? ['id'];
  const sort = options.sort ?? tieBreakers[0] ?? 'id';
  sortRows(found, [sort, ...tieBreakers.filter((k) => k !== sort)], options.direction === 'desc' ? -1 : 1);
  const perPage = Math.min(Math.max(options.perPage ?? PAGE_SIZE_MAX, 1), PAGE_SIZE_MAX);
  const first = (Math.max(options.page ?? 1, 1) - 1) * perPage;
  return { items: found.slice(first, first + perPage), total: found.length };
}

/** Refuses a row that would share a unique column set (or its key) with another row. */
function checkUnique(
  /** @type {Map<unknown, Row>} */ table,
  /** @type {TableName} */ name,
  /** @type {Row} */ row,
  /** @type {unknown} */ key,
  /** @type {unknown} */ replacing,
) {
  if (key !== replacing && table.has(key)) throw new ConflictError(`${name} already holds this row`);
  for (const columns of /** @type {TableSpec} */ (TABLES[name]).unique ?? []) {
    if (columns.some((c) => row[c] == null)) continue;
    for (const [other, existing] of table)
      if (other !== replacing && columns.every((c) => same(existing[c], row[c])))
        throw new ConflictError(`${name} already has a row with this ${columns.join(' and ')}`);
  }
}

/**
 * The generic table operations (find, all, list, count, insert, update, delete) of one table.
 * @param {View} view @param {TableName} name
 */
export function table(view, name) {
  /** @type {TableSpec} */
  const spec = TABLES[name];
  const keyOf = spec.key ?? ((/** @type {Row} */ row) => row.id);
  const rows = () => view.rows(name).values();
  /** @param {object} where */
  const all = (where) => [...rows()].filter((row) => matches(row, where));
  return {
    /** @param {object} where */
    async find(where) {
      for (const row of rows()) if (matches(row, where)) return row;
      return undefined;
    },
    /** @param {object} where */
    all: async (where) => all(where),
    /** @param {object} where @param {import('benchtrack/plugin-kit').ListOptions<any>} options */
    list: async (where, options) => page(all(where), spec, options),
    /** @param {object} where */
    count: async (where) => all(where).length,
    /** @param {Row} values */
    async insert(values) {
      const row = Object.freeze(spec.key ? { ...values } : { ...values, id: view.next(name) });
      const key = keyOf(row);
      const rows = view.edit(name);
      checkUnique(rows, name, row, key, undefined);
      rows.set(key, row);
      return row;
    },
    /** @param {object} where @param {Row} patch */
    async update(where, patch) {
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      if (Object.keys(changes).length === 0) return 0;
      const rows = view.edit(name);
      let changed = 0;
      for (const [key, row] of [...rows]) {
        if (!matches(row, where)) continue;
        const next = Object.freeze({ ...row, ...changes });
        const nextKey = keyOf(next);
        checkUnique(rows, name, next, nextKey, key);
        if (nextKey !== key) rows.delete(key);
        rows.set(nextKey, next);
        changed++;
      }
      return changed;
    },
    /** @param {object} where */
    delete: async (where) => remove(view, name, (row) => matches(row, where)),
  };
}

/** Deletes the rows `doomed` picks; answers how many. @param {View} view @param {TableName} name @param {(row: Row) => boolean} doomed */
export function remove(view, name, doomed) {
  const rows = view.edit(name);
  let removed = 0;
  for (const [key, row] of rows)
    if (doomed(row)) {
      rows.delete(key);
      removed++;
    }
  return removed;
}
