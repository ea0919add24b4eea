import type {
  AlertRecord,
  AlertStatus,
  ApiTokenRecord,
  BenchmarkRecord,
  BranchRecord,
  DimensionKind,
  DimensionRecord,
  HistoryColumns,
  HistoryRequest,
  MetricColumns,
  MetricRecord,
  PerfColumns,
  PerfLines,
  PerfRequest,
  PlotRecord,
  RegressionAlertRecord,
  RegressionEventRecord,
  RegressionKind,
  RegressionRecord,
  RegressionSeriesRecord,
  RegressionStatus,
  ReportRecord,
  DimensionUsage,
  HeadRecord,
  HeadVersionRecord,
  MeasureRecord,
  ModelRecord,
  SeriesRecord,
  TestbedRecord,
  ThresholdRecord,
  VersionRecord,
  InvitationRecord,
  JobLogRecord,
  JobRecord,
  MemberRecord,
  New,
  OrganizationRecord,
  OrganizationRoleRecord,
  ProjectRecord,
  RunnerRecord,
  RunnerSpecRecord,
  UserRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  NotificationPreferenceRecord,
  NotificationRecord,
  WebhookRecord,
} from './records.js';
import type { Direction, ListOptions, Page, TableReader, TableWriter, Where } from './tables.js';

/**
 * The storage contract: repository-level operations, never raw SQL. Each storage plugin (DuckDB embedded,
 * later PostgreSQL) implements it, and `describeStorageContract` (benchtrack/plugin-kit/testing) is the suite every
 * implementation passes.
 */

/** What an engine can do, so callers branch on capabilities, never on "is this DuckDB?". */
export interface StorageCapabilities {
  /** Only one write transaction may run at a time; the storage serializes them itself. */
  readonly singleWriter: boolean;
  /** History and perf queries return columnar typed arrays. */
  readonly columnarReads: boolean;
  /**
   * This process is the only one that writes the database (DuckDB: the file is locked to one process). Only
   * then may the engine keep stored data in process memory between transactions (DuckDB keeps the newest
   * values of the series ingest tests); an engine shared by several API processes sets it false.
   */
  readonly exclusive: boolean;
  /**
   * Reads with `replica: true` may go to a read replica (one is configured). Absent or false: every read sees
   * every committed write, so a caller need not check a replica's answer against the primary.
   */
  readonly readReplicas?: boolean;
}

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

/** Server-wide key/value settings kept in the database (server identity, first-run markers). */
export interface MetaReader {
  get(key: string): Promise<string | undefined>;
}

export interface MetaWriter extends MetaReader {
  set(key: string, value: string): Promise<void>;
}

export interface Viewer {
  /** `null` for an anonymous caller. */
  readonly userId: number | null;
  /** Server administrators see everything. */
  readonly admin: boolean;
}

export interface OrganizationsReader extends TableReader<OrganizationRecord> {
  /** Organizations the user is a member of. */
  listForUser(
    userId: number,
    where: Where<OrganizationRecord>,
    options: ListOptions<OrganizationRecord>,
  ): Promise<Page<OrganizationRecord>>;
  /** Members of an organization with their roles. */
  members(organizationId: number, options: ListOptions<MemberRecord>): Promise<Page<MemberRecord>>;
  /** Organizations that hold a license (valid or not), in id order. */
  licensed(): Promise<OrganizationRecord[]>;
}

export interface ProjectsReader extends TableReader<ProjectRecord> {
  /** Public projects plus those of the viewer's organizations (every project for administrators). */
  listVisible(
    viewer: Viewer,
    where: Where<ProjectRecord>,
    options: ListOptions<ProjectRecord>,
  ): Promise<Page<ProjectRecord>>;
  /**
   * The activity of each of these projects (every one has an entry), in a few grouped reads for a page of them:
   * days counted from `since` on, regressions in `regressionStatuses`.
   */
  activity(
    projectIds: readonly number[],
    options: { since: Date; regressionStatuses: readonly RegressionStatus[] },
  ): Promise<Map<number, ProjectActivity>>;
}

