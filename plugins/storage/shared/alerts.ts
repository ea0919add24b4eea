import type { AlertFilter, AlertRecord, AlertsReader, AlertStatus, Page } from '../../../kit/index.js';
import type { Dialect, Run } from './regressions.js';

/** `active` sorts before `dismissed` and `silenced`: the default order shows what needs attention first. */
const ORDER = {
  status: (d: string) => `a.status ${d}, a.modified DESC, a.id DESC`,
  created: (d: string) => `a.created ${d}, a.id ${d}`,
  modified: (d: string) => `a.modified ${d}, a.id ${d}`,
} as const;

/**
 * The WHERE clause of an alert filter. Branch, testbed and measure are the alert's threshold's; the benchmark is
 * its metric's series', looked up among the metrics of the project's alerted reports only, so the metric table is
 * read by series and report, never whole.
 */
function alertWhere(filter: AlertFilter, d: Dialect): { sql: string; params: Record<string, unknown> } {
  const where = [`a.project_id = ${d.int('project')}`];
  const params: Record<string, unknown> = { project: filter.project_id };
  if (filter.status !== undefined) {
    where.push(`a.status = ${d.text('status')}`);
    params.status = filter.status;
  }
  const threshold: string[] = [];
  for (const column of ['branch_id', 'testbed_id', 'measure_id'] as const) {
    if (filter[column] === undefined) continue;
    threshold.push(`t.${column} = ${d.int(column)}`);
    params[column] = filter[column];
  }
  if (threshold.length > 0)
    where.push(`a.threshold_id IN (SELECT t.id FROM threshold t WHERE ${threshold.join(' AND ')})`);
  if (filter.benchmark_id !== undefined) {
    params.benchmark = filter.benchmark_id;
    where.push(`a.metric_id IN (SELECT m.id FROM metric m
      WHERE m.series_id IN (SELECT s.id FROM series s WHERE s.benchmark_id = ${d.int('benchmark')})
        AND m.report_id IN (SELECT x.report_id FROM alert x WHERE x.project_id = ${d.int('project')}))`);
  }
  return { sql: where.join(' AND '), params };
}

/** `listForProject` of the alerts reader, in SQL both engines run. */
export function listAlerts(run: Run, d: Dialect): AlertsReader['listForProject'] {
  return async (filter, options): Promise<Page<AlertRecord>> => {
    const { sql, params } = alertWhere(filter, d);
    const [count] = await run<{ total: bigint | number | string }>(
      `SELECT count(*) AS total FROM alert a WHERE ${sql}`,
      params,
    );
    const items = await run<AlertRecord>(
      `SELECT a.* FROM alert a WHERE ${sql}
        ORDER BY ${ORDER[options.sort](options.direction === 'desc' ? 'DESC' : 'ASC')}
        LIMIT ${d.int('limit')} OFFSET ${d.int('offset')}`,
      { ...params, limit: options.perPage, offset: (Math.max(options.page, 1) - 1) * options.perPage },
    );
    return { items, total: Number(count?.total ?? 0) };
  };
}

/** `countByStatus` of the alerts reader: one grouped count. */
export function countAlerts(run: Run, d: Dialect): AlertsReader['countByStatus'] {
  return async (filter) => {
    const { sql, params } = alertWhere({ ...filter, status: undefined }, d);
    const rows = await run<{ status: AlertStatus; total: bigint | number | string }>(
      `SELECT a.status, count(*) AS total FROM alert a WHERE ${sql} GROUP BY a.status`,
      params,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.total)]));
  };
}

/** The ids of the alerts a filter matches (at most a project's), for a write that applies to them all. */
export function alertIds(run: Run, d: Dialect): AlertsReader['idsMatching'] {
  return async (filter) => {
    const { sql, params } = alertWhere(filter, d);
    const rows = await run<{ id: number }>(`SELECT a.id FROM alert a WHERE ${sql}`, params);
    return rows.map((row) => Number(row.id));
  };
}
