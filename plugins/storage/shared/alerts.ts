import type { AlertFilter, AlertRecord, AlertsReader, AlertStatus, TableReader } from '../../../kit/index.js';
import { perDialect, type Db, type Param } from './sql.js';
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
  const where = ['a.project_id = $project::int'];
  const params: Record<string, Param> = { project: filter.project_id };
  if (filter.status !== undefined) {
    where.push('a.status = $status::text');
    params.status = filter.status;
  }
  const threshold: string[] = [];
  for (const column of ['branch_id', 'testbed_id', 'measure_id'] as const) {
    if (filter[column] === undefined) continue;
    threshold.push(`t.${column} = $${column}::int`);
    params[column] = filter[column];
  }
  if (threshold.length > 0)
    where.push(`a.threshold_id IN (SELECT t.id FROM threshold t WHERE ${threshold.join(' AND ')})`);
  if (filter.benchmark_id !== undefined) {
    params.benchmark = filter.benchmark_id;
    where.push(`a.metric_id IN (SELECT m.id FROM metric m
      WHERE m.series_id IN (SELECT s.id FROM series s WHERE s.benchmark_id = $benchmark::int)
        AND m.report_id IN (SELECT x.report_id FROM alert x WHERE x.project_id = $project::int))`);
  }
  return { sql: where.join(' AND '), params };
}

const alertReads = (db: Db): Omit<AlertsReader, keyof TableReader<AlertRecord>> => ({
  listForProject(filter, options) {
    const where = alertWhere(filter);
    const direction = options.direction === 'desc' ? 'DESC' : 'ASC';
    return page<AlertRecord>(
      db,
      'a.*',
      `FROM alert a WHERE ${where.sql}`,
      ORDER[options.sort](direction),
      where.params,
      options,
    );
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

const RAISE = perDialect(
  (d) => `INSERT INTO alert (uuid, project_id, report_id, metric_id, head_id, threshold_id, model_id,
      boundary_limit, status, change_before, change_after, change_p_value, created, modified)
    SELECT gen_random_uuid(), $project::int, $report::int, a.metric, $head::int, a.threshold, a.model, a.bound,
      'active', nullif(a.before, 'NaN'), nullif(a.after, 'NaN'), nullif(a.p, 'NaN'), $now::${d.timestamp},
      $now::${d.timestamp}
    FROM ${d.rows('a', [
      ['metric', '$metrics', 'bigint'],
      ['threshold', '$thresholds', 'int'],
      ['model', '$models', 'int'],
      ['bound', '$limits', 'text'],
      ['before', '$before', 'float8'],
      ['after', '$after', 'float8'],
      ['p', '$p', 'float8'],
    ])}
    RETURNING *`,
);

/** The alerts of a project, raised in bulk. */
export const ALERTS: Shared['alerts'] = extended(alerts, alertReads, (db) => ({
  async raise(report, raised, now) {
    if (raised.length === 0) return [];
    return db.query<AlertRecord>(RAISE(db.dialect), {
      project: report.project_id,
      report: report.id,
      head: report.head_id,
      metrics: raised.map((a) => a.metric_id),
      thresholds: raised.map((a) => a.threshold_id),
      models: raised.map((a) => a.model_id),
      limits: raised.map((a) => a.boundary_limit),
      // NaN for "not a change point": NULL in the table
      before: Float64Array.from(raised, (a) => a.change?.before ?? Number.NaN),
      after: Float64Array.from(raised, (a) => a.change?.after ?? Number.NaN),
      p: Float64Array.from(raised, (a) => a.change?.p_value ?? Number.NaN),
      now,
    });
  },
}));
