import { migrations as shared, type Migration } from '../../shared/schema.js';
import { sealedMetricSegments } from './008-sealed-metric-segments.js';

/**
 * Every migration, in version order (plugins/storage/shared/schema.ts). The metric table has no primary key or
 * id sequence: this process is the file's only writer and counts metric ids itself (`Database.reserveMetricIds`).
 */
export const migrations: readonly Migration[] = [
  ...shared({
    timestamp: 'TIMESTAMP',
    indexes: false,
    metric: (columns) => [`CREATE TABLE metric (\n      id BIGINT NOT NULL,\n      ${columns}\n    )`],
    utcDate: (column) => `CAST(${column} AS DATE)`,
  }),
  sealedMetricSegments,
];