export interface ProjectsWriter extends ProjectsReader, TableWriter<ProjectRecord, New<ProjectRecord>> {
  /**
   * Deletes a project and every row that belongs to it (dimensions, reports, metrics, alerts, plots, jobs,
   * webhooks, notifications, ...).
   */
  deleteWithData(projectId: number): Promise<void>;
}

export interface HeadsReader extends TableReader<HeadRecord> {
  /** The highest-numbered version in the head's history (its own and those linked from a start point). */
  latestVersion(headId: number): Promise<VersionRecord | undefined>;
  /** The version of a git hash in the head's history. */
  versionByHash(headId: number, hash: string): Promise<VersionRecord | undefined>;
  /** Ids of the head's versions numbered at most `upTo`, newest first, at most `limit`. */
  versionIds(headId: number, upTo: number, limit: number): Promise<number[]>;
}

export interface DimensionsReader {
  usage(kind: DimensionKind, id: number): Promise<DimensionUsage>;
}

export interface DimensionsWriter extends DimensionsReader {
  /** Deletes a dimension and everything that refers to it (reports, metrics, alerts, thresholds, plot references). */
  deleteWithData(kind: DimensionKind, id: number): Promise<void>;
}

export interface ReportFilter {
  readonly project_id: number;
  readonly branch_id?: number | undefined;
  readonly testbed_id?: number | undefined;
  /** Reports that started at or after this. */
  readonly from?: Date | undefined;
  /** Reports that ended at or before this. */
  readonly to?: Date | undefined;
  /** Reports on an archived branch or testbed (true), or on neither (false). */
  readonly archived: boolean;
}

/** Per report and iteration: how many benchmarks and metrics; per report: alerts (active and all). */
export interface ReportSummary {
  readonly report_id: number;
  readonly iterations: readonly { readonly benchmarks: number; readonly measures: number }[];
  readonly alerts: { readonly active: number; readonly total: number };
}

/** What a project's card in a list shows: its newest report, reports per day, what needs triage. */
export interface ProjectActivity {
  /** Start of the project's newest report; null without reports. */
  readonly last: Date | null;
  /** Reports per UTC day (`YYYY-MM-DD`) since the moment asked for, oldest first; days without a report left out. */
  readonly days: readonly { readonly day: string; readonly reports: number }[];
  /** Active alerts. */
  readonly alerts: number;
  /** Regressions in the statuses asked for. */
  readonly regressions: number;
}

/** What a list of alerts is narrowed to; every given filter must hold. */
export interface AlertFilter {
  readonly project_id: number;
  readonly status?: AlertStatus | undefined;
  /** The branch, testbed and measure of the alert's threshold. */
  readonly branch_id?: number | undefined;
  readonly testbed_id?: number | undefined;
  readonly measure_id?: number | undefined;
  /** The benchmark of the alerted metric's series. */
  readonly benchmark_id?: number | undefined;
}

export interface AlertsReader extends TableReader<AlertRecord> {
  /** A project's alerts, filtered: active first, then most recently changed (sort by status), or by time. */
  listForProject(
    filter: AlertFilter,
    options: { page: number; perPage: number; sort: 'status' | 'created' | 'modified'; direction: Direction },
  ): Promise<Page<AlertRecord>>;
  /** How many alerts the filter (its status aside) matches, by status (a status none has is absent). */
  countByStatus(filter: AlertFilter): Promise<Partial<Record<AlertStatus, number>>>;
  /** The ids of the alerts the filter matches. */
  idsMatching(filter: AlertFilter): Promise<number[]>;
}

/** What a list of regressions is narrowed to; every given filter must hold. */
export interface RegressionFilter {
  readonly project_id: number;
  readonly statuses?: readonly RegressionStatus[] | undefined;
  readonly kind?: RegressionKind | undefined;
  readonly branch_id?: number | undefined;
  readonly testbed_id?: number | undefined;
  /** Regressions with a series of this benchmark (and of this measure, when both are given). */
  readonly benchmark_id?: number | undefined;
  readonly measure_id?: number | undefined;
  /** Regressions assigned to this user; `null`: to nobody. */
  readonly assignee_id?: number | null | undefined;
  /** Case-insensitive substring of the UUID, note, issue URL or the name of a benchmark of its series. */
  readonly search?: string | undefined;
}

