import type {
  BranchRecord,
  DimensionRecord,
  HeadRecord,
  MetricColumns,
  OrganizationRecord,
  ProjectRecord,
  ReportRecord,
  TestbedRecord,
  UserRecord,
  VersionRecord,
  WriteRepositories,
} from '../../../core/index.js';

/** A fixed instant the fixtures count from (epoch ms), so times are exact in every engine. */
export const T0 = Date.UTC(2026, 0, 1);
export const MINUTE = 60_000;

export const uuid = (): string => globalThis.crypto.randomUUID();
export const at = (minutes: number): Date => new Date(T0 + minutes * MINUTE);

let unique = 0;
/** A name no other fixture of this process uses (slugs and emails are unique server-wide). */
export const fresh = (prefix: string): string => `${prefix}-${++unique}`;

export async function insertUser(tx: WriteRepositories, name = fresh('user')): Promise<UserRecord> {
  return tx.users.insert({
    uuid: uuid(),
    name,
    slug: name,
    email: `${name}@example.com`,
    admin: false,
    locked: false,
    created: at(0),
    modified: at(0),
  });
}

export async function insertOrganization(
  tx: WriteRepositories,
  name = fresh('org'),
): Promise<OrganizationRecord> {
  return tx.organizations.insert({
    uuid: uuid(),
    name,
    slug: name,
    personal_user_id: null,
    claimed: at(0),
    license: null,
    created: at(0),
    modified: at(0),
  });
}

export async function insertProject(
  tx: WriteRepositories,
  organizationId: number,
  visibility: 'public' | 'private' = 'public',
  name = fresh('project'),
): Promise<ProjectRecord> {
  return tx.projects.insert({
    uuid: uuid(),
    organization_id: organizationId,
    name,
    slug: name,
    url: null,
    visibility,
    created: at(0),
    modified: at(0),
  });
}

/** A branch with its first head (set as the branch's head). */
export async function insertBranch(
  tx: WriteRepositories,
  projectId: number,
  name = fresh('branch'),
): Promise<{ branch: BranchRecord; head: HeadRecord }> {
  const branch = await tx.branches.insert({
    uuid: uuid(),
    project_id: projectId,
    name,
    slug: name,
    head_id: null,
    archived: false,
    created: at(0),
    modified: at(0),
  });
  const head = await tx.heads.insert({
    uuid: uuid(),
    branch_id: branch.id,
    start_point_branch_id: null,
    start_point_head_id: null,
    start_point_version_id: null,
    max_versions: null,
    created: at(0),
    replaced: null,
  });
  await tx.branches.update({ id: branch.id }, { head_id: head.id });
  return { branch: { ...branch, head_id: head.id }, head };
}

export async function insertTestbed(
  tx: WriteRepositories,
  projectId: number,
  name = fresh('testbed'),
): Promise<TestbedRecord> {
  return tx.testbeds.insert({
    uuid: uuid(),
    project_id: projectId,
    name,
    slug: name,
    archived: false,
    created: at(0),
    modified: at(0),
  });
}

/** A version of the project linked to the head. */
export async function insertVersion(
  tx: WriteRepositories,
  projectId: number,
  headId: number,
  number: number,
  hash: string | null = null,
): Promise<VersionRecord> {
  const version = await tx.versions.insert({
    uuid: uuid(),
    project_id: projectId,
    number,
    hash,
    created: at(0),
  });
  await tx.headVersions.link(headId, [version.id]);
  return version;
}

/** Everything a report needs: a user in an organization, a project, a branch and head, a testbed, two series. */
export interface World {
  readonly user: UserRecord;
  readonly organization: OrganizationRecord;
  readonly project: ProjectRecord;
  readonly branch: BranchRecord;
  readonly head: HeadRecord;
  readonly testbed: TestbedRecord;
  readonly benchmarks: readonly DimensionRecord[];
  readonly measure: DimensionRecord;
  /** Series of (benchmarks[0], measure) and (benchmarks[1], measure) on the testbed. */
  readonly series: readonly [number, number];
}

