import type { Migration } from '../migrate.js';

/**
 * Dedicated benchmark runners, the specs each serves, the jobs queued for those specs, and the jobs' output.
 * A job's lease is its runner, attempt and expiry; the job's log is kept in pieces (`job_log`) so that a
 * heartbeat appends a row instead of rewriting a growing text.
 */
export const runnersAndJobs: Migration = {
  version: 6,
  name: 'runners and jobs',
  statements: [
    `CREATE SEQUENCE runner_id_seq`,
    `CREATE TABLE runner (
      id INTEGER PRIMARY KEY DEFAULT nextval('runner_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      organization_id INTEGER,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL UNIQUE,
      key_hash VARCHAR NOT NULL UNIQUE,
      archived BOOLEAN NOT NULL DEFAULT false,
      last_seen TIMESTAMP,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE runner_spec (
      runner_id INTEGER NOT NULL,
      spec VARCHAR NOT NULL,
      PRIMARY KEY (runner_id, spec)
    )`,
    `CREATE SEQUENCE job_id_seq`,
    `CREATE TABLE job (
      id INTEGER PRIMARY KEY DEFAULT nextval('job_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      spec VARCHAR NOT NULL,
      state VARCHAR NOT NULL,
      definition VARCHAR NOT NULL,
      timeout_seconds INTEGER NOT NULL,
      runner_id INTEGER,
      attempt INTEGER NOT NULL,
      lease_expires TIMESTAMP,
      heartbeat TIMESTAMP,
      reason VARCHAR,
      report_id INTEGER,
      log_bytes INTEGER NOT NULL,
      log_dropped INTEGER NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      started TIMESTAMP,
      finished TIMESTAMP
    )`,
    `CREATE SEQUENCE job_log_id_seq`,
    `CREATE TABLE job_log (
      id INTEGER PRIMARY KEY DEFAULT nextval('job_log_id_seq'),
      job_id INTEGER NOT NULL,
      attempt INTEGER NOT NULL,
      text VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL
    )`,
  ],
};
