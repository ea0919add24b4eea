/** One forward-only schema change. Its statements run in one transaction with its bookkeeping row. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/** The DDL the engines write differently. */
export interface Ddl {
  /** The type of timestamp columns (times are UTC). */
  readonly timestamp: string;
  /** B-tree indexes on the keys lookups, lists and deletes filter on; none for an engine scanning by zone maps. */
  readonly indexes: boolean;
  /** The statements that make the metric fact table and hand out its ids. */
  readonly metric: (columns: string) => string[];
  /** A timestamp column's UTC day as a date. */
  utcDate(column: string): string;
}

/** A table's CREATE statement with `columns` first after its opening parenthesis. */
const prepend = (create: string, columns: string) => create.replace('(\n', `(\n${columns}\n`);

/** A table whose rows have an id from the sequence `<table>_id_seq` (made before it): `create` without the id. */
const withId = (create: string) => {
  const sequence = `${/^CREATE TABLE (\w+)/.exec(create)?.[1]}_id_seq`;
  return [
    `CREATE SEQUENCE ${sequence}`,
    prepend(create, `id INTEGER PRIMARY KEY DEFAULT nextval('${sequence}'),`),
  ];
};

/** A table whose rows have an id from the table's own sequence and a UUID: `create` without the two. */
const entity = (create: string) => withId(prepend(create, 'uuid UUID NOT NULL UNIQUE,'));

/** A dimension of a project: named, with a slug, archivable (branch, testbed, benchmark, measure). */
const named = (times: string, table: string, extra = '') =>
  entity(`CREATE TABLE ${table} (
    project_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,${extra}
    archived BOOLEAN NOT NULL DEFAULT false,
    ${times},
    UNIQUE (project_id, slug),
    UNIQUE (project_id, name)
  )`);

/**
 * Every migration, in version order: the same tables, columns and sequence names on every engine, so data moves
 * between engines one to one. Append only: a released migration never changes.
 *
 * Repositories keep integrity between tables, not FOREIGN KEYs (DuckDB cannot cascade and rejects updates of
 * referenced rows); UNIQUE constraints hold naming rules, series and idempotency keys against concurrent writers.
 * `metric`, the fact table, carries every key history and perf filter on, so they read no report table.
 */
