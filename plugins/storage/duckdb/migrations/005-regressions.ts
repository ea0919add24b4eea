import type { Migration } from '../migrate.js';

/**
 * Regressions: one row per change on a branch and testbed at one version, its series, the alerts that belong to
 * it and the history of its status; and the direction a measure declares. Nothing is created from the alerts of
 * an existing database: the change-point analysis after each report opens the regressions of its recent changes.
 */
export const regressions: Migration = {
  version: 5,
  name: 'regressions',
  statements: [
    `ALTER TABLE measure ADD COLUMN direction VARCHAR`,
    `CREATE SEQUENCE regression_id_seq`,
    `CREATE TABLE regression (
      id INTEGER PRIMARY KEY DEFAULT nextval('regression_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      branch_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      kind VARCHAR NOT NULL,
      status VARCHAR NOT NULL,
      last_good_version_id INTEGER,
      first_bad_version_id INTEGER NOT NULL,
      fixed_version_id INTEGER,
      note VARCHAR,
      issue_url VARCHAR,
      assignee_id INTEGER,
      reason VARCHAR,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE regression_series (
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      series_id INTEGER NOT NULL,
      benchmark_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      state VARCHAR NOT NULL,
      before_value DOUBLE NOT NULL,
      after_value DOUBLE NOT NULL,
      p_value DOUBLE,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      PRIMARY KEY (regression_id, series_id)
    )`,
    `CREATE TABLE regression_alert (
      alert_id INTEGER PRIMARY KEY,
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      series_id INTEGER NOT NULL
    )`,
    `CREATE SEQUENCE regression_event_id_seq`,
    `CREATE TABLE regression_event (
      id INTEGER PRIMARY KEY DEFAULT nextval('regression_event_id_seq'),
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      status VARCHAR NOT NULL,
      previous_status VARCHAR,
      changes VARCHAR,
      reason VARCHAR,
      created TIMESTAMP NOT NULL
    )`,
  ],
};
