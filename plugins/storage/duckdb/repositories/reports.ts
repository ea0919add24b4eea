import type { DuckDBConnection } from '@duckdb/node-api';
import type { ReportRecord, ReportsReader, ReportSummary } from '../../../../kit/index.js';
import type { DeferredTable } from '../deferred.js';
import { query } from '../sql.js';
import { tableReader, type TableSpec } from '../table.js';

export const reports: TableSpec = {
  name: 'report',
  columns: [
    'id',
    'uuid',
    'project_id',
    'user_id',
    'branch_id',
    'head_id',
    'version_id',
    'testbed_id',
    'adapter',
    'idempotency_key',
    'start_time',
    'end_time',
    'created',
  ],
  search: ['uuid'],
};

/** The report table as ingest inserts into it, through the writer's deferred rows (deferred.ts). */
export const reportRows: DeferredTable = {
  name: 'report',
  sequence: 'report_id_seq',
  columns: [
    ['id', 'INTEGER'],
    ['uuid', 'UUID'],
    ['project_id', 'INTEGER'],
    ['user_id', 'INTEGER'],
    ['branch_id', 'INTEGER'],
    ['head_id', 'INTEGER'],
    ['version_id', 'INTEGER'],
    ['testbed_id', 'INTEGER'],
    ['adapter', 'VARCHAR'],
    ['idempotency_key', 'UUID'],
    ['start_time', 'TIMESTAMP'],
    ['end_time', 'TIMESTAMP'],
    ['created', 'TIMESTAMP'],
  ],
};

export function reportsReader(connection: DuckDBConnection): ReportsReader {
  return {
    ...tableReader<ReportRecord>(connection, reports),
    async listFiltered(filter, options) {
      const where = [
        'r.project_id = $project',
        ...(filter.branch_id !== undefined ? ['r.branch_id = $branch'] : []),
        ...(filter.testbed_id !== undefined ? ['r.testbed_id = $testbed'] : []),
        ...(filter.from ? ['r.start_time >= $from'] : []),
        ...(filter.to ? ['r.end_time <= $to'] : []),
        '(b.archived OR t.archived) = $archived',
      ].join(' AND ');
      const from = `FROM report r JOIN branch b ON b.id = r.branch_id JOIN testbed t ON t.id = r.testbed_id WHERE ${where}`;
      const direction = options.direction === 'asc' ? 'ASC' : 'DESC';
      const params = {
        project: filter.project_id,
        branch: filter.branch_id,
        testbed: filter.testbed_id,
        from: filter.from,
        to: filter.to,
        archived: filter.archived,
        limit: options.perPage,
        offset: (Math.max(options.page, 1) - 1) * options.perPage,
      };
      const [count] = await query<{ total: bigint }>(connection, `SELECT count(*) AS total ${from}`, params);
      const items = await query<ReportRecord>(
        connection,
        `SELECT r.* ${from} ORDER BY r.start_time ${direction}, r.id ${direction} LIMIT $limit OFFSET $offset`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
    async summaries(reportIds) {
      const out = new Map<number, ReportSummary>();
      if (reportIds.length === 0) return out;
      const ids = [...reportIds];
      const iterations = new Map<number, { benchmarks: number; measures: number }[]>(
        ids.map((id) => [id, []]),
      );
      for (const row of await query<{
        report_id: number;
        iteration: number;
        benchmarks: bigint;
        measures: bigint;
      }>(
        connection,
        `SELECT m.report_id, m.iteration, count(DISTINCT s.benchmark_id) AS benchmarks, count(*) AS measures
         FROM metric m JOIN series s ON s.id = m.series_id WHERE m.report_id IN (SELECT unnest($ids))
         GROUP BY ALL`,
        { ids },
      )) {
        (iterations.get(row.report_id) as { benchmarks: number; measures: number }[])[row.iteration] = {
          benchmarks: Number(row.benchmarks),
          measures: Number(row.measures),
        };
      }
      const alerts = new Map(
        (
          await query<{ report_id: number; active: bigint; total: bigint }>(
            connection,
            `SELECT report_id, count(*) FILTER (WHERE status = 'active') AS active, count(*) AS total
             FROM alert WHERE report_id IN (SELECT unnest($ids)) GROUP BY report_id`,
            { ids },
          )
        ).map((row) => [row.report_id, { active: Number(row.active), total: Number(row.total) }]),
      );
      for (const id of ids) {
        out.set(id, {
          report_id: id,
          iterations: Array.from(iterations.get(id) ?? [], (i) => i ?? { benchmarks: 0, measures: 0 }),
          alerts: alerts.get(id) ?? { active: 0, total: 0 },
        });
      }
      return out;
    },
  };
}
