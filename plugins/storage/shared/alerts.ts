import type { AlertRecord, AlertsReader, WriteRepositories } from '../../../kit/index.js';
import { perDialect, type Db } from './sql.js';
import { names, page, tableReader, type TableSpec, tableWriter } from './table.js';

export const alerts: TableSpec = {
  name: 'alert',
  columns: names(`
    id uuid project_id report_id metric_id head_id threshold_id model_id boundary_limit status
    change_before change_after change_p_value created modified
  `),
  search: ['uuid'],
};

/** `active` sorts before `dismissed` and `silenced`: the default order shows what needs attention first. */
const ORDER = {
  status: (d: string) => `status ${d}, modified DESC, id DESC`,
  created: (d: string) => `created ${d}, id ${d}`,
  modified: (d: string) => `modified ${d}, id ${d}`,
} as const;

export function alertsReader(db: Db): AlertsReader {
  return {
    ...tableReader<AlertRecord>(db, alerts),
    listForProject(projectId, status, options) {
      const direction = options.direction === 'desc' ? 'DESC' : 'ASC';
      return page<AlertRecord>(
        db,
        '*',
        `FROM alert WHERE project_id = $project${status ? ' AND status = $status' : ''}`,
        `ORDER BY ${ORDER[options.sort](direction)} LIMIT $limit::bigint OFFSET $offset::bigint`,
        {
          project: projectId,
          status,
          limit: options.perPage,
          offset: (Math.max(options.page, 1) - 1) * options.perPage,
        },
      );
    },
  };
}

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

export function alertsWriter(db: Db): WriteRepositories['alerts'] {
  return {
    ...tableWriter<AlertRecord, never>(db, alerts),
    ...alertsReader(db),
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
  };
}
