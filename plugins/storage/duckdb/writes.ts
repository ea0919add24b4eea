import type { UsageWriter } from '../../../kit/index.js';
import type { DeferredRows, DeferredTable } from './deferred.js';
import { deferredInsert } from './table.js';

/** usage_entry as ingest inserts into it, through the writer's deferred rows (deferred.ts). */
const usageRows: DeferredTable = {
  name: 'usage_entry',
  sequence: 'usage_entry_id_seq',
  columns: [
    ['id', 'BIGINT'],
    ['organization_id', 'INTEGER'],
    ['day', 'DATE'],
    ['metrics', 'BIGINT'],
  ],
};

/** A report's usage count as a row of its own, through the deferred rows: one Appender for a group commit. */
export function recordMetrics(deferred: DeferredRows): UsageWriter['recordMetrics'] {
  return async (organizationId, day, metrics) => {
    await deferredInsert(deferred, usageRows, { organization_id: organizationId, day, metrics });
  };
}
