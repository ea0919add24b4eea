import type { StatsReader, StatsWriter, UsageReader, UsageWriter } from '../../../../kit/index.js';
import { execute, query, type Connection } from '../sql.js';

const DAY = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

function usageReader(connection: Connection): UsageReader {
  return {
    async metrics(organizationId, from, to) {
      // one organization's sum is an index range, so a quota's read locks (SERIALIZABLE) that range, not the table
      const [row] = await query<{ total: string | null }>(
        connection,
        organizationId === null
          ? `SELECT sum(metrics)::text AS total FROM usage_entry WHERE day BETWEEN $from::date AND $to::date`
          : `SELECT sum(metrics)::text AS total FROM usage_entry
              WHERE organization_id = $organization::int AND day BETWEEN $from::date AND $to::date`,
        { from, to, organization: organizationId },
      );
      return Number(row?.total ?? 0);
    },
    async daily(from, to) {
      const rows = await query<{ day: string; metrics: string }>(
        connection,
        `SELECT ${DAY('day')} AS day, sum(metrics)::text AS metrics FROM usage_entry
          WHERE day BETWEEN $from::date AND $to::date GROUP BY day ORDER BY day`,
        { from, to },
      );
      return rows.map((row) => ({ day: row.day, metrics: Number(row.metrics) }));
    },
  };
}

function usageWriter(connection: Connection): UsageWriter {
  return {
    ...usageReader(connection),
    async recordMetrics(organizationId, day, count) {
      // a row of the report's own: concurrent reports of one organization never write the same row
      await execute(
        connection,
        `INSERT INTO usage_entry (organization_id, day, metrics) VALUES ($organization::int, $day::date, $count::bigint)`,
        { organization: organizationId, day, count },
      );
    },
  };
}

function statsReader(connection: Connection): StatsReader {
  return {
    async created(since = new Date(0)) {
      const after = 'WHERE created >= $since::timestamptz';
      const [row] = await query<Record<'users' | 'organizations' | 'projects' | 'reports', string>>(
        connection,
        `SELECT (SELECT count(*) FROM users ${after})::text AS users,
          (SELECT count(*) FROM organization ${after})::text AS organizations,
          (SELECT count(*) FROM project ${after})::text AS projects,
          (SELECT count(*) FROM report ${after})::text AS reports`,
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
      const rows = await query<{ project_id: number; reports: string }>(
        connection,
        `SELECT project_id, count(*)::text AS reports FROM report WHERE created >= $since::timestamptz
          GROUP BY project_id ORDER BY count(*) DESC, project_id LIMIT $limit::int`,
        { since, limit },
      );
      return rows.map((row) => ({ project_id: row.project_id, reports: Number(row.reports) }));
    },
    snapshots: (from) =>
      query<{ day: string; stats: string }>(
        connection,
        `SELECT ${DAY('day')} AS day, stats FROM stats_snapshot WHERE day >= $from::date ORDER BY day`,
        { from },
      ),
  };
}

function statsWriter(connection: Connection): StatsWriter {
  return {
    ...statsReader(connection),
    async saveSnapshot(day, stats) {
      const changed = await execute(
        connection,
        `INSERT INTO stats_snapshot VALUES ($day::date, $stats::text) ON CONFLICT (day) DO NOTHING`,
        { day, stats },
      );
      return changed > 0;
    },
  };
}

export const plusReaders = (connection: Connection) => ({
  usage: usageReader(connection),
  stats: statsReader(connection),
});

export const plusWriters = (connection: Connection) => ({
  usage: usageWriter(connection),
  stats: statsWriter(connection),
});
