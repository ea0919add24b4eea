import type { Migration } from '../migrate.js';
import { initial } from './001-initial.js';
import { changePointAlerts } from './002-change-point-alerts.js';

/** Every migration, in version order, numbered as the embedded engine's. Append only. */
export const migrations: readonly Migration[] = [initial, changePointAlerts];
