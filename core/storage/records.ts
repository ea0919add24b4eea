/**
 * Rows as storage returns them: integer `id`s join tables inside the database; `uuid`s are what the API shows.
 * Field names follow the columns (and the wire format), hence snake_case.
 */

export type OrganizationRole = 'leader' | 'member';
export type Visibility = 'public' | 'private';

export interface UserRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly slug: string;
  /** Stored lower-cased. */
  readonly email: string;
  readonly admin: boolean;
  readonly locked: boolean;
  readonly created: Date;
  readonly modified: Date;
}

export interface ApiTokenRecord {
  readonly id: number;
  readonly uuid: string;
  readonly user_id: number;
  readonly name: string;
  /** SHA-256 (hex) of the token; the token itself is shown once and never stored. */
  readonly token_hash: string;
  readonly creation: Date;
  readonly expiration: Date;
  readonly revoked: Date | null;
}

export interface OrganizationRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly slug: string;
  /** Set for the personal organization created at sign-up. */
  readonly personal_user_id: number | null;
  /** `null` for an organization created by an anonymous run that nobody has claimed yet. */
  readonly claimed: Date | null;
  readonly license: string | null;
  readonly created: Date;
  readonly modified: Date;
}

export interface OrganizationRoleRecord {
  readonly organization_id: number;
  readonly user_id: number;
  readonly role: OrganizationRole;
  readonly created: Date;
  readonly modified: Date;
}

export interface InvitationRecord {
  readonly id: number;
  readonly uuid: string;
  readonly organization_id: number;
  readonly email: string;
  readonly role: OrganizationRole;
  readonly invited_by: number;
  readonly created: Date;
  readonly expiration: Date;
  readonly accepted: Date | null;
}

export interface ProjectRecord {
  readonly id: number;
  readonly uuid: string;
  readonly organization_id: number;
  readonly name: string;
  readonly slug: string;
  readonly url: string | null;
  readonly visibility: Visibility;
  readonly created: Date;
  readonly modified: Date;
}

/** A member of an organization: the user and the role. */
export interface MemberRecord extends UserRecord {
  readonly role: OrganizationRole;
  readonly role_created: Date;
  readonly role_modified: Date;
}

/** Insert shape: everything but the generated id. */
export type New<R extends { id: number }> = Omit<R, 'id'>;

export interface BranchRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly name: string;
  readonly slug: string;
  /** The current head; set right after the branch's first head is created. */
  readonly head_id: number | null;
  readonly archived: boolean;
  readonly created: Date;
  readonly modified: Date;
}

/** One line of history of a branch. A new start point (or a reset) replaces the head. */
export interface HeadRecord {
  readonly id: number;
  readonly uuid: string;
  readonly branch_id: number;
  readonly start_point_branch_id: number | null;
  readonly start_point_head_id: number | null;
  readonly start_point_version_id: number | null;
  readonly max_versions: number | null;
  readonly created: Date;
  readonly replaced: Date | null;
}

/** A point in a head's history: reports on the same head and git hash share a version. */
export interface VersionRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly number: number;
  readonly hash: string | null;
  readonly created: Date;
}

export interface HeadVersionRecord {
  readonly head_id: number;
  readonly version_id: number;
}

/** Testbeds and benchmarks share this shape. */
export interface DimensionRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly name: string;
  readonly slug: string;
  readonly archived: boolean;
  readonly created: Date;
  readonly modified: Date;
}

export type TestbedRecord = DimensionRecord;
export type BenchmarkRecord = DimensionRecord;

export interface MeasureRecord extends DimensionRecord {
  readonly units: string;
  /** Declared by the measure's owner; built-in measures fall back on their catalogue entry (core/regressions). */
  readonly direction: MeasureDirection | null;
}

/** One testbed x benchmark x measure: the key of the metric fact table. */
export interface SeriesRecord {
  readonly id: number;
  readonly project_id: number;
  readonly testbed_id: number;
  readonly benchmark_id: number;
  readonly measure_id: number;
}

