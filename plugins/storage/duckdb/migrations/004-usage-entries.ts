import type { Migration } from '../migrate.js';

/**
 * Metrics counted as one row per report (`usage_entry`) instead of one row per organization and day: reports of
 * one organization insert rows of their own, so writers of several processes never update the same row. The day
 * rows counted so far become the first entries. Compaction folds the entries of past days into one per
 * organization and day (compaction.ts).
 */
export const usageEntries: Migration = {
  version: 4,
  name: 'usage entries',
  statements: [
    `CREATE SEQUENCE usage_entry_id_seq`,
    `CREATE TABLE usage_entry (
      id BIGINT PRIMARY KEY DEFAULT nextval('usage_entry_id_seq'),
      organization_id INTEGER NOT NULL,
      day DATE NOT NULL,
      metrics BIGINT NOT NULL
    )`,
    `INSERT INTO usage_entry (organization_id, day, metrics)
      SELECT organization_id, day, metrics FROM organization_usage ORDER BY day, organization_id`,
    `DROP TABLE organization_usage`,
  ],
};
