import type { Migration } from '../migrate.js';

/**
 * The full data model of the spec's "Named resources".
 *
 * Integrity between tables is kept by the repositories inside write transactions rather than by FOREIGN KEY
 * constraints: DuckDB cannot cascade and rejects updates of rows that other tables reference, which would make
 * head replacement and archiving awkward. UNIQUE constraints do hold the naming rules.
 *
 * `metric` is the columnar fact table. It carries every key that history and perf queries filter on (series,
 * head, version, times, iteration) and the boundary computed when the metric was written, so those queries
 * are single scans with no joins over report tables. Times are UTC.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial data model',
  statements: [
    `CREATE TABLE server_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,

    `CREATE SEQUENCE user_id_seq`,
    `CREATE TABLE users (
      id INTEGER PRIMARY KEY DEFAULT nextval('user_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL UNIQUE,
      email VARCHAR NOT NULL UNIQUE,
      admin BOOLEAN NOT NULL DEFAULT false,
      locked BOOLEAN NOT NULL DEFAULT false,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,

    `CREATE SEQUENCE api_token_id_seq`,
    `CREATE TABLE api_token (
      id INTEGER PRIMARY KEY DEFAULT nextval('api_token_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      user_id INTEGER NOT NULL,
      name VARCHAR NOT NULL,
      token_hash VARCHAR NOT NULL UNIQUE,
      creation TIMESTAMP NOT NULL,
      expiration TIMESTAMP NOT NULL,
      revoked TIMESTAMP
    )`,

    `CREATE SEQUENCE organization_id_seq`,
    `CREATE TABLE organization (
      id INTEGER PRIMARY KEY DEFAULT nextval('organization_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL UNIQUE,
      personal_user_id INTEGER,
      claimed TIMESTAMP,
      license VARCHAR,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE organization_role (
      organization_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      PRIMARY KEY (organization_id, user_id)
    )`,
    `CREATE SEQUENCE invitation_id_seq`,
    `CREATE TABLE invitation (
      id INTEGER PRIMARY KEY DEFAULT nextval('invitation_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      organization_id INTEGER NOT NULL,
      email VARCHAR NOT NULL,
      role VARCHAR NOT NULL,
      invited_by INTEGER NOT NULL,
      created TIMESTAMP NOT NULL,
      expiration TIMESTAMP NOT NULL,
      accepted TIMESTAMP
    )`,

    `CREATE SEQUENCE project_id_seq`,
    `CREATE TABLE project (
      id INTEGER PRIMARY KEY DEFAULT nextval('project_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      organization_id INTEGER NOT NULL,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL UNIQUE,
      url VARCHAR,
      visibility VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      UNIQUE (organization_id, name)
    )`,
    `CREATE TABLE project_role (
      project_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      PRIMARY KEY (project_id, user_id)
    )`,

    `CREATE SEQUENCE branch_id_seq`,
    `CREATE TABLE branch (
      id INTEGER PRIMARY KEY DEFAULT nextval('branch_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL,
      head_id INTEGER,
      archived BOOLEAN NOT NULL DEFAULT false,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
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
      created TIMESTAMP NOT NULL,
      replaced TIMESTAMP
    )`,
    `CREATE SEQUENCE version_id_seq`,
    `CREATE TABLE version (
      id INTEGER PRIMARY KEY DEFAULT nextval('version_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      number INTEGER NOT NULL,
      hash VARCHAR,
      created TIMESTAMP NOT NULL
    )`,
    `CREATE TABLE head_version (
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      PRIMARY KEY (head_id, version_id)
    )`,

    ...['testbed', 'benchmark'].flatMap((table) => [
      `CREATE SEQUENCE ${table}_id_seq`,
      `CREATE TABLE ${table} (
        id INTEGER PRIMARY KEY DEFAULT nextval('${table}_id_seq'),
        uuid UUID NOT NULL UNIQUE,
        project_id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        slug VARCHAR NOT NULL,
        archived BOOLEAN NOT NULL DEFAULT false,
        created TIMESTAMP NOT NULL,
        modified TIMESTAMP NOT NULL,
        UNIQUE (project_id, slug),
        UNIQUE (project_id, name)
      )`,
    ]),
    `CREATE SEQUENCE measure_id_seq`,
    `CREATE TABLE measure (
      id INTEGER PRIMARY KEY DEFAULT nextval('measure_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      name VARCHAR NOT NULL,
      slug VARCHAR NOT NULL,
      units VARCHAR NOT NULL,
      archived BOOLEAN NOT NULL DEFAULT false,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      UNIQUE (project_id, slug),
      UNIQUE (project_id, name)
    )`,
    `CREATE SEQUENCE series_id_seq`,
    `CREATE TABLE series (
      id INTEGER PRIMARY KEY DEFAULT nextval('series_id_seq'),
      project_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      benchmark_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      UNIQUE (testbed_id, benchmark_id, measure_id)
    )`,

    `CREATE SEQUENCE threshold_id_seq`,
    `CREATE TABLE threshold (
      id INTEGER PRIMARY KEY DEFAULT nextval('threshold_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      branch_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      model_id INTEGER,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL,
      UNIQUE (branch_id, testbed_id, measure_id)
    )`,
    `CREATE SEQUENCE model_id_seq`,
    `CREATE TABLE model (
      id INTEGER PRIMARY KEY DEFAULT nextval('model_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      threshold_id INTEGER NOT NULL,
      test VARCHAR NOT NULL,
      min_sample_size INTEGER,
      max_sample_size INTEGER,
      window_seconds BIGINT,
      lower_boundary DOUBLE,
      upper_boundary DOUBLE,
      created TIMESTAMP NOT NULL,
      replaced TIMESTAMP
    )`,

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
      adapter VARCHAR NOT NULL,
      idempotency_key UUID,
      start_time TIMESTAMP NOT NULL,
      end_time TIMESTAMP NOT NULL,
      created TIMESTAMP NOT NULL,
      UNIQUE (project_id, idempotency_key)
    )`,
    `CREATE TABLE metric (
      id BIGINT NOT NULL,
      uuid UUID NOT NULL,
      project_id INTEGER NOT NULL,
      report_id INTEGER NOT NULL,
      iteration INTEGER NOT NULL,
      series_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      start_time TIMESTAMP NOT NULL,
      end_time TIMESTAMP NOT NULL,
      value DOUBLE NOT NULL,
      lower_value DOUBLE,
      upper_value DOUBLE,
      threshold_id INTEGER,
      model_id INTEGER,
      baseline DOUBLE,
      lower_limit DOUBLE,
      upper_limit DOUBLE
    )`,
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
      boundary_limit VARCHAR NOT NULL,
      status VARCHAR NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,

    `CREATE SEQUENCE plot_id_seq`,
    `CREATE TABLE plot (
      id INTEGER PRIMARY KEY DEFAULT nextval('plot_id_seq'),
      uuid UUID NOT NULL UNIQUE,
      project_id INTEGER NOT NULL,
      rank INTEGER NOT NULL,
      title VARCHAR,
      lower_value BOOLEAN NOT NULL,
      upper_value BOOLEAN NOT NULL,
      lower_boundary BOOLEAN NOT NULL,
      upper_boundary BOOLEAN NOT NULL,
      x_axis VARCHAR NOT NULL,
      y_axis VARCHAR NOT NULL,
      window_seconds BIGINT NOT NULL,
      branch_ids INTEGER[] NOT NULL,
      testbed_ids INTEGER[] NOT NULL,
      benchmark_ids INTEGER[] NOT NULL,
      measure_ids INTEGER[] NOT NULL,
      created TIMESTAMP NOT NULL,
      modified TIMESTAMP NOT NULL
    )`,
  ],
};
