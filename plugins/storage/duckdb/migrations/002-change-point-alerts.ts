import type { Migration } from '../migrate.js';

/**
 * A change_point threshold alerts on the metric that starts a new regime, from the later report that confirmed
 * it; the alert keeps what the detector measured then (the means on each side and the p-value), so the alert
 * and the report that confirmed it show the change point without detecting again. NULL on other alerts.
 */
export const changePointAlerts: Migration = {
  version: 2,
  name: 'change-point alerts',
  statements: [
    `ALTER TABLE alert ADD COLUMN change_before DOUBLE`,
    `ALTER TABLE alert ADD COLUMN change_after DOUBLE`,
    `ALTER TABLE alert ADD COLUMN change_p_value DOUBLE`,
  ],
};
