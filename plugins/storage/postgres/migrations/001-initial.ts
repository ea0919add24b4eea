import type { Migration } from '../migrate.js';

/** Columns every named dimension table has (testbed, benchmark; measure adds units). */
const named = (table: string, extra = '') => [
  `CREATE SEQUENCE ${table}_id_seq`,
  `CREATE TABLE ${table} (
    id INTEGER PRIMARY KEY DEFAULT nextval('${table}_id_seq'),
    uuid UUID NOT NULL UNIQUE,
    project_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,${extra}
    archived BOOLEAN NOT NULL DEFAULT false,
    created TIMESTAMPTZ NOT NULL,
    modified TIMESTAMPTZ NOT NULL,
    UNIQUE (project_id, slug),
    UNIQUE (project_id, name)
  )`,
];

/**
 * The data model of the embedded engine's first migration, table for table and column for column (so data moves
 * between engines 1:1, sequences included), with the types PostgreSQL names differently (TEXT, TIMESTAMPTZ,
 * DOUBLE PRECISION) and the indexes PostgreSQL needs where DuckDB scans (it has zone maps, PostgreSQL has B-trees):
 *
 * - metric (series_id, start_time, report_id, iteration): history and perf read each series as one index range,
 *   in the order they answer (history backwards, newest first);
 * - the foreign keys that lists, summaries and cascading deletes filter on.
 *
 * Integrity between tables is kept by the repositories, as in the embedded engine; the UNIQUE constraints hold
 * the naming rules, series and idempotency keys against concurrent writers of other processes.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial data model',
  statements: [
    `CREATE TABLE server_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,

    `CREATE SEQUENCE user_id_seq`,
    `CREATE TABLE users (
      id INTEGER PRIMARY KEY DEFAULT nextval('user_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      email TEXT NOT NULL UNIQUE,
      admin BOOLEAN NOT NULL DEFAULT false,
      locked BOOLEAN NOT NULL DEFAULT false,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,

    `CREATE SEQUENCE api_token_id_seq`,
    `CREATE TABLE api_token (
      id INTEGER PRIMARY KEY DEFAULT nextval('api_token_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      user_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      creation TIMESTAMPTZ NOT NULL,
      expiration TIMESTAMPTZ NOT NULL,
      revoked TIMESTAMPTZ
    )`,
    `CREATE INDEX api_token_user ON api_token (user_id)`,

    `CREATE SEQUENCE organization_id_seq`,
    `CREATE TABLE organization (
      id INTEGER PRIMARY KEY DEFAULT nextval('organization_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      personal_user_id INTEGER,
      claimed TIMESTAMPTZ,
      license TEXT,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE organization_role (
      organization_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (organization_id, user_id)
    )`,
    `CREATE INDEX organization_role_user ON organization_role (user_id)`,
    `CREATE SEQUENCE invitation_id_seq`,
    `CREATE TABLE invitation (
      id INTEGER PRIMARY KEY DEFAULT nextval('invitation_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      organization_id INTEGER NOT NULL,
      email TEXT NOT NULL,
      role TEXT NOT NULL,
      invited_by INTEGER NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      expiration TIMESTAMPTZ NOT NULL,
      accepted TIMESTAMPTZ
    )`,

    `CREATE SEQUENCE project_id_seq`,
    `CREATE TABLE project (
      id INTEGER PRIMARY KEY DEFAULT nextval('project_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      organization_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      url TEXT,
      visibility TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      UNIQUE (organization_id, name)
    )`,
    `CREATE TABLE project_role (
      project_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (project_id, user_id)
    )`,

    `CREATE SEQUENCE branch_id_seq`,
    `CREATE TABLE branch (
      id INTEGER PRIMARY KEY DEFAULT nextval('branch_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      slug TEXT NOT NULL,
      head_id INTEGER,
      archived BOOLEAN NOT NULL DEFAULT false,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      UNIQUE (project_id, slug),
      UNIQUE (project_id, name)
    )`,
    `CREATE SEQUENCE head_id_seq`,
    `CREATE TABLE head (
      id INTEGER PRIMARY KEY DEFAULT nextval('head_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      branch_id INTEGER NOT NULL,
      start_point_branch_id INTEGER,
      start_point_head_id INTEGER,
      start_point_version_id INTEGER,
      max_versions INTEGER,
      created TIMESTAMPTZ NOT NULL,
      replaced TIMESTAMPTZ
    )`,
    `CREATE INDEX head_branch ON head (branch_id)`,
    `CREATE SEQUENCE version_id_seq`,
    `CREATE TABLE version (
      id INTEGER PRIMARY KEY DEFAULT nextval('version_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      number INTEGER NOT NULL,
      hash TEXT,
      created TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX version_project ON version (project_id)`,
    `CREATE TABLE head_version (
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      PRIMARY KEY (head_id, version_id)
    )`,
    `CREATE INDEX head_version_version ON head_version (version_id)`,

    ...named('testbed'),
    ...named('benchmark'),
    ...named('measure', '\n    units TEXT NOT NULL,'),
    `CREATE SEQUENCE series_id_seq`,
    `CREATE TABLE series (
      id INTEGER PRIMARY KEY DEFAULT nextval('series_id_seq'),
      project_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      benchmark_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      UNIQUE (testbed_id, benchmark_id, measure_id)
    )`,
    `CREATE INDEX series_project ON series (project_id)`,
    `CREATE INDEX series_benchmark ON series (benchmark_id)`,
    `CREATE INDEX series_measure ON series (measure_id)`,

    `CREATE SEQUENCE threshold_id_seq`,
    `CREATE TABLE threshold (
      id INTEGER PRIMARY KEY DEFAULT nextval('threshold_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      branch_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      model_id INTEGER,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL,
      UNIQUE (branch_id, testbed_id, measure_id)
    )`,
    `CREATE INDEX threshold_project ON threshold (project_id)`,
    `CREATE SEQUENCE model_id_seq`,
    `CREATE TABLE model (
      id INTEGER PRIMARY KEY DEFAULT nextval('model_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      threshold_id INTEGER NOT NULL,
      test TEXT NOT NULL,
      min_sample_size INTEGER,
      max_sample_size INTEGER,
      window_seconds BIGINT,
      lower_boundary DOUBLE PRECISION,
      upper_boundary DOUBLE PRECISION,
      created TIMESTAMPTZ NOT NULL,
      replaced TIMESTAMPTZ
    )`,
    `CREATE INDEX model_threshold ON model (threshold_id)`,

    `CREATE SEQUENCE report_id_seq`,
    `CREATE TABLE report (
      id INTEGER PRIMARY KEY DEFAULT nextval('report_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      branch_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      adapter TEXT NOT NULL,
      idempotency_key UUID,
      start_time TIMESTAMPTZ NOT NULL,
      end_time TIMESTAMPTZ NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      UNIQUE (project_id, idempotency_key)
    )`,
    `CREATE INDEX report_project_start ON report (project_id, start_time)`,
    `CREATE INDEX report_branch ON report (branch_id)`,
    `CREATE INDEX report_testbed ON report (testbed_id)`,
    `CREATE INDEX report_version ON report (version_id)`,
    // the embedded engine hands out metric ids from an in-process counter; here every process draws from this
    `CREATE SEQUENCE metric_id_seq`,
    `CREATE TABLE metric (
      id BIGINT PRIMARY KEY,
      uuid UUID NOT NULL,
      project_id INTEGER NOT NULL,
      report_id INTEGER NOT NULL,
      iteration INTEGER NOT NULL,
      series_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      start_time TIMESTAMPTZ NOT NULL,
      end_time TIMESTAMPTZ NOT NULL,
      value DOUBLE PRECISION NOT NULL,
      lower_value DOUBLE PRECISION,
      upper_value DOUBLE PRECISION,
      threshold_id INTEGER,
      model_id INTEGER,
      baseline DOUBLE PRECISION,
      lower_limit DOUBLE PRECISION,
      upper_limit DOUBLE PRECISION
    )`,
    `CREATE INDEX metric_series_time ON metric (series_id, start_time, report_id, iteration)`,
    `CREATE INDEX metric_report ON metric (report_id)`,
    `CREATE INDEX metric_project_uuid ON metric (project_id, uuid)`,
    `CREATE SEQUENCE alert_id_seq`,
    `CREATE TABLE alert (
      id INTEGER PRIMARY KEY DEFAULT nextval('alert_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      report_id INTEGER NOT NULL,
      metric_id BIGINT NOT NULL,
      head_id INTEGER NOT NULL,
      threshold_id INTEGER NOT NULL,
      model_id INTEGER NOT NULL,
      boundary_limit TEXT NOT NULL,
      status TEXT NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX alert_project_status ON alert (project_id, status)`,
    `CREATE INDEX alert_report ON alert (report_id)`,
    `CREATE INDEX alert_metric ON alert (metric_id)`,
    `CREATE INDEX alert_threshold ON alert (threshold_id)`,

    `CREATE SEQUENCE plot_id_seq`,
    `CREATE TABLE plot (
      id INTEGER PRIMARY KEY DEFAULT nextval('plot_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      rank INTEGER NOT NULL,
      title TEXT,
      lower_value BOOLEAN NOT NULL,
      upper_value BOOLEAN NOT NULL,
      lower_boundary BOOLEAN NOT NULL,
      upper_boundary BOOLEAN NOT NULL,
      x_axis TEXT NOT NULL,
      y_axis TEXT NOT NULL,
      window_seconds BIGINT NOT NULL,
      branch_ids INTEGER[] NOT NULL,
      testbed_ids INTEGER[] NOT NULL,
      benchmark_ids INTEGER[] NOT NULL,
      measure_ids INTEGER[] NOT NULL,
      created TIMESTAMPTZ NOT NULL,
      modified TIMESTAMPTZ NOT NULL
    )`,
  ],
};
