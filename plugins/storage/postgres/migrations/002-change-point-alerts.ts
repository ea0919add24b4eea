import type { Migration } from '../migrate.js';

/** The embedded engine's migration 2: what a change-point detector measured, kept on its alert (NULL on others). */
export const changePointAlerts: Migration = {
  version: 2,
  name: 'change-point alerts',
  statements: [
    `ALTER TABLE alert ADD COLUMN change_before DOUBLE PRECISION`,
    `ALTER TABLE alert ADD COLUMN change_after DOUBLE PRECISION`,
    `ALTER TABLE alert ADD COLUMN change_p_value DOUBLE PRECISION`,
  ],
};