export function migrations(ddl: Ddl): Migration[] {
  const t = ddl.timestamp;
  const times = `created ${t} NOT NULL, modified ${t} NOT NULL`;
  const index = (...statements: string[]) => (ddl.indexes ? statements : []);
  return [
    {
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
      ${times}
    )`,

        ...entity(`CREATE TABLE api_token (
      user_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      creation ${t} NOT NULL,
      expiration ${t} NOT NULL,
      revoked ${t}
    )`),
        ...index(`CREATE INDEX api_token_user ON api_token (user_id)`),

        ...entity(`CREATE TABLE organization (
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      personal_user_id INTEGER,
      claimed ${t},
      license TEXT,
      ${times}
    )`),
        `CREATE TABLE organization_role (
      organization_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      ${times},
      PRIMARY KEY (organization_id, user_id)
    )`,
        ...index(`CREATE INDEX organization_role_user ON organization_role (user_id)`),
        ...entity(`CREATE TABLE invitation (
      organization_id INTEGER NOT NULL,
      email TEXT NOT NULL,
      role TEXT NOT NULL,
      invited_by INTEGER NOT NULL,
      created ${t} NOT NULL,
      expiration ${t} NOT NULL,
      accepted ${t}
    )`),

        ...entity(`CREATE TABLE project (
      organization_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      url TEXT,
      visibility TEXT NOT NULL,
      ${times},
      UNIQUE (organization_id, name)
    )`),
        `CREATE TABLE project_role (
      project_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      ${times},
      PRIMARY KEY (project_id, user_id)
    )`,

        ...named(times, 'branch', '\n    head_id INTEGER,'),
        ...entity(`CREATE TABLE head (
      branch_id INTEGER NOT NULL,
      start_point_branch_id INTEGER,
      start_point_head_id INTEGER,
      start_point_version_id INTEGER,
      max_versions INTEGER,
      created ${t} NOT NULL,
      replaced ${t}
    )`),
        ...index(`CREATE INDEX head_branch ON head (branch_id)`),
        ...entity(`CREATE TABLE version (
      project_id INTEGER NOT NULL,
      number INTEGER NOT NULL,
      hash TEXT,
      created ${t} NOT NULL
    )`),
        ...index(`CREATE INDEX version_project ON version (project_id)`),
        `CREATE TABLE head_version (
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      PRIMARY KEY (head_id, version_id)
    )`,
        ...index(`CREATE INDEX head_version_version ON head_version (version_id)`),

        ...named(times, 'testbed'),
        ...named(times, 'benchmark'),
        ...named(times, 'measure', '\n    units TEXT NOT NULL,'),
        ...withId(`CREATE TABLE series (
      project_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      benchmark_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      UNIQUE (testbed_id, benchmark_id, measure_id)
    )`),
        ...index(`CREATE INDEX series_project ON series (project_id)`),
        ...index(`CREATE INDEX series_benchmark ON series (benchmark_id)`),
        ...index(`CREATE INDEX series_measure ON series (measure_id)`),

        ...entity(`CREATE TABLE threshold (
      project_id INTEGER NOT NULL,
      branch_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      measure_id INTEGER NOT NULL,
      model_id INTEGER,
      ${times},
      UNIQUE (branch_id, testbed_id, measure_id)
    )`),
        ...index(`CREATE INDEX threshold_project ON threshold (project_id)`),
        ...entity(`CREATE TABLE model (
      threshold_id INTEGER NOT NULL,
      test TEXT NOT NULL,
      min_sample_size INTEGER,
      max_sample_size INTEGER,
      window_seconds BIGINT,
      lower_boundary DOUBLE PRECISION,
      upper_boundary DOUBLE PRECISION,
      created ${t} NOT NULL,
      replaced ${t}
    )`),
        ...index(`CREATE INDEX model_threshold ON model (threshold_id)`),

        ...entity(`CREATE TABLE report (
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      branch_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      testbed_id INTEGER NOT NULL,
      adapter TEXT NOT NULL,
      idempotency_key UUID,
      start_time ${t} NOT NULL,
      end_time ${t} NOT NULL,
      created ${t} NOT NULL,
      UNIQUE (project_id, idempotency_key)
    )`),
        ...index(`CREATE INDEX report_project_start ON report (project_id, start_time)`),
        ...index(`CREATE INDEX report_branch ON report (branch_id)`),
        ...index(`CREATE INDEX report_testbed ON report (testbed_id)`),
        ...index(`CREATE INDEX report_version ON report (version_id)`),
        ...ddl.metric(`uuid UUID NOT NULL,
      project_id INTEGER NOT NULL,
      report_id INTEGER NOT NULL,
      iteration INTEGER NOT NULL,
      series_id INTEGER NOT NULL,
      head_id INTEGER NOT NULL,
      version_id INTEGER NOT NULL,
      start_time ${t} NOT NULL,
      end_time ${t} NOT NULL,
      value DOUBLE PRECISION NOT NULL,
      lower_value DOUBLE PRECISION,
      upper_value DOUBLE PRECISION,
      threshold_id INTEGER,
      model_id INTEGER,
      baseline DOUBLE PRECISION,
      lower_limit DOUBLE PRECISION,
      upper_limit DOUBLE PRECISION`),
        ...index(`CREATE INDEX metric_series_time ON metric (series_id, start_time, report_id, iteration)`),
        ...index(`CREATE INDEX metric_report ON metric (report_id)`),
        ...index(`CREATE INDEX metric_project_uuid ON metric (project_id, uuid)`),
        ...entity(`CREATE TABLE alert (
      project_id INTEGER NOT NULL,
      report_id INTEGER NOT NULL,
      metric_id BIGINT NOT NULL,
      head_id INTEGER NOT NULL,
      threshold_id INTEGER NOT NULL,
      model_id INTEGER NOT NULL,
      boundary_limit TEXT NOT NULL,
      status TEXT NOT NULL,
      ${times}
    )`),
        ...index(`CREATE INDEX alert_project_status ON alert (project_id, status)`),
        ...index(`CREATE INDEX alert_report ON alert (report_id)`),
        ...index(`CREATE INDEX alert_metric ON alert (metric_id)`),
        ...index(`CREATE INDEX alert_threshold ON alert (threshold_id)`),

        ...entity(`CREATE TABLE plot (
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
      ${times}
    )`),
      ],
    },
    {
      version: 2,
      name: 'change-point alerts',
      // what a change-point detector measured, kept on its alert (NULL on other alerts)
      statements: [
        `ALTER TABLE alert ADD COLUMN change_before DOUBLE PRECISION`,
        `ALTER TABLE alert ADD COLUMN change_after DOUBLE PRECISION`,
        `ALTER TABLE alert ADD COLUMN change_p_value DOUBLE PRECISION`,
      ],
    },
    {
      version: 3,
      name: 'usage and stats',
      // metrics per organization and UTC day (filled from the metrics stored), and daily statistics snapshots
      statements: [
        `CREATE TABLE organization_usage (
      organization_id INTEGER NOT NULL,
      day DATE NOT NULL,
      metrics BIGINT NOT NULL,
      PRIMARY KEY (organization_id, day)
    )`,
        `INSERT INTO organization_usage
      SELECT p.organization_id, ${ddl.utcDate('r.created')}, count(*)
      FROM metric m JOIN report r ON r.id = m.report_id JOIN project p ON p.id = r.project_id
      GROUP BY 1, 2`,
        `CREATE TABLE stats_snapshot (day DATE PRIMARY KEY, stats TEXT NOT NULL)`,
      ],
    },
    {
      version: 4,
      name: 'usage entries',
      // one row per report, so reports of one organization from several processes never update the same row;
      // compaction folds past days into one row per organization and day
      statements: [
        `CREATE SEQUENCE usage_entry_id_seq`,
        `CREATE TABLE usage_entry (
      id BIGINT PRIMARY KEY DEFAULT nextval('usage_entry_id_seq'),
      organization_id INTEGER NOT NULL,
      day DATE NOT NULL,
      metrics BIGINT NOT NULL
    )`,
        ...index(`CREATE INDEX usage_entry_organization_day ON usage_entry (organization_id, day)`),
        `INSERT INTO usage_entry (organization_id, day, metrics)
      SELECT organization_id, day, metrics FROM organization_usage ORDER BY day, organization_id`,
        `DROP TABLE organization_usage`,
      ],
    },
    {
      version: 5,
      name: 'regressions',
      // one row per change on a branch and testbed, its series, alerts and status history; a measure's direction
      statements: [
        `ALTER TABLE measure ADD COLUMN direction TEXT`,
        ...entity(`CREATE TABLE regression (
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
      ${times}
    )`),
        ...index(`CREATE INDEX regression_project_status ON regression (project_id, status)`),
        ...index(`CREATE INDEX regression_branch_testbed ON regression (branch_id, testbed_id)`),
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
      ${times},
      PRIMARY KEY (regression_id, series_id)
    )`,
        ...index(`CREATE INDEX regression_series_series ON regression_series (series_id)`),
        `CREATE TABLE regression_alert (
      alert_id INTEGER PRIMARY KEY,
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      series_id INTEGER NOT NULL
    )`,
        ...index(`CREATE INDEX regression_alert_regression ON regression_alert (regression_id)`),
        ...withId(`CREATE TABLE regression_event (
      regression_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      status TEXT NOT NULL,
      previous_status TEXT,
      changes TEXT,
      reason TEXT,
      created ${t} NOT NULL
    )`),
        ...index(`CREATE INDEX regression_event_regression ON regression_event (regression_id)`),
      ],
    },
    {
      version: 6,
      name: 'runners and jobs',
      // a job's log is kept in pieces, so a heartbeat appends a row instead of rewriting a growing text
      statements: [
        ...entity(`CREATE TABLE runner (
      organization_id INTEGER,
      name TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      key_hash TEXT NOT NULL UNIQUE,
      archived BOOLEAN NOT NULL DEFAULT false,
      last_seen ${t},
      ${times}
    )`),
        `CREATE TABLE runner_spec (
      runner_id INTEGER NOT NULL,
      spec TEXT NOT NULL,
      PRIMARY KEY (runner_id, spec)
    )`,
        ...entity(`CREATE TABLE job (
      project_id INTEGER NOT NULL,
      user_id INTEGER,
      spec TEXT NOT NULL,
      state TEXT NOT NULL,
      definition TEXT NOT NULL,
      timeout_seconds INTEGER NOT NULL,
      runner_id INTEGER,
      attempt INTEGER NOT NULL,
      lease_expires ${t},
      heartbeat ${t},
      reason TEXT,
      report_id INTEGER,
      log_bytes INTEGER NOT NULL,
      log_dropped INTEGER NOT NULL,
      ${times},
      started ${t},
      finished ${t}
    )`),
        ...index(`CREATE INDEX job_queue ON job (spec, created, id) WHERE state = 'queued'`),
        ...index(`CREATE INDEX job_running ON job (runner_id) WHERE state = 'running'`),
        ...index(`CREATE INDEX job_project ON job (project_id, id)`),
        ...index(`CREATE INDEX job_report ON job (report_id)`),
        ...withId(`CREATE TABLE job_log (
      job_id INTEGER NOT NULL,
      attempt INTEGER NOT NULL,
      text TEXT NOT NULL,
      created ${t} NOT NULL
    )`),
        ...index(`CREATE INDEX job_log_job ON job_log (job_id, id)`),
      ],
    },
    {
      version: 7,
      name: 'notifications',
      // Webhooks, the outbox (written in the transaction of the change it tells), deliveries with every attempt,
      // and e-mail choices; partial indexes keep the delivery loop's reads small whatever the history.
      statements: [
        ...entity(`CREATE TABLE webhook (
      project_id INTEGER NOT NULL,
      url TEXT NOT NULL,
      secret TEXT,
      format TEXT NOT NULL,
      events TEXT NOT NULL,
      user_id INTEGER,
      ${times}
    )`),
        ...index(`CREATE INDEX webhook_project ON webhook (project_id)`),
        ...entity(`CREATE TABLE notification (
      project_id INTEGER NOT NULL,
      event TEXT NOT NULL,
      regression_id INTEGER,
      report_id INTEGER,
      webhook_id INTEGER,
      payload TEXT,
      fanned BOOLEAN NOT NULL,
      created ${t} NOT NULL
    )`),
        ...index(`CREATE INDEX notification_new ON notification (id) WHERE NOT fanned`),
        ...index(`CREATE INDEX notification_project ON notification (project_id, created)`),
        ...entity(`CREATE TABLE notification_delivery (
      notification_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      webhook_id INTEGER,
      user_id INTEGER,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_attempt ${t},
      status INTEGER,
      error TEXT,
      ${times},
      finished ${t}
    )`),
        ...index(
          `CREATE INDEX notification_delivery_due ON notification_delivery (next_attempt, id) WHERE state = 'pending'`,
        ),
        ...index(`CREATE INDEX notification_delivery_webhook ON notification_delivery (webhook_id, id)`),
        ...index(
          `CREATE INDEX notification_delivery_notification ON notification_delivery (notification_id)`,
        ),
        ...withId(`CREATE TABLE notification_attempt (
      delivery_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      status INTEGER,
      duration_ms INTEGER NOT NULL,
      error TEXT,
      response TEXT,
      created ${t} NOT NULL
    )`),
        ...index(`CREATE INDEX notification_attempt_delivery ON notification_attempt (delivery_id, id)`),
        `CREATE TABLE notification_preference (
      user_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL,
      email TEXT NOT NULL,
      ${times},
      PRIMARY KEY (user_id, project_id)
    )`,
      ],
    },
  ];
}