export interface ThresholdRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly branch_id: number;
  readonly testbed_id: number;
  readonly measure_id: number;
  /** The current model; `null` when the model was removed (the threshold then raises nothing). */
  readonly model_id: number | null;
  readonly created: Date;
  readonly modified: Date;
}

/** Models are immutable: an update inserts a new one and stamps the old one `replaced`. */
export interface ModelRecord {
  readonly id: number;
  readonly uuid: string;
  readonly threshold_id: number;
  readonly test: string;
  readonly min_sample_size: number | null;
  readonly max_sample_size: number | null;
  readonly window_seconds: number | null;
  readonly lower_boundary: number | null;
  readonly upper_boundary: number | null;
  readonly created: Date;
  readonly replaced: Date | null;
}

export type AlertStatus = 'active' | 'dismissed' | 'silenced';

export interface AlertRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly report_id: number;
  readonly metric_id: bigint;
  readonly head_id: number;
  readonly threshold_id: number;
  readonly model_id: number;
  readonly boundary_limit: 'lower' | 'upper';
  readonly status: AlertStatus;
  /** A change-point alert: the means before and after the metric that starts the regime, and the p-value. */
  readonly change_before: number | null;
  readonly change_after: number | null;
  readonly change_p_value: number | null;
  readonly created: Date;
  readonly modified: Date;
}

/** Which way a measure gets better; `null` when it declares none (then the rules of core/regressions apply). */
export type MeasureDirection = 'lower_is_better' | 'higher_is_better';

export type RegressionKind = 'regression' | 'improvement';

/**
 * `suspected`: alerts raised it, the change-point detector has not confirmed it yet (it counts as open nowhere);
 * `untriaged`: a confirmed change nobody has triaged; then what people (or the service) decided.
 */
export type RegressionStatus = 'suspected' | 'untriaged' | 'acknowledged' | 'invalid' | 'fixed' | 'expected';

/** One change on a branch and testbed at one version: the series that moved there, triaged as one. */
export interface RegressionRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly branch_id: number;
  /** The branch's head when the change was found: versions are numbered per head. */
  readonly head_id: number;
  readonly testbed_id: number;
  readonly kind: RegressionKind;
  readonly status: RegressionStatus;
  /** The version before the change (null when the change is at the head's first version). */
  readonly last_good_version_id: number | null;
  /** The version of the first report at the new level. */
  readonly first_bad_version_id: number;
  /** The version whose reports are back at the old level (status fixed by the service), if any. */
  readonly fixed_version_id: number | null;
  readonly note: string | null;
  readonly issue_url: string | null;
  readonly assignee_id: number | null;
  /** Why the service changed the status itself (denied by later reports, reverted); null after a person's change. */
  readonly reason: string | null;
  readonly created: Date;
  readonly modified: Date;
}

/** A series of a regression: its levels before and after the change, as the alerts or the detector measured them. */
export interface RegressionSeriesRecord {
  readonly regression_id: number;
  readonly project_id: number;
  readonly series_id: number;
  readonly benchmark_id: number;
  readonly measure_id: number;
  /** `suspected` until the detector finds the change in this series (`confirmed`). */
  readonly state: 'suspected' | 'confirmed';
  readonly before_value: number;
  readonly after_value: number;
  /** The detector's p-value of the change, once confirmed. */
  readonly p_value: number | null;
  readonly created: Date;
  readonly modified: Date;
}

/** An alert that belongs to a regression (an alert belongs to at most one). */
export interface RegressionAlertRecord {
  readonly alert_id: number;
  readonly regression_id: number;
  readonly project_id: number;
  readonly series_id: number;
}

/** One change of a regression's status (or of its triage fields), by a person or by the service. */
export interface RegressionEventRecord {
  readonly id: number;
  readonly regression_id: number;
  readonly project_id: number;
  /** Null when the service made the change. */
  readonly user_id: number | null;
  readonly status: RegressionStatus;
  readonly previous_status: RegressionStatus | null;
  /** What else changed, as JSON text (`{"note": ..., "series_added": [...]}`), or null. */
  readonly changes: string | null;
  readonly reason: string | null;
  readonly created: Date;
}

