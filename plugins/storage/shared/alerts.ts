import type { AlertFilter, AlertRecord, AlertsReader, AlertStatus, TableReader } from '../../../kit/index.js';
import { perDialect, type Db, type Dialect, type ListType, type Param } from './sql.js';
import { countByStatus, extended, page, tableSpec, type Shared } from './table.js';

const alerts = tableSpec('alert', { search: ['uuid'] });

/** `active` sorts before `dismissed` and `silenced`: the default order shows what needs attention first. */
const ORDER = {
  status: (d: string) => `a.status ${d}, a.modified DESC, a.id DESC`,
  created: (d: string) => `a.created ${d}, a.id ${d}`,
  modified: (d: string) => `a.modified ${d}, a.id ${d}`,
} as const;

/**
 * The WHERE clause of an alert filter (alias `a`): branch, testbed and measure of its threshold, the benchmark of
 * its metric's series (among the project's alerted reports only, so metric is never read whole).
 */
function alertWhere(filter: AlertFilter): { sql: string; params: Record<string, Param> } {
  const where = ['a.project_id = $project_id::int'];
  if (filter.status !== undefined) where.push('a.status = $status::text');
  const threshold = (['branch_id', 'testbed_id', 'measure_id'] as const).filter(
    (c) => filter[c] !== undefined,
  );
  if (threshold.length > 0)
    where.push(`a.threshold_id IN (SELECT t.id FROM threshold t
      WHERE ${threshold.map((c) => `t.${c} = $${c}::int`).join(' AND ')})`);
  if (filter.benchmark_id !== undefined)
    where.push(`a.metric_id IN (SELECT m.id FROM metric m
      WHERE m.series_id IN (SELECT s.id FROM series s WHERE s.benchmark_id = $benchmark_id::int)
        AND m.report_id IN (SELECT x.report_id FROM alert x WHERE x.project_id = $project_id::int))`);
  return { sql: where.join(' AND '), params: { ...filter } };
}

const alertReads = (db: Db): Omit<AlertsReader, keyof TableReader<AlertRecord>> => ({
  listForProject(filter, options) {
    const where = alertWhere(filter);
    const order = ORDER[options.sort](options.direction === 'desc' ? 'DESC' : 'ASC');
    return page<AlertRecord>(db, 'a.*', `FROM alert a WHERE ${where.sql}`, order, where.params, options);
  },
  countByStatus(filter) {
    const where = alertWhere({ ...filter, status: undefined });
    return countByStatus<AlertStatus>(db, 'a', `FROM alert a WHERE ${where.sql}`, where.params);
  },
  async idsMatching(filter) {
    const where = alertWhere(filter);
    const rows = await db.query<{ id: number }>(`SELECT a.id FROM alert a WHERE ${where.sql}`, where.params);
    return rows.map((row) => Number(row.id));
  },
});

/**
 * `INSERT INTO table` a row per position of list parameters: `columns` names them (`name:type`, int when no type;
 * a float's NaN is NULL), one parameter `$name` each, filled by {@link listParams}; `fixed` columns are set by an
 * expression. One statement for any number of rows.
 */
export function insertLists(d: Dialect, table: string, columns: string, fixed = {}, tail = ''): string {
  const listed = parse(columns);
  const values = listed.map(([c, t]) => (t === 'float8' ? `nullif(x.${c}, 'NaN')` : `x.${c}`));
  const lists = listed.map(([c, t]) => [c, `$${c}`, t ?? 'int'] as const);
  return `INSERT INTO ${table} (${[...listed.map(([c]) => c), ...Object.keys(fixed)].join(', ')})
    SELECT ${[...values, ...Object.values(fixed)].join(', ')} FROM ${d.rows('x', lists)} ${tail}`;
}

/** The list parameters of {@link insertLists}' `columns` from `rows` (an absent value is NULL). */
export function listParams(columns: string, rows: readonly object[]): Record<string, Param> {
  const params: Record<string, Param> = {};
  for (const [c, t] of parse(columns)) {
    const values = rows.map((row) => (row as Record<string, number | null>)[c] ?? null);
    params[c] = t === 'float8' ? Float64Array.from(values, (v) => v ?? NaN) : (values as Param);
  }
  return params;
}
const parse = (columns: string) => columns.split(/\s+/).map((c) => c.split(':') as [string, ListType?]);

const RAISED = `metric_id:bigint threshold_id model_id boundary_limit:text change_before:float8 change_after:float8
  change_p_value:float8`;
const RAISE = perDialect((d) => {
  const fixed = { uuid: 'gen_random_uuid()', project_id: '$project::int', report_id: '$report::int' };
  const now = `$now::${d.timestamp}`;
  const more = { head_id: '$head::int', status: "'active'", created: now, modified: now };
  return insertLists(d, 'alert', RAISED, { ...fixed, ...more }, 'RETURNING *');
});

/** The alerts of a project, raised in bulk. */
export const ALERTS: Shared['alerts'] = extended(alerts, alertReads, (db) => ({
  async raise(report, raised, now) {
    if (raised.length === 0) return [];
    const rows = raised.map(({ change: c, ...a }) => ({
      ...a,
      ...(c && { change_before: c.before, change_after: c.after, change_p_value: c.p_value }),
    }));
    const params = { project: report.project_id, report: report.id, head: report.head_id, now };
    return db.query<AlertRecord>(RAISE(db.dialect), { ...listParams(RAISED, rows), ...params });
  },
}));
