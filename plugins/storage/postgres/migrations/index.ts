import type { Migration } from '../migrate.js';
import { initial } from './001-initial.js';
import { changePointAlerts } from './002-change-point-alerts.js';
import { usageAndStats } from './003-usage-and-stats.js';
import { usageEntries } from './004-usage-entries.js';
import { regressions } from './005-regressions.js';
import { runnersAndJobs } from './006-runners-and-jobs.js';
import { notifications } from './007-notifications.js';

/** Every migration, in version order, numbered as the embedded engine's. Append only. */
export const migrations: readonly Migration[] = [
  initial,
  changePointAlerts,
  usageAndStats,
  usageEntries,
  regressions,
  runnersAndJobs,
  notifications,
];