/** The dimensions a report refers to and that can be archived, deleted, or looked up by name. */
export type DimensionKind = 'branch' | 'testbed' | 'benchmark' | 'measure';

/** What still refers to a dimension (a delete needs these gone, or an explicit cascade). */
export interface DimensionUsage {
  readonly reports: number;
  readonly metrics: number;
  readonly thresholds: number;
}

export interface ReportRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly user_id: number | null;
  readonly branch_id: number;
  readonly head_id: number;
  readonly version_id: number;
  readonly testbed_id: number;
  readonly adapter: string;
  readonly idempotency_key: string | null;
  readonly start_time: Date;
  readonly end_time: Date;
  readonly created: Date;
}

/** A stored metric with its series' benchmark and measure and the boundary it was tested against. */
export interface MetricRecord {
  readonly id: bigint;
  readonly uuid: string;
  readonly report_id: number;
  readonly iteration: number;
  readonly series_id: number;
  readonly benchmark_id: number;
  readonly measure_id: number;
  readonly value: number;
  readonly lower_value: number | null;
  readonly upper_value: number | null;
  readonly threshold_id: number | null;
  readonly model_id: number | null;
  readonly baseline: number | null;
  readonly lower_limit: number | null;
  readonly upper_limit: number | null;
}

/**
 * The metrics of one report, column by column (entry i of each array is metric i). Absent optional numbers
 * are NaN; absent ids are 0.
 */
export interface MetricColumns {
  readonly uuid: readonly string[];
  readonly iteration: Int32Array;
  readonly series: Int32Array;
  readonly value: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly threshold: Int32Array;
  readonly model: Int32Array;
  readonly baseline: Float64Array;
  readonly lowerLimit: Float64Array;
  readonly upperLimit: Float64Array;
}

/** What the history query needs per series: how many samples at most, and from when (epoch ms). */
export interface HistoryRequest {
  readonly headId: number;
  readonly series: Int32Array;
  /** At most 65,536 (the service bounds what a test reads), so one query stays bounded. */
  readonly maxSamples: Int32Array;
  /** Epoch milliseconds; -Infinity for no window. */
  readonly since: Float64Array;
}

/** Samples of each requested series, newest first: series i is `values[offsets[i] .. offsets[i + 1])`. */
export interface HistoryColumns {
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
  /** The id of each value's metric (a change point is alerted on the metric that starts it). */
  readonly ids: BigInt64Array;
}

/** The permutations of a perf query: position i is one branch head x series (testbed x benchmark x measure). */
export interface PerfRequest {
  readonly series: Int32Array;
  readonly heads: Int32Array;
  /** Epoch milliseconds; reports that started at or after it. */
  readonly start?: number | undefined;
  /** Epoch milliseconds; reports that ended at or before it. */
  readonly end?: number | undefined;
  /** At most this many points (the first ones in answer order); all of them when absent. */
  readonly limit?: number | undefined;
  /**
   * The most points an answer may hold: a selection of more is answered with none, and the engine stops reading
   * it one past the cap, neither ordering it nor joining it to reports and alerts. Empty answers of a capped
   * request are told apart with `perfCount({ ...request, limit: 1 })` (0: the selection is empty).
   */
  readonly cap?: number | undefined;
  /**
   * `false`: the answer's metric UUIDs (`PerfColumns.uuid`) are left zero, so the engine need not read them
   * (a fifth of DuckDB's perf statement; the explorer's plot answer has no use for them). Default true.
   */
  readonly metricUuids?: boolean | undefined;
}

/**
 * The points of a perf query, column by column, ordered by permutation, then version number, report start time
 * and iteration. Absent numbers are NaN, absent ids 0, absent strings null. Report and metric UUIDs come as four
 * 32-bit words per point (word k of point i at `k * count + i`, see `uuidAt`): storage copies them in bulk, and
 * only the shaper, off the main thread for large answers, turns them into text.
 */