export async function insertWorld(tx: WriteRepositories): Promise<World> {
  const user = await insertUser(tx);
  const organization = await insertOrganization(tx);
  await tx.roles.insert({
    organization_id: organization.id,
    user_id: user.id,
    role: 'leader',
    created: at(0),
    modified: at(0),
  });
  const project = await insertProject(tx, organization.id);
  const { branch, head } = await insertBranch(tx, project.id, 'main');
  const testbed = await insertTestbed(tx, project.id, 'localhost');
  const benchmarks = await tx.named.insertMany(
    'benchmark',
    project.id,
    [
      { name: 'bench a', slug: 'bench-a' },
      { name: 'bench b', slug: 'bench-b' },
    ],
    at(0),
  );
  const [measure] = await tx.named.insertMany(
    'measure',
    project.id,
    [{ name: 'Latency', slug: 'latency', units: 'nanoseconds (ns)' }],
    at(0),
  );
  if (benchmarks.length !== 2 || !measure) throw new Error('insertMany returned fewer rows than inserted');
  const byName = (name: string) => benchmarks.find((b) => b.name === name) as DimensionRecord;
  const ordered = [byName('bench a'), byName('bench b')];
  const ids = await tx.named.ensureSeries(
    project.id,
    testbed.id,
    ordered.map((b) => [b.id, measure.id] as const),
  );
  return {
    user,
    organization,
    project,
    branch,
    head,
    testbed,
    benchmarks: ordered,
    measure,
    series: [ids[0] as number, ids[1] as number],
  };
}

export interface Point {
  readonly series: number;
  readonly value: number;
  readonly iteration?: number;
  readonly lower?: number;
  readonly upper?: number;
  /** The boundary the value was tested against. */
  readonly boundary?: {
    readonly threshold: number;
    readonly model: number;
    readonly baseline: number;
    readonly lowerLimit: number;
    readonly upperLimit: number;
  };
}

/** Metric columns for `points` (absent numbers NaN, absent ids 0). */
export function metricColumns(points: readonly Point[]): MetricColumns & { uuid: string[] } {
  const boundary = <K extends keyof NonNullable<Point['boundary']>>(key: K, absent: number) =>
    points.map((p) => p.boundary?.[key] ?? absent);
  return {
    uuid: points.map(() => uuid()),
    iteration: Int32Array.from(points, (p) => p.iteration ?? 0),
    series: Int32Array.from(points, (p) => p.series),
    value: Float64Array.from(points, (p) => p.value),
    lower: Float64Array.from(points, (p) => p.lower ?? Number.NaN),
    upper: Float64Array.from(points, (p) => p.upper ?? Number.NaN),
    threshold: Int32Array.from(boundary('threshold', 0)),
    model: Int32Array.from(boundary('model', 0)),
    baseline: Float64Array.from(boundary('baseline', Number.NaN)),
    lowerLimit: Float64Array.from(boundary('lowerLimit', Number.NaN)),
    upperLimit: Float64Array.from(boundary('upperLimit', Number.NaN)),
  };
}

export interface ReportInput {
  readonly version: VersionRecord;
  /** Minutes after T0 the report started (it ends a minute later). */
  readonly minute: number;
  readonly points: readonly Point[];
  readonly head?: HeadRecord;
  readonly branch?: BranchRecord;
  readonly testbed?: TestbedRecord;
  readonly idempotencyKey?: string | null;
}

/** A report of the world's testbed and its metrics; returns the report, its metric ids and UUIDs. */
export async function insertReport(
  tx: WriteRepositories,
  world: World,
  input: ReportInput,
): Promise<{ report: ReportRecord; ids: BigInt64Array; uuids: string[] }> {
  const report = await tx.reports.insert({
    uuid: uuid(),
    project_id: world.project.id,
    user_id: world.user.id,
    branch_id: (input.branch ?? world.branch).id,
    head_id: (input.head ?? world.head).id,
    version_id: input.version.id,
    testbed_id: (input.testbed ?? world.testbed).id,
    adapter: 'json',
    idempotency_key: input.idempotencyKey ?? null,
    start_time: at(input.minute),
    end_time: at(input.minute + 1),
    created: at(input.minute + 1),
  });
  const columns = metricColumns(input.points);
  const ids = await tx.metrics.append(report, columns);
  return { report, ids, uuids: columns.uuid };
}
