import type { Migration } from '../migrate.js';

/**
 * The embedded engine's migration 4: metrics counted as one row per report, so that reports of one organization
 * from several API processes never update the same row (under SERIALIZABLE, every report but one had to run
 * again). The index serves the sums a quota or license reads, one organization over a range of days, and keeps
 * their predicate locks to that range.
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
    `CREATE INDEX usage_entry_organization_day ON usage_entry (organization_id, day)`,
    `INSERT INTO usage_entry (organization_id, day, metrics)
      SELECT organization_id, day, metrics FROM organization_usage ORDER BY day, organization_id`,
    `DROP TABLE organization_usage`,
  ],
};
