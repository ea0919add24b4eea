import type { AlertRecord, AlertsReader, WriteRepositories } from '../../../../kit/index.js';
import { query, type Connection } from '../sql.js';
import { tableReader, tableWriter, type TableSpec } from '../table.js';
import { alertIds, countAlerts, listAlerts } from '../../shared/alerts.js';
import { regressionTables } from './regressions.js';

export const alerts: TableSpec = {
  name: 'alert',
  columns: [
    'id',
    'uuid',
    'project_id',
    'report_id',
    'metric_id',
    'head_id',
    'threshold_id',
    'model_id',
    'boundary_limit',
    'status',
    'change_before',
    'change_after',
    'change_p_value',
    'created',
    'modified',
  ],
  search: ['uuid'],
};

export function alertsReader(connection: Connection): AlertsReader {
  const engine = regressionTables(connection);
  return {
    ...tableReader<AlertRecord>(connection, alerts),
    listForProject: listAlerts(engine.run, engine.dialect),
    countByStatus: countAlerts(engine.run, engine.dialect),
    idsMatching: alertIds(engine.run, engine.dialect),
  };
}

export function alertsWriter(connection: Connection): WriteRepositories['alerts'] {
  return {
    ...tableWriter<AlertRecord, never>(connection, alerts),
    ...alertsReader(connection),
    async raise(report, raised, now) {
      if (raised.length === 0) return [];
      return query<AlertRecord>(
        connection,
        `INSERT INTO alert (uuid, project_id, report_id, metric_id, head_id, threshold_id, model_id, boundary_limit,
           status, change_before, change_after, change_p_value, created, modified)
         SELECT gen_random_uuid(), $project::int, $report::int, a.metric, $head::int, a.threshold, a.model, a.limit_,
           'active', nullif(a.before, 'NaN'), nullif(a.after, 'NaN'), nullif(a.p, 'NaN'), $now::timestamptz,
           $now::timestamptz
         FROM unnest($metrics::bigint[], $thresholds::int[], $models::int[], $limits::text[], $before::float8[],
           $after::float8[], $p::float8[]) AS a(metric, threshold, model, limit_, before, after, p)
         RETURNING *`,
        {
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
        },
      );
    },
  };
}