export interface RegressionsReader extends TableReader<RegressionRecord> {
  /**
   * A project's regressions, filtered. Sorts: `status` (suspected and untriaged first, then acknowledged, then the
   * closed ones; newest first within each), `created`, `modified`, or `version` (the first bad version's number).
   */
  listFiltered(
    filter: RegressionFilter,
    options: {
      page: number;
      perPage: number;
      sort: 'status' | 'created' | 'modified' | 'version';
      direction: Direction;
    },
  ): Promise<Page<RegressionRecord>>;
  /** How many regressions the filter matches, by status (a status none has is absent). */
  countByStatus(filter: RegressionFilter): Promise<Partial<Record<RegressionStatus, number>>>;
}

/**
 * What one grouping of a report's alerts, one analysis or one person's change added to regressions: series, alerts
 * and history, written in this order (events in theirs, which is the history's).
 */
export interface RegressionWrites {
  /** The time of the change: the `modified` of every series written, the `created` of new ones and of events. */
  readonly now: Date;
  /** Series rows to insert, or to update (state, values) where the regression holds the series already. */
  readonly series: readonly Omit<RegressionSeriesRecord, 'created' | 'modified'>[];
  readonly alerts: readonly RegressionAlertRecord[];
  readonly events: readonly Omit<RegressionEventRecord, 'id' | 'created'>[];
}

export interface ReportsReader extends TableReader<ReportRecord> {
  /** Reports newest first (by start time) unless `direction` is asc. */
  listFiltered(
    filter: ReportFilter,
    options: { page: number; perPage: number; direction: Direction },
  ): Promise<Page<ReportRecord>>;
  summaries(reportIds: readonly number[]): Promise<Map<number, ReportSummary>>;
}

export interface MetricsReader {
  /** Every metric of these reports: by report id, then in iteration, benchmark, measure order. */
  byReports(reportIds: readonly number[]): Promise<MetricRecord[]>;
  byUuid(projectId: number, uuid: string): Promise<MetricRecord | undefined>;
  byIds(ids: readonly bigint[]): Promise<MetricRecord[]>;
  /**
   * ONE query for the history of many series on a head (its own versions and those linked from its start
   * point): per series, the newest `maxSamples` values whose report started at or after `since`, newest first.
   */
  history(request: HistoryRequest): Promise<HistoryColumns>;
  /** ONE query for every permutation of a perf query, columnar (see PerfColumns for the order). */
  perf(request: PerfRequest): Promise<PerfColumns>;
  /**
   * ONE query for what a perf image draws of the same points as `perf` (same order, time range, limit and cap): x by
   * time or version, value, limits and an alert flag. `perfLinesOf(await this.perf(request))` is a correct
   * implementation; engines answer it without the joins to report texts and alert details.
   */
  perfLines(request: PerfRequest): Promise<PerfLines>;
  /**
   * How many points `perf` answers for the request without its `cap`, counting no further than its `limit`: no
   * sort and no read of the points. `Math.min(perf({ ...request, cap: undefined }).count, limit)` is a correct
   * implementation.
   */
  perfCount(request: PerfRequest): Promise<number>;
}

export interface MetricsWriter extends MetricsReader {
  /** Appends a report's metrics in one bulk write (never one INSERT per metric); returns their ids. */
  append(report: ReportRecord, metrics: MetricColumns): Promise<BigInt64Array>;
  /** Deletes a report's metrics and alerts. */
  deleteReport(reportId: number): Promise<void>;
}

/** Batch lookups and inserts for report ingest: one query for many names. */
export interface NamedBatchReader {
  /** Rows of the kind whose UUID, slug or name is one of `keys`. */
  findMany(kind: DimensionKind, projectId: number, keys: readonly string[]): Promise<DimensionRecord[]>;
  /** Rows of the kind with these ids. */
  byIds(kind: DimensionKind, ids: readonly number[]): Promise<DimensionRecord[]>;
}

