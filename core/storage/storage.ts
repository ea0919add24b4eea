import type {
  ApiTokenRecord,
  InvitationRecord,
  MemberRecord,
  New,
  OrganizationRecord,
  OrganizationRoleRecord,
  ProjectRecord,
  UserRecord,
} from './records.js';
import type { ListOptions, Page, TableReader, TableWriter, Where } from './tables.js';

/**
 * The storage contract: repository-level operations, never raw SQL. Each storage plugin (DuckDB embedded,
 * later PostgreSQL) implements it, and `test/contract/storage.ts` is the suite every implementation passes.
 */

/** What an engine can do, so callers branch on capabilities, never on "is this DuckDB?". */
export interface StorageCapabilities {
  /** Only one write transaction may run at a time; the storage serializes them itself. */
  readonly singleWriter: boolean;
  /** History and perf queries return columnar typed arrays. */
  readonly columnarReads: boolean;
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
}

export interface ProjectsReader extends TableReader<ProjectRecord> {
  /** Public projects plus those of the viewer's organizations (every project for administrators). */
  listVisible(
    viewer: Viewer,
    where: Where<ProjectRecord>,
    options: ListOptions<ProjectRecord>,
  ): Promise<Page<ProjectRecord>>;
}

export interface ProjectsWriter extends ProjectsReader, TableWriter<ProjectRecord, New<ProjectRecord>> {
  /** Deletes a project and every row that belongs to it (dimensions, reports, metrics, alerts, plots, ...). */
  deleteWithData(projectId: number): Promise<void>;
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
}

/** Repositories usable inside a write transaction. */
export interface WriteRepositories extends ReadRepositories {
  readonly meta: MetaWriter;
  readonly users: TableWriter<UserRecord, New<UserRecord>>;
  readonly tokens: TableWriter<ApiTokenRecord, New<ApiTokenRecord>>;
  readonly organizations: OrganizationsReader & TableWriter<OrganizationRecord, New<OrganizationRecord>>;
  readonly roles: TableWriter<OrganizationRoleRecord, OrganizationRoleRecord>;
  readonly invitations: TableWriter<InvitationRecord, New<InvitationRecord>>;
  readonly projects: ProjectsWriter;
}

export interface Storage {
  readonly capabilities: StorageCapabilities;
  /** Migrations applied when this storage was opened (empty when the schema was already current). */
  readonly appliedMigrations: readonly AppliedMigration[];
  /** The highest migration version recorded in the database. */
  schemaVersion(): Promise<number>;
  /**
   * Runs `fn` in one write transaction: everything it writes commits together, or nothing does when it throws
   * (the error is rethrown). Write transactions are serialized.
   */
  transaction<T>(fn: (tx: WriteRepositories) => Promise<T>): Promise<T>;
  /** Runs `fn` against a consistent read snapshot; reads run concurrently with each other and with writes. */
  read<T>(fn: (repos: ReadRepositories) => Promise<T>): Promise<T>;
  /** Waits for running work, then releases the database. Idempotent; any later call fails. */
  close(): Promise<void>;
}