let tables: Map<string, string[]> | undefined;

/**
 * The columns of `table` in the newest schema, in order, read from the migrations' statements: the table helpers
 * check filters, sorts and inserts against them, and the DDL stays the one place that names a column.
 */
export function columnsOf(table: string): readonly string[] {
  if (!tables) {
    tables = new Map();
    const ddl: Ddl = { timestamp: 'TIMESTAMP', indexes: false, metric: () => [], utcDate: (c) => c };
    for (const statement of migrations(ddl).flatMap((migration) => migration.statements)) {
      const [, created, body] = /^CREATE TABLE (\w+) \(([\s\S]*)\)$/.exec(statement) ?? [];
      // the body without parenthesized parts (constraints' column lists, defaults' calls), so commas split columns
      const items = body?.replace(/\([^()]*\)/g, '').split(',') ?? [];
      const names = items.map((item) => item.trim().split(/\s/)[0] as string);
      const defined = names.filter((name) => name !== 'UNIQUE' && name !== 'PRIMARY');
      if (created) tables.set(created, defined);
      const [, altered, added] = /^ALTER TABLE (\w+) ADD COLUMN (\w+)/.exec(statement) ?? [];
      if (altered && added) tables.get(altered)?.push(added);
      const [, dropped] = /^DROP TABLE (\w+)/.exec(statement) ?? [];
      if (dropped) tables.delete(dropped);
    }
  }
  const columns = tables.get(table);
  if (!columns) throw new Error(`the schema has no table ${table}`);
  return columns;
}