export interface NamedBatchWriter extends NamedBatchReader {
  /** Inserts many benchmarks or measures at once (`units` for measures). */
  insertMany(
    kind: 'benchmark' | 'measure',
    projectId: number,
    rows: readonly { name: string; slug: string; units?: string }[],
    now: Date,
  ): Promise<DimensionRecord[]>;
  /** Series ids of (benchmark, measure) pairs on a testbed, created when missing; same order as `pairs`. */
  ensureSeries(
    projectId: number,
    testbedId: number,
    pairs: readonly (readonly [number, number])[],
  ): Promise<Int32Array>;
}

/** Days are UTC calendar days written `YYYY-MM-DD`; ranges of days include both ends. */
export interface UsageReader {
  /** Metrics counted for one organization (or, with `null`, every organization) on the days `from`..`to`. */
  metrics(organizationId: number | null, from: string, to: string): Promise<number>;
  /** Metrics counted per day on the days `from`..`to`, every organization together, oldest first; days with none are left out. */
  daily(from: string, to: string): Promise<{ day: string; metrics: number }[]>;
}

export interface UsageWriter extends UsageReader {
  /**
   * Counts `count` metrics of one report for the organization on `day`, as a row of the report's own: reports
   * of one organization, also from other processes on a shared database, never write the same row, so counting
   * alone never makes a transaction conflict with another. Read the total with `metrics` where it matters (a quota
   * or license); that read is what makes concurrent reports of the organization serialize.
   */
  recordMetrics(organizationId: number, day: string, count: number): Promise<void>;
}

/** Counts for server statistics, and the daily snapshots of them. */
export interface StatsReader {
  /** Users, organizations, projects and reports created at or after `since` (every row when absent). */
  created(since?: Date): Promise<{ users: number; organizations: number; projects: number; reports: number }>;
  /** The projects with the most reports created at or after `since`, most first (ties: lower id first). */
  topProjects(since: Date, limit: number): Promise<{ project_id: number; reports: number }[]>;
  /** Snapshots of the days from `from` on, oldest first; `stats` is the JSON text that was saved. */
  snapshots(from: string): Promise<{ day: string; stats: string }[]>;
}

export interface StatsWriter extends StatsReader {
  /** Saves the snapshot of `day` unless one exists; true when this call saved it. */
  saveSnapshot(day: string, stats: string): Promise<boolean>;
}

/** What a runner may claim: the specs it serves, and the organization it is limited to (`null`: every one). */
export interface ClaimScope {
  readonly specs: readonly string[];
  readonly organizationId: number | null;
}

export interface JobsReader extends TableReader<JobRecord> {
  /** Whether a queued job of the scope waits (a cheap read before the write a claim is). */
  claimable(scope: ClaimScope): Promise<boolean>;
}

export interface JobsWriter extends JobsReader, TableWriter<JobRecord, New<JobRecord>> {
  /**
   * Hands the oldest queued job of the scope (by creation, then id) to the runner: state running, the runner,
   * attempt + 1, `lease_expires`, `heartbeat` and `started` set. One job is never handed to two claims, also when
   * several processes claim at once (an engine with several writers skips rows another claim holds). Undefined
   * when no job waits.
   */
  claim(
    runnerId: number,
    scope: ClaimScope,
    lease: { readonly now: Date; readonly expires: Date },
  ): Promise<JobRecord | undefined>;
}

export interface JobLogsReader extends TableReader<JobLogRecord> {
  /** The job's log pieces with an id above `afterId`, oldest first, at most `limit`. */
  after(jobId: number, afterId: number, limit: number): Promise<JobLogRecord[]>;
}

export interface JobLogsWriter extends JobLogsReader, TableWriter<JobLogRecord, New<JobLogRecord>> {
  /** Deletes the logs of the project's jobs older than its `keep` newest (by id); answers the pieces deleted. */
  prune(projectId: number, keep: number): Promise<number>;
}

export interface NotificationsReader extends TableReader<NotificationRecord> {
  /** Whether a notification waits for its deliveries to be made (a cheap read before the write that makes them). */
  waiting(): Promise<boolean>;
}

