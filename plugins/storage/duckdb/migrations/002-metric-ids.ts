import type { Migration } from '../migrate.js';

/** Metric ids come from a sequence, fetched in one query per report so the Appender can write them. */
export const metricIds: Migration = {
  version: 2,
  name: 'metric id sequence',
  statements: [`CREATE SEQUENCE metric_id_seq`],
};
