import { describe } from 'vitest';
import { describeAccounts } from './storage/accounts.js';
import { describeCascades } from './storage/cascades.js';
import { describeColumns } from './storage/columns.js';
import { describeCounters } from './storage/counters.js';
import { describeDimensions } from './storage/dimensions.js';
import { useStorages, type StorageHarness } from './storage/harness.js';
import { describeLifecycle } from './storage/lifecycle.js';
import { describeNotifications } from './storage/notifications.js';
import { describePlus } from './storage/plus.js';
import { describeRegressions } from './storage/regressions.js';
import { describeReports } from './storage/reports.js';
import { describeRunners } from './storage/runners.js';
import { describeTables } from './storage/tables.js';
import { describeTransactions } from './storage/transactions.js';

export type { StorageHarness } from './storage/harness.js';

/**
 * The contract every storage plugin passes, engine-neutral (no SQL, no files: the harness owns where the
 * database lives): migrations, health and close; whole transactions, concurrent writers, callbacks that run
 * again, snapshot reads; the generic table operations with search and paging; every repository method; the
 * column layout of history and perf answers; cascading deletes; runner job claims; regressions; the notification
 * outbox and delivery claims; shared counters, where the engine has them. Each test opens a fresh database: an
 * empty one for the lifecycle (migrations), an already migrated one for the rest when the harness can make it.
 */
export function describeStorageContract(name: string, createHarness: () => StorageHarness): void {
  describe(`storage contract: ${name}`, () => {
    describeLifecycle(useStorages(createHarness));
    const open = useStorages(createHarness, { migrated: true });
    describeTransactions(open);
    describeTables(open);
    describeAccounts(open);
    describeDimensions(open);
    describeReports(open);
    describeColumns(open);
    describeCascades(open);
    describePlus(open);
    describeRunners(open);
    describeRegressions(open);
    describeNotifications(open);
    describeCounters(open);
  });
}