export interface NotificationsWriter
  extends NotificationsReader, TableWriter<NotificationRecord, New<NotificationRecord>> {
  /**
   * The oldest notifications (by id) whose deliveries are not made, at most `limit`, held by this transaction
   * until it ends: a transaction of another process that takes new notifications at once skips them (an engine
   * with one writer has nothing to skip).
   */
  takeNew(limit: number): Promise<NotificationRecord[]>;
  /**
   * Deletes the notifications created before `before` that have no pending delivery, with their deliveries and
   * the attempts of those; answers the notifications deleted.
   */
  prune(before: Date): Promise<number>;
}

export interface DeliveriesReader extends TableReader<DeliveryRecord> {
  /** When the earliest pending delivery is due (it may be past), or undefined when none is pending. */
  nextDue(): Promise<Date | undefined>;
}

export interface DeliveriesWriter extends DeliveriesReader, TableWriter<DeliveryRecord, New<DeliveryRecord>> {
  /**
   * Takes the pending deliveries due at `now` (the longest due first, then by id), at most `limit`, for one
   * attempt each: `attempts` + 1, and `next_attempt` moved to `leaseUntil`, so that no other claim takes them
   * until the attempt is recorded or its lease ends. A delivery is never handed to two claims at once, also when
   * several processes claim together.
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRecord[]>;
}

/** Repositories usable on a read snapshot. */
export interface ReadRepositories {
  readonly meta: MetaReader;
  readonly users: TableReader<UserRecord>;
  readonly tokens: TableReader<ApiTokenRecord>;
  readonly organizations: OrganizationsReader;
  readonly roles: TableReader<OrganizationRoleRecord>;
  readonly invitations: TableReader<InvitationRecord>;
  readonly projects: ProjectsReader;
  readonly branches: TableReader<BranchRecord>;
  readonly heads: HeadsReader;
  readonly versions: TableReader<VersionRecord>;
  readonly testbeds: TableReader<TestbedRecord>;
  readonly benchmarks: TableReader<BenchmarkRecord>;
  readonly measures: TableReader<MeasureRecord>;
  readonly series: TableReader<SeriesRecord>;
  readonly thresholds: TableReader<ThresholdRecord>;
  readonly models: TableReader<ModelRecord>;
  readonly alerts: AlertsReader;
  readonly dimensions: DimensionsReader;
  readonly reports: ReportsReader;
  readonly metrics: MetricsReader;
  readonly named: NamedBatchReader;
  readonly plots: TableReader<PlotRecord>;
  readonly usage: UsageReader;
  readonly stats: StatsReader;
  readonly regressions: RegressionsReader;
  readonly regressionSeries: TableReader<RegressionSeriesRecord>;
  readonly regressionAlerts: TableReader<RegressionAlertRecord>;
  readonly regressionEvents: TableReader<RegressionEventRecord>;
  readonly runners: TableReader<RunnerRecord>;
  readonly runnerSpecs: TableReader<RunnerSpecRecord>;
  readonly jobs: JobsReader;
  readonly jobLogs: JobLogsReader;
  readonly webhooks: TableReader<WebhookRecord>;
  readonly notifications: NotificationsReader;
  readonly deliveries: DeliveriesReader;
  readonly deliveryAttempts: TableReader<DeliveryAttemptRecord>;
  readonly notificationPreferences: TableReader<NotificationPreferenceRecord>;
}

/**
 * What a lock of `WriteRepositories.locks` is taken on: one row's id of the kind, not the row itself; or, for
 * `maintenance`, a background task by the number core gives it (1: the daily statistics snapshot; 2: the daily
 * notification digests).
 */
export interface LockKey {
  readonly kind: 'project' | 'branch' | 'version' | 'organization' | 'maintenance';
  readonly id: number;
}

/**
 * Locks a transaction holds until it ends, for transactions that run with `isolation: 'locked'`: of two
 * transactions that take the same key, the second waits until the first has committed or rolled back, and then
 * its statements see what the first wrote. A shared lock waits only for exclusive holders of the key (and they
 * for it). An engine with one writer has nothing to order: its locks return at once.
 */
export interface LocksWriter {
  hold(key: LockKey, options?: { readonly shared?: boolean }): Promise<void>;
  /**
   * Takes `key` exclusively, until the transaction ends, when no other transaction holds it; answers false at
   * once, without waiting, when one does (of several processes that try one task, one does it). An engine with
   * one writer answers true.
   */
  tryHold(key: LockKey): Promise<boolean>;
}

/** Repositories usable inside a write transaction. */
export interface WriteRepositories extends ReadRepositories {
  readonly meta: MetaWriter;
  readonly locks: LocksWriter;
  readonly users: TableWriter<UserRecord, New<UserRecord>>;
  readonly tokens: TableWriter<ApiTokenRecord, New<ApiTokenRecord>>;
  readonly organizations: OrganizationsReader & TableWriter<OrganizationRecord, New<OrganizationRecord>>;
  readonly roles: TableWriter<OrganizationRoleRecord, OrganizationRoleRecord>;
  readonly invitations: TableWriter<InvitationRecord, New<InvitationRecord>>;
  readonly projects: ProjectsWriter;
  readonly branches: TableWriter<BranchRecord, New<BranchRecord>>;
  readonly heads: HeadsReader & TableWriter<HeadRecord, New<HeadRecord>>;
  readonly headVersions: TableWriter<HeadVersionRecord, HeadVersionRecord> & {
    /** Links many versions to a head at once. */
    link(headId: number, versionIds: readonly number[]): Promise<void>;
  };
  readonly versions: TableWriter<VersionRecord, New<VersionRecord>>;
  readonly testbeds: TableWriter<TestbedRecord, New<TestbedRecord>>;
  readonly benchmarks: TableWriter<BenchmarkRecord, New<BenchmarkRecord>>;
  readonly measures: TableWriter<MeasureRecord, New<MeasureRecord>>;
  readonly series: TableWriter<SeriesRecord, New<SeriesRecord>>;
  readonly thresholds: TableWriter<ThresholdRecord, New<ThresholdRecord>>;
  readonly models: TableWriter<ModelRecord, New<ModelRecord>>;
  readonly alerts: AlertsReader &
    TableWriter<AlertRecord, New<AlertRecord>> & {
      /** Raises the active alerts of a report in one statement. */
      raise(
        report: ReportRecord,
        alerts: readonly {
          metric_id: bigint;
          threshold_id: number;
          model_id: number;
          boundary_limit: 'lower' | 'upper';
          /** A confirmed change point: the means on each side and its p-value. */
          change?: { before: number; after: number; p_value: number };
        }[],
        now: Date,
      ): Promise<AlertRecord[]>;
    };
  readonly dimensions: DimensionsWriter;
  readonly reports: ReportsReader & TableWriter<ReportRecord, New<ReportRecord>>;
  readonly metrics: MetricsWriter;
  readonly named: NamedBatchWriter;
  readonly plots: TableWriter<PlotRecord, New<PlotRecord>>;
  readonly usage: UsageWriter;
  readonly stats: StatsWriter;
  readonly regressions: RegressionsReader &
    TableWriter<RegressionRecord, New<RegressionRecord>> & {
      /** Writes what one grouping, analysis or change added, set-based: a few statements whatever the counts. */
      write(writes: RegressionWrites): Promise<void>;
    };
  readonly regressionSeries: TableWriter<RegressionSeriesRecord, RegressionSeriesRecord>;
  readonly regressionAlerts: TableWriter<RegressionAlertRecord, RegressionAlertRecord>;
  readonly regressionEvents: TableWriter<RegressionEventRecord, New<RegressionEventRecord>>;
  readonly runners: TableWriter<RunnerRecord, New<RunnerRecord>>;
  readonly runnerSpecs: TableWriter<RunnerSpecRecord, RunnerSpecRecord>;
  readonly jobs: JobsWriter;
  readonly jobLogs: JobLogsWriter;
  readonly webhooks: TableWriter<WebhookRecord, New<WebhookRecord>>;
  readonly notifications: NotificationsWriter;
  readonly deliveries: DeliveriesWriter;
  readonly deliveryAttempts: TableWriter<DeliveryAttemptRecord, New<DeliveryAttemptRecord>>;
  readonly notificationPreferences: TableWriter<NotificationPreferenceRecord, NotificationPreferenceRecord>;
}

/** What a maintenance pass did: the fact table rewritten for fast reads, or nothing to do. */
export interface MaintenanceResult {
  readonly compacted: boolean;
  /** Metric rows after the pass. */
  readonly rows: number;
  /** Rows that were outside the read-optimized layout before the pass. */
  readonly tailRows: number;
  /** Rows the pass read and wrote again, where the engine reports it: what its cost follows. */
  readonly rewrittenRows?: number;
  readonly ms: number;
}

/**
 * Whether the storage can serve, as the health endpoint shows it to anyone: fixed words, never a path or an
 * engine's message.
 */
export interface StorageHealth {
  /**
   * `disk_full`: the last write failed for lack of disk space (reads still work; the next write that succeeds
   * clears it). `reopening`: the engine gave up on the database after a fatal I/O error and it is being reopened;
   * every call fails until it is. `unavailable`: the database server cannot be reached (refused or lost the
   * connection); calls fail until it answers again. `closed`: the storage has been closed.
   */
  readonly status: 'ok' | 'disk_full' | 'reopening' | 'unavailable' | 'closed';
  /** When the current state began (RFC 3339); absent when ok. */
  readonly since?: string;
  /** Times the database was reopened after a fatal error, or its server answered again after being lost, since the start. */
  readonly reopened: number;
  /**
   * Write transactions this process ran again since the start because the database aborted them for a conflict
   * with a concurrent writer (engines with several writers; absent where one writer serializes every write).
   */
  readonly retried?: number;
}

/**
 * Counts in time windows, shared by every process on the database: ephemeral state, not data (an engine may lose
 * it on a crash, and it is never backed up, replicated or moved between engines).
 */
export interface SharedCounters {
  /**
   * Adds one to the count of `key`, exactly under any concurrency, in its window: the one that began with the
   * key's first event within `windowMs` before `now`, or a new one that begins at `now`. Answers the count and
   * when its window began. Windows that ended before `now` may be dropped.
   */
  hit(key: string, now: Date, windowMs: number): Promise<{ count: number; start: Date }>;
}

/** One value of a row moved between engines: what every engine reads and writes without loss. */
export type TransferValue = null | boolean | number | bigint | string | Date | readonly number[];

/** Rows of one table of the data model, columns named as in the data model, ids as stored. */
export interface RowBatch {
  readonly table: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly TransferValue[])[];
  /** Rows of the table in the exported snapshot (for progress). */
  readonly total: number;
}

