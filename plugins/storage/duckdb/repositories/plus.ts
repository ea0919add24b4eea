import type { DuckDBConnection } from '@duckdb/node-api';
import type { StatsReader, StatsWriter, UsageReader, UsageWriter } from '../../../../kit/index.js';
import type { DeferredRows, DeferredTable } from '../deferred.js';
import { execute, query } from '../sql.js';
import { deferredInsert } from '../table.js';

const DAY = (column: string) => `strftime(${column}, '%Y-%m-%d')`;

function usageReader(connection: DuckDBConnection): UsageReader {
  return {
    async metrics(organizationId, from, to) {
      const [row] = await query<{ total: bigint | null }>(
        connection,
        `SELECT sum(metrics) AS total FROM usage_entry
          WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
            AND ($organization IS NULL OR organization_id = $organization)`,
        { from, to, organization: organizationId },
      );
      return Number(row?.total ?? 0);
    },
    async daily(from, to) {
      const rows = await query<{ day: string; metrics: bigint }>(
        connection,
        `SELECT ${DAY('day')} AS day, sum(metrics) AS metrics FROM usage_entry
          WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) GROUP BY day ORDER BY day`,
        { from, to },
      );
      return rows.map((row) => ({ day: row.day, metrics: Number(row.metrics) }));
    },
  };
}

/** usage_entry as ingest inserts into it, through the writer's deferred rows (deferred.ts). */
export const usageRows: DeferredTable = {
  name: 'usage_entry',
  sequence: 'usage_entry_id_seq',
  columns: [
    ['id', 'BIGINT'],
    ['organization_id', 'INTEGER'],
    ['day', 'DATE'],
    ['metrics', 'BIGINT'],
  ],
};

function usageWriter(connection: DuckDBConnection, deferred: DeferredRows): UsageWriter {
  return {
    ...usageReader(connection),
    async recordMetrics(organizationId, day, count) {
      // a row of the report's own, through the deferred rows (deferred.ts): one Appender for a group commit
      await deferredInsert(deferred, usageRows, {
        organization_id: organizationId,
        day,
        metrics: count,
      });
    },
  };
}

function statsReader(connection: DuckDBConnection): StatsReader {
  return {
    async created(since = new Date(0)) {
      const after = 'WHERE created >= $since';
      const [row] = await query<Record<'users' | 'organizations' | 'projects' | 'reports', bigint>>(
        connection,
        `SELECT (SELECT count(*) FROM users ${after}) AS users,
          (SELECT count(*) FROM organization ${after}) AS organizations,
          (SELECT count(*) FROM project ${after}) AS projects,
          (SELECT count(*) FROM report ${after}) AS reports`,
        { since },
      );
      return {
        users: Number(row?.users ?? 0),
        organizations: Number(row?.organizations ?? 0),
        projects: Number(row?.projects ?? 0),
        reports: Number(row?.reports ?? 0),
      };
    },
    async topProjects(since, limit) {
      const rows = await query<{ project_id: number; reports: bigint }>(
        connection,
        `SELECT project_id, count(*) AS reports FROM report WHERE created >= $since
          GROUP BY project_id ORDER BY reports DESC, project_id LIMIT $limit`,
        { since, limit },
      );
      return rows.map((row) => ({ project_id: row.project_id, reports: Number(row.reports) }));
    },
    async snapshots(from) {
      return query<{ day: string; stats: string }>(
        connection,
        `SELECT ${DAY('day')} AS day, stats FROM stats_snapshot WHERE day >= CAST($from AS DATE) ORDER BY day`,
        { from },
      );
    },
  };
}

function statsWriter(connection: DuckDBConnection): StatsWriter {
  return {
    ...statsReader(connection),
    async saveSnapshot(day, stats) {
      const changed = await execute(
        connection,
        `INSERT INTO stats_snapshot VALUES (CAST($day AS DATE), $stats) ON CONFLICT (day) DO NOTHING`,
        { day, stats },
      );
      return changed > 0;
    },
  };
}

export const plusReaders = (connection: DuckDBConnection) => ({
  usage: usageReader(connection),
  stats: statsReader(connection),
});

export const plusWriters = (connection: DuckDBConnection, deferred: DeferredRows) => ({
  usage: usageWriter(connection, deferred),
  stats: statsWriter(connection),
});
