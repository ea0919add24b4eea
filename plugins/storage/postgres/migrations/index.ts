import { migrations as shared, type Migration } from '../../shared/schema.js';
import { partitionedMetrics } from './008-partitioned-metrics.js';

/**
 * Every migration, in version order (plugins/storage/shared/schema.ts), with the indexes PostgreSQL reads through.
 * Metric ids come from a sequence every process draws from.
 */
export const migrations: readonly Migration[] = [
  ...shared({
    timestamp: 'TIMESTAMPTZ',
    indexes: true,
    metric: (columns) => [
      'CREATE SEQUENCE metric_id_seq',
      `CREATE TABLE metric (\n      id BIGINT PRIMARY KEY,\n      ${columns}\n    )`,
    ],
    utcDate: (column) => `(${column} AT TIME ZONE 'UTC')::date`,
  }),
  partitionedMetrics,
];