/** Engine-neutral bulk copy of a whole database, for moving it to another engine. */
export interface StorageTransfer {
  /**
   * Every row of every table of the data model (not the engine's own bookkeeping, such as its migrations), in
   * batches, table after table, from one consistent snapshot.
   */
  exportRows(): AsyncIterable<RowBatch>;
  /**
   * Writes the batches into this database in bulk, ids preserved, all or nothing; id generators continue after
   * the highest id copied. Refuses (ConflictError) a database that holds any row. Answers the rows written.
   */
  importRows(batches: AsyncIterable<RowBatch>): Promise<number>;
}

/** A table's content in brief: rows, the sum of its row hashes, and the highest id of an append-only table. */
export interface TableState {
  readonly rows: string;
  readonly hash: string;
  readonly max_id?: string | null;
}

/** What a replica holds, table by table, and the value of every id sequence: equal states, equal databases. */
export interface ReplicaState {
  readonly tables: Readonly<Record<string, TableState>>;
  readonly sequences: Readonly<Record<string, string>>;
}

/** One file of a change: a table's rows that `replace` the table, or that are `append`ed to it. */
export interface ChangeFile {
  readonly table: string;
  readonly mode: 'replace' | 'append';
  /** The file's name in the directory the change was written to. */
  readonly file: string;
}

