import type { Migration } from '../migrate.js';

/**
 * The embedded engine's migration 5 (regressions; see there). A series and an alert belong to a regression at
 * most once (the keys refuse a second join by a concurrent process); the indexes serve a project's list by
 * status, the regressions open on a branch and testbed, and a series' regressions.
 */
export const regressions: Migration = {
  version: 5,
  name: 'regressions',
  statements: [
    `ALTER TABLE measure ADD COLUMN direction TEXT`,
    `CREATE SEQUENCE regression_id_seq`,
    `CREATE TABLE regression (
      id INTEGER PRIMARY KEY DEFAULT nextval('regression_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      branch_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      last_good_version_id INTEGER,
      first_bad_version_id INTEGER NOT NULL,
      fixed_version_id INTEGER,
      note TEXT,
      issue_url TEXT,
      assignee_id INTEGER,
      reason TEXT,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX regression_project_status ON regression (project_id, status)`,
    `CREATE INDEX regression_branch_testbed ON regression (branch_id, testbed_id)`,
    `CREATE TABLE regression_series (
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      series_id INTEGER NOT NULL,
      benchmark_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      state TEXT NOT NULL,
      before_value DOUBLE PRECISION NOT NULL,
      after_value DOUBLE PRECISION NOT NULL,
      p_value DOUBLE PRECISION,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (regression_id, series_id)
    )`,
    `CREATE INDEX regression_series_series ON regression_series (series_id)`,
    `CREATE TABLE regression_alert (
      alert_id INTEGER PRIMARY KEY,
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      series_id INTEGER NOT NULL
    )`,
    `CREATE INDEX regression_alert_regression ON regression_alert (regression_id)`,
    `CREATE SEQUENCE regression_event_id_seq`,
    `CREATE TABLE regression_event (
      id INTEGER PRIMARY KEY DEFAULT nextval('regression_event_id_seq'),
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      status TEXT NOT NULL,
      previous_status TEXT,
      changes TEXT,
      reason TEXT,
      created TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX regression_event_regression ON regression_event (regression_id)`,
  ],
};