export interface PerfColumns {
  readonly count: number;
  readonly permutation: Int32Array;
  readonly report: Uint32Array;
  readonly iteration: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly version: Int32Array;
  readonly hash: (string | null)[];
  readonly uuid: Uint32Array;
  readonly value: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly threshold: Int32Array;
  readonly model: Int32Array;
  readonly baseline: Float64Array;
  readonly lowerLimit: Float64Array;
  readonly upperLimit: Float64Array;
  readonly alert: (string | null)[];
  readonly alertLimit: (string | null)[];
  readonly alertStatus: (string | null)[];
  readonly alertModified: Float64Array;
}

/**
 * What a perf image draws of a perf query's points, in the same order as `PerfColumns` (permutation, version
 * number, report start time, iteration), and no more: no UUIDs, hashes, threshold or alert details, so an engine
 * can read it without joining the report and alert tables' texts. Absent limits are NaN.
 */
export interface PerfLines {
  readonly count: number;
  readonly permutation: Int32Array;
  /** Report start, epoch milliseconds (the x of `date_time` plots). */
  readonly start: Float64Array;
  /** Version number (the x of `version` plots). */
  readonly version: Int32Array;
  readonly value: Float64Array;
  readonly lowerLimit: Float64Array;
  readonly upperLimit: Float64Array;
  /** The threshold's baseline for the metric, NaN where none (the legend's change from the baseline). */
  readonly baseline: Float64Array;
  /** 1 where an alert (of any status) was raised on the metric, 0 elsewhere. */
  readonly alert: Uint8Array;
}

/** A perf plot pinned to a project's dashboard; dimensions are kept as ids, ordered as chosen. */
export interface PlotRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly rank: number;
  readonly title: string | null;
  readonly lower_value: boolean;
  readonly upper_value: boolean;
  readonly lower_boundary: boolean;
  readonly upper_boundary: boolean;
  readonly x_axis: 'date_time' | 'version';
  readonly y_axis: 'auto' | 'linear' | 'log';
  readonly window_seconds: number | bigint;
  readonly branch_ids: readonly number[];
  readonly testbed_ids: readonly number[];
  readonly benchmark_ids: readonly number[];
  readonly measure_ids: readonly number[];
  readonly created: Date;
  readonly modified: Date;
}

/**
 * A machine that runs benchmark jobs for the specs it serves: server-wide (`organization_id` null, made by a
 * server administrator) or for one organization's projects (made by a leader of it).
 */
export interface RunnerRecord {
  readonly id: number;
  readonly uuid: string;
  /** `null`: the runner serves every organization. */
  readonly organization_id: number | null;
  readonly name: string;
  readonly slug: string;
  /** SHA-256 (hex) of the runner's key; the key itself is shown once and never stored. */
  readonly key_hash: string;
  readonly archived: boolean;
  /** When the runner last asked for a job or sent a heartbeat. */
  readonly last_seen: Date | null;
  readonly created: Date;
  readonly modified: Date;
}

/** One spec a runner serves: jobs queued for that spec may run on it. */
export interface RunnerSpecRecord {
  readonly runner_id: number;
  readonly spec: string;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled' | 'timed_out';

/**
 * A benchmark run queued for a spec. A runner holds it under a lease (`runner_id`, `attempt`, `lease_expires`)
 * that its heartbeats extend; a lease that expires returns the job to the queue.
 */
export interface JobRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  /** Who queued it; the report is theirs. */
  readonly user_id: number | null;
  readonly spec: string;
  readonly state: JobState;
  /** What to run and how to report it, as JSON text (core/schemas/jobs.ts). */
  readonly definition: string;
  readonly timeout_seconds: number;
  /** The runner of the current attempt (running), or of the last one (finished); `null` while queued. */
  readonly runner_id: number | null;
  /** Attempts so far: each claim counts one. */
  readonly attempt: number;
  readonly lease_expires: Date | null;
  /** The last heartbeat of the current or last attempt. */
  readonly heartbeat: Date | null;
  /** Why the job failed, timed out or was canceled. */
  readonly reason: string | null;
  /** The report a successful job produced. */
  readonly report_id: number | null;
  /** Bytes of output kept in the job's log, and bytes dropped beyond its limit. */
  readonly log_bytes: number;
  readonly log_dropped: number;
  readonly created: Date;
  readonly modified: Date;
  /** When the current (or last) attempt began. */
  readonly started: Date | null;
  readonly finished: Date | null;
}

