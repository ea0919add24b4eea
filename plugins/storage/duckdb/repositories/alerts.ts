import type { DuckDBConnection } from '@duckdb/node-api';
import type { AlertRecord, AlertsReader } from '../../../../core/index.js';
import { query } from '../sql.js';
import { tableReader, type TableSpec } from '../table.js';

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
    'created',
    'modified',
  ],
  search: ['uuid'],
};

/** `active` sorts before `dismissed` and `silenced`: the default order shows what needs attention first. */
const ORDER = {
  status: (d: string) => `status ${d}, modified DESC, id DESC`,
  created: (d: string) => `created ${d}, id ${d}`,
  modified: (d: string) => `modified ${d}, id ${d}`,
} as const;

export function alertsReader(connection: DuckDBConnection): AlertsReader {
  return {
    ...tableReader<AlertRecord>(connection, alerts),
    async listForProject(projectId, status, options) {
      const where = `project_id = $project${status ? ' AND status = $status' : ''}`;
      const params = {
        project: projectId,
        status,
        limit: options.perPage,
        offset: (Math.max(options.page, 1) - 1) * options.perPage,
      };
      const [count] = await query<{ total: bigint }>(
        connection,
        `SELECT count(*) AS total FROM alert WHERE ${where}`,
        params,
      );
      const items = await query<AlertRecord>(
        connection,
        `SELECT * FROM alert WHERE ${where} ORDER BY ${ORDER[options.sort](options.direction === 'desc' ? 'DESC' : 'ASC')}
         LIMIT $limit OFFSET $offset`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
  };
}