/** The committed changes since a state, as files, and the state they lead to. */
export interface ChangeSet {
  readonly files: readonly ChangeFile[];
  readonly state: ReplicaState;
}

/**
 * The engine's side of continuous replication: a snapshot starts a chain, each change set continues it from the
 * state the one before led to, and applying the chain to the snapshot rebuilds the database.
 */
export interface Replication {
  /** Committed write transactions since the storage was opened: unchanged, nothing new to ship. */
  commits(): number;
  /** Writes a snapshot to `file` (as `backup` does) and returns the state it holds. */
  snapshot(file: string): Promise<ReplicaState>;
  /**
   * Writes into `directory` what changed since `since`, from one consistent read. `'snapshot'` when a change set
   * cannot express it (rows deleted from an append-only table, a table added or dropped): start a new chain.
   */
  changes(since: ReplicaState, directory: string): Promise<ChangeSet | 'snapshot'>;
  /**
   * Applies a change set whose files are in `directory`, in one transaction, and moves every sequence up to the
   * value the change set's state records.
   */
  apply(directory: string, change: ChangeSet): Promise<void>;
  /** The state of the database now. */
  state(): Promise<ReplicaState>;
}

/** How a write transaction is ordered against concurrent ones (engines with several writers). */
export interface TransactionOptions {
  /**
   * `serializable` (the default): the engine makes the transaction behave as if it ran alone, and runs it again
   * when it cannot. `locked`: the transaction protects what it reads itself, with `tx.locks` and unique keys; each
   * statement sees what was committed before it started (PostgreSQL: READ COMMITTED), and nothing else orders it.
   * For a hot path whose transactions touch the same tables but not the same rows, where an engine's own conflict
   * detection (PostgreSQL's predicate locks, coarse by page and by table) makes them run again for nothing.
   */
  readonly isolation?: 'serializable' | 'locked';
  /**
   * Keys held exclusively from before the transaction's first statement until it ends, so that it sees everything
   * the `locked` transactions that held one of them committed: a `serializable` transaction that must not
   * overlap them (deleting what they write to) names their keys here.
   */
  readonly exclusive?: readonly LockKey[];
}

