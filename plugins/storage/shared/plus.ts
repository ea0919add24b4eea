import type { StatsReader, UsageReader } from '../../../kit/index.js';
import { count, type Db } from './sql.js';
import { withWrites, type Shared } from './table.js';

function usageReader(db: Db): UsageReader {
  return {
    async metrics(organizationId, from, to) {
      // one organization's sum is an index range, so a quota's read locks (SERIALIZABLE) that range, not the table
      const organization = organizationId === null ? '' : 'organization_id = $organization::int AND ';
      const [row] = await db.query<{ total: bigint | string | null }>(
        `SELECT sum(metrics) AS total FROM usage_entry WHERE ${organization}day BETWEEN $from::date AND $to::date`,
        { from, to, organization: organizationId },
      );
      return count(row?.total);
    },
    async daily(from, to) {
      const rows = await db.query<{ day: string; metrics: bigint | string }>(
        `SELECT ${db.dialect.day('day')} AS day, sum(metrics) AS metrics FROM usage_entry
          WHERE day BETWEEN $from::date AND $to::date GROUP BY day ORDER BY day`,
        { from, to },
      );
      return rows.map((row) => ({ day: row.day, metrics: count(row.metrics) }));
    },
  };
}

function statsReader(db: Db): StatsReader {
  return {
    async created(since = new Date(0)) {
      const after = `WHERE created >= $since::${db.dialect.timestamp}`;
      const [row] = await db.query<Record<'users' | 'organizations' | 'projects' | 'reports', bigint>>(
        `SELECT (SELECT count(*) FROM users ${after}) AS users,
          (SELECT count(*) FROM organization ${after}) AS organizations,
          (SELECT count(*) FROM project ${after}) AS projects,
          (SELECT count(*) FROM report ${after}) AS reports`,
        { since },
      );
      return {
        users: count(row?.users),
        organizations: count(row?.organizations),
        projects: count(row?.projects),
        reports: count(row?.reports),
      };
    },
    async topProjects(since, limit) {
      const rows = await db.query<{ project_id: number; reports: bigint }>(
        `SELECT project_id, count(*) AS reports FROM report WHERE created >= $since::${db.dialect.timestamp}
          GROUP BY project_id ORDER BY reports DESC, project_id LIMIT $limit::int`,
        { since, limit },
      );
      return rows.map((row) => ({ project_id: row.project_id, reports: count(row.reports) }));
    },
    snapshots: (from) =>
      db.query<{ day: string; stats: string }>(
        `SELECT ${db.dialect.day('day')} AS day, stats FROM stats_snapshot WHERE day >= $from::date ORDER BY day`,
        { from },
      ),
  };
}

/** Metrics stored per organization and day, and daily statistics snapshots. */
export const PLUS = {
  usage: withWrites(usageReader, (db) => ({
    async recordMetrics(organizationId, day, metrics) {
      // a row of the report's own: concurrent reports of one organization never write the same row
      await db.execute(
        'INSERT INTO usage_entry (organization_id, day, metrics) VALUES ($organization::int, $day::date, $metrics::bigint)',
        { organization: organizationId, day, metrics },
      );
    },
  })),
  stats: withWrites(statsReader, (db) => ({
    async saveSnapshot(day, stats) {
      const changed = await db.execute(
        'INSERT INTO stats_snapshot VALUES ($day::date, $stats::text) ON CONFLICT (day) DO NOTHING',
        { day, stats },
      );
      return changed > 0;
    },
  })),
} satisfies Partial<Shared>;
