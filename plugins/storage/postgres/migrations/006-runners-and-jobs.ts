import type { Migration } from '../migrate.js';

/**
 * The embedded engine's migration 6: runners, their specs, jobs and the jobs' output, with the indexes a claim, the
 * lease sweep and the lists read: the queue of each spec (a partial index over queued jobs, in claim order), the
 * running jobs, a project's jobs newest first, and a job's log in order.
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
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      key_hash TEXT NOT NULL UNIQUE,
      archived BOOLEAN NOT NULL DEFAULT false,
      last_seen TIMESTAMPTZ,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE runner_spec (
      runner_id INTEGER NOT NULL,
      spec TEXT NOT NULL,
      PRIMARY KEY (runner_id, spec)
    )`,
    `CREATE SEQUENCE job_id_seq`,
    `CREATE TABLE job (
      id INTEGER PRIMARY KEY DEFAULT nextval('job_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      spec TEXT NOT NULL,
      state TEXT NOT NULL,
      definition TEXT NOT NULL,
      timeout_seconds INTEGER NOT NULL,
      runner_id INTEGER,
      attempt INTEGER NOT NULL,
      lease_expires TIMESTAMPTZ,
      heartbeat TIMESTAMPTZ,
      reason TEXT,
      report_id INTEGER,
      log_bytes INTEGER NOT NULL,
      log_dropped INTEGER NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      started TIMESTAMPTZ,
      finished TIMESTAMPTZ
    )`,
    `CREATE INDEX job_queue ON job (spec, created, id) WHERE state = 'queued'`,
    `CREATE INDEX job_running ON job (runner_id) WHERE state = 'running'`,
    `CREATE INDEX job_project ON job (project_id, id)`,
    `CREATE INDEX job_report ON job (report_id)`,
    `CREATE SEQUENCE job_log_id_seq`,
    `CREATE TABLE job_log (
      id INTEGER PRIMARY KEY DEFAULT nextval('job_log_id_seq'),
      job_id INTEGER NOT NULL,
      attempt INTEGER NOT NULL,
      text TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX job_log_job ON job_log (job_id, id)`,
  ],
};
