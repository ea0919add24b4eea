import type { Migration } from '../migrate.js';

/**
 * The embedded engine's migration 3: metrics per organization and UTC day (filled from the metrics already
 * stored), and the daily snapshots of server statistics.
 */
export const usageAndStats: Migration = {
  version: 3,
  name: 'usage and stats',
  statements: [
    `CREATE TABLE organization_usage (
      organization_id INTEGER NOT NULL,
      day DATE NOT NULL,
      metrics BIGINT NOT NULL,
      PRIMARY KEY (organization_id, day)
    )`,
    `INSERT INTO organization_usage
      SELECT p.organization_id, (r.created AT TIME ZONE 'UTC')::date, count(*)
      FROM metric m JOIN report r ON r.id = m.report_id JOIN project p ON p.id = r.project_id
      GROUP BY 1, 2`,
    `CREATE TABLE stats_snapshot (day DATE PRIMARY KEY, stats TEXT NOT NULL)`,
  ],
};