/** A piece of a job's output, in the order it arrived (`id` grows). */
export interface JobLogRecord {
  readonly id: number;
  readonly job_id: number;
  readonly attempt: number;
  readonly text: string;
  readonly created: Date;
}

/** What a webhook body looks like: Benchtrack's JSON, or the body of Slack's incoming webhooks. */
export type WebhookFormat = 'json' | 'slack';

/** A project's webhook: events of the project are posted to its URL. */
export interface WebhookRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  readonly url: string;
  /** The key of the body's signature; write-only on the wire. */
  readonly secret: string | null;
  readonly format: WebhookFormat;
  /** The events it is sent, comma-separated in the order of `NOTIFICATION_EVENTS`. */
  readonly events: string;
  /** Who created it. */
  readonly user_id: number | null;
  readonly created: Date;
  readonly modified: Date;
}

/**
 * One event of a project that people are told of (the outbox): written in the transaction that caused it, then
 * fanned out to a delivery per webhook or person who gets it. `payload` is the event's data as JSON text, frozen
 * when the deliveries are made, so every attempt of a delivery sends the same body.
 */
export interface NotificationRecord {
  readonly id: number;
  readonly uuid: string;
  readonly project_id: number;
  /** `regression.created`, `regression.updated`, `regression.closed`, `report.created`, `digest` or `ping`. */
  readonly event: string;
  readonly regression_id: number | null;
  readonly report_id: number | null;
  /** The one webhook a test delivery (`ping`) goes to. */
  readonly webhook_id: number | null;
  readonly payload: string | null;
  /** Its deliveries are made. */
  readonly fanned: boolean;
  readonly created: Date;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * One notification to one webhook (`webhook_id`) or one person's e-mail (`user_id`). While pending, it is due at
 * `next_attempt`; an attempt in progress holds it by moving `next_attempt` to the end of its lease, so a process
 * that dies mid-attempt leaves it due again once the lease ends.
 */
export interface DeliveryRecord {
  readonly id: number;
  readonly uuid: string;
  readonly notification_id: number;
  readonly project_id: number;
  readonly webhook_id: number | null;
  readonly user_id: number | null;
  readonly state: DeliveryState;
  /** Attempts since it was made or last redelivered; each claim counts one. */
  readonly attempts: number;
  readonly next_attempt: Date | null;
  /** The last answer's HTTP status, and the last error. */
  readonly status: number | null;
  readonly error: string | null;
  readonly created: Date;
  readonly modified: Date;
  /** When it was delivered or given up. */
  readonly finished: Date | null;
}

/** One attempt of a delivery: the answer's status and start, or the error, and how long it took. */
export interface DeliveryAttemptRecord {
  readonly id: number;
  readonly delivery_id: number;
  readonly project_id: number;
  readonly status: number | null;
  readonly duration_ms: number;
  readonly error: string | null;
  /** The first kilobyte of the answer's body. */
  readonly response: string | null;
  readonly created: Date;
}

/** How a person hears of a project's regressions by e-mail. */
export type EmailChoice = 'off' | 'each' | 'daily';

/** One person's e-mail choice for one project (no row: off). */
export interface NotificationPreferenceRecord {
  readonly user_id: number;
  readonly project_id: number;
  readonly email: EmailChoice;
  readonly created: Date;
  readonly modified: Date;
}
