import type { DuckDBConnection } from '@duckdb/node-api';
import type { AlertRecord, AlertsReader, WriteRepositories } from '../../../../kit/index.js';
import { query } from '../sql.js';
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

export function alertsReader(connection: DuckDBConnection): AlertsReader {
  const engine = regressionTables(connection);
  return {
    ...tableReader<AlertRecord>(connection, alerts),
    listForProject: listAlerts(engine.run, engine.dialect),
    countByStatus: countAlerts(engine.run, engine.dialect),
    idsMatching: alertIds(engine.run, engine.dialect),
  };
}

export function alertsWriter(connection: DuckDBConnection): WriteRepositories['alerts'] {
  return {
    ...tableWriter<AlertRecord, never>(connection, alerts),
    ...alertsReader(connection),
    async raise(report, raised, now) {
      if (raised.length === 0) return [];
      return query<AlertRecord>(
        connection,
        `INSERT INTO alert (uuid, project_id, report_id, metric_id, head_id, threshold_id, model_id, boundary_limit,
           status, change_before, change_after, change_p_value, created, modified)
         SELECT uuid(), $project, $report, unnest($metrics), $head, unnest($thresholds), unnest($models), unnest($limits),
           'active', nullif(unnest($before), 'NaN'::DOUBLE), nullif(unnest($after), 'NaN'::DOUBLE),
           nullif(unnest($p), 'NaN'::DOUBLE), $now, $now
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