/** Where a read may be answered from. */
export interface ReadOptions {
  /**
   * True: a read replica of the database may answer (engines with replicas; the others ignore it). A replica may
   * lag behind what other processes wrote, never behind what this process wrote. Core asks it only for the data
   * of perf queries and lists, after reading who the caller is and what they may see without it.
   */
  readonly replica?: boolean;
}

export interface Storage {
  readonly capabilities: StorageCapabilities;
  /** Bulk export and import for moving between engines; engines without it cannot be migrated from or to. */
  readonly transfer?: StorageTransfer;
  /** Migrations applied when this storage was opened (empty when the schema was already current). */
  readonly appliedMigrations: readonly AppliedMigration[];
  /** The highest migration version recorded in the database. */
  schemaVersion(): Promise<number>;
  /**
   * Runs `fn` in one write transaction: everything it writes commits together, or nothing does when it throws
   * (the error is rethrown). Write transactions are serialized. An engine may commit queued transactions
   * together and run `fn` again when another one of its group fails, so `fn` must have no effect outside the
   * storage (send mail, call out, after it returns).
   */
  transaction<T>(fn: (tx: WriteRepositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` against a consistent read snapshot; reads run concurrently with each other and with writes. It sees
   * every write committed before it started (any process), unless `options.replica` lets a replica answer.
   */
  read<T>(fn: (repos: ReadRepositories) => Promise<T>, options?: ReadOptions): Promise<T>;
  /**
   * Reorganizes data for fast reads now (engines that do this also do it in the background as data grows).
   * Reads and writes go on meanwhile.
   */
  maintain?(): Promise<MaintenanceResult>;
  /**
   * Writes a consistent snapshot of the whole database to `file`, a new database of the engine's own format that
   * `open` accepts, while reads and writes go on. Engines without it cannot serve `POST /v0/server/backup`.
   */
  backup?(file: string): Promise<void>;
  /** Continuous replication (`plus.disaster_recovery`): engines that can express their changes as files. */
  readonly replication?: Replication;
  /**
   * Counters that every process on the database shares (the API's rate limiters), for engines that several
   * processes open at once; without them each process counts alone.
   */
  readonly counters?: SharedCounters;
  /**
   * The storage's state. A storage that cannot serve for a while (disk full, reopening) fails calls with an
   * UnavailableError whose details carry `retry_after_seconds`.
   */
  health(): StorageHealth;
  /** Waits for running work, then releases the database. Idempotent; any later call fails. */
  close(): Promise<void>;
}
