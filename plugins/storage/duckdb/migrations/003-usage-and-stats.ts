import type { Migration } from '../migrate.js';

/**
 * Metrics submitted per organization per UTC day, counted by report ingest in its own transaction (the daily
 * quota, license usage and the ingest volume of server statistics read it), filled from the metrics already
 * stored; and the daily snapshots of server statistics, one per day, kept for plotting.
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
      SELECT p.organization_id, CAST(r.created AS DATE), count(*)
      FROM metric m JOIN report r ON r.id = m.report_id JOIN project p ON p.id = r.project_id
      GROUP BY ALL`,
    `CREATE TABLE stats_snapshot (day DATE PRIMARY KEY, stats VARCHAR NOT NULL)`,
  ],
};
