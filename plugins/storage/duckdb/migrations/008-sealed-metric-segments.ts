import type { Migration } from '../../shared/schema.js';

/**
 * The engine's twin of PostgreSQL's migration 8 (its metric table partitioned by month): here the metric table
 * is laid out in segments by compaction (compaction.ts). The part an older Benchtrack clustered becomes the first
 * sealed segment, so the first compaction after the upgrade sorts only the rows that came after it, however large
 * the history.
 */
export const sealedMetricSegments: Migration = {
  version: 8,
  name: 'sealed metric segments',
  statements: [
    `INSERT INTO server_meta SELECT 'metric.sealed_through', value FROM server_meta
      WHERE key = 'metric.clustered_through' ON CONFLICT (key) DO NOTHING`,
  ],
};
