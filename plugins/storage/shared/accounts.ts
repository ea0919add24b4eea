import type {
  MemberRecord,
  OrganizationRecord,
  OrganizationsReader,
  ProjectRecord,
  ProjectsReader,
  TableReader,
} from '../../../kit/index.js';
import { deleteCascade } from './regressions.js';
import { count, perDialect, type Db, type Params } from './sql.js';
import { extended, listPage, table, tableSpec, type Shared } from './table.js';

const users = tableSpec('users', { search: ['name', 'slug', 'uuid'] });
const organizations = tableSpec('organization', { search: ['name', 'slug', 'uuid'] });
const projects = tableSpec('project', { search: ['name', 'slug', 'uuid'] });

const organizationReads = (db: Db): Omit<OrganizationsReader, keyof TableReader<OrganizationRecord>> => ({
  listForUser: (userId, where, options) =>
    listPage<OrganizationRecord>(db, organizations, where, options, {
      alias: 'o.',
      from: 'FROM organization o JOIN organization_role r ON r.organization_id = o.id WHERE r.user_id = $user',
      params: { user: userId },
    }),
  // bound, not a constant: planned while every license was NULL, DuckDB then read licenses as garbage
  licensed: () =>
    db.query<OrganizationRecord>(
      'SELECT * FROM organization WHERE coalesce(license, $none) <> $none ORDER BY id',
      { none: '' },
    ),
  members: (organizationId, options) =>
    listPage<MemberRecord>(db, users, {}, options, {
      alias: 'u.',
      columns: 'u.*, r.role, r.created AS role_created, r.modified AS role_modified',
      from: 'FROM organization_role r JOIN users u ON u.id = r.user_id WHERE r.organization_id = $organization',
      params: { organization: organizationId },
    }),
});

const ACTIVITY = perDialect((d) => {
  const of = d.inList('project_id', '$ids', 'int');
  return {
    last: `SELECT project_id, max(${d.epochMs('start_time')}) AS n FROM report WHERE ${of} GROUP BY project_id`,
    days: `SELECT project_id, ${d.day('start_time')} AS day, count(*) AS reports FROM report
      WHERE ${of} AND start_time >= $since GROUP BY project_id, ${d.day('start_time')} ORDER BY project_id, day`,
    alerts: `SELECT project_id, count(*) AS n FROM alert WHERE ${of} AND status = 'active' GROUP BY project_id`,
    regressions: `SELECT project_id, count(*) AS n FROM regression
      WHERE ${of} AND ${d.inList('status', '$statuses', 'text')} GROUP BY project_id`,
  };
});

const projectReads = (db: Db): Omit<ProjectsReader, keyof TableReader<ProjectRecord>> => ({
  /** A page of projects' activity: four grouped reads. */
  async activity(ids, options) {
    if (ids.length === 0) return new Map();
    const sql = ACTIVITY(db.dialect);
    type Count = { project_id: number; n: bigint | number };
    const counts = async (text: string, params: Params = {}) =>
      new Map((await db.query<Count>(text, { ids, ...params })).map((row) => [row.project_id, count(row.n)]));
    const last = await counts(sql.last);
    const days = new Map<number, { day: string; reports: number }[]>(ids.map((id) => [id, []]));
    const rows = await db.query<{ project_id: number; day: string; reports: bigint }>(sql.days, {
      ids,
      since: options.since,
    });
    for (const row of rows) days.get(row.project_id)?.push({ day: row.day, reports: count(row.reports) });
    const alerts = await counts(sql.alerts);
    const regressions = await counts(sql.regressions, { statuses: options.regressionStatuses });
    return new Map(
      ids.map((id) => [
        id,
        {
          last: last.has(id) ? new Date(last.get(id)!) : null,
          days: days.get(id)!,
          alerts: alerts.get(id) ?? 0,
          regressions: regressions.get(id) ?? 0,
        },
      ]),
    );
  },
  listVisible: (viewer, where, options) =>
    listPage<ProjectRecord>(db, projects, where, options, {
      alias: 'p.',
      from: `FROM project p WHERE (p.visibility = 'public' OR $admin::boolean
        OR p.organization_id IN (SELECT organization_id FROM organization_role WHERE user_id = $viewer::int))`,
      params: { admin: viewer.admin, viewer: viewer.userId ?? -1 },
    }),
});

/** Every table holding rows of a project, children before parents. */
const PROJECT_DATA = [
  `DELETE FROM notification_attempt WHERE project_id = $project`,
  `DELETE FROM notification_delivery WHERE project_id = $project`,
  `DELETE FROM notification WHERE project_id = $project`,
  `DELETE FROM webhook WHERE project_id = $project`,
  `DELETE FROM notification_preference WHERE project_id = $project`,
  `DELETE FROM job_log WHERE job_id IN (SELECT id FROM job WHERE project_id = $project)`,
  `DELETE FROM job WHERE project_id = $project`,
  `DELETE FROM alert WHERE project_id = $project`,
  `DELETE FROM metric WHERE project_id = $project`,
  `DELETE FROM report WHERE project_id = $project`,
  `DELETE FROM model WHERE threshold_id IN (SELECT id FROM threshold WHERE project_id = $project)`,
  `DELETE FROM threshold WHERE project_id = $project`,
  `DELETE FROM series WHERE project_id = $project`,
  `DELETE FROM head_version WHERE head_id IN
     (SELECT h.id FROM head h JOIN branch b ON b.id = h.branch_id WHERE b.project_id = $project)`,
  `DELETE FROM head WHERE branch_id IN (SELECT id FROM branch WHERE project_id = $project)`,
  `DELETE FROM version WHERE project_id = $project`,
  `DELETE FROM branch WHERE project_id = $project`,
  `DELETE FROM testbed WHERE project_id = $project`,
  `DELETE FROM benchmark WHERE project_id = $project`,
  `DELETE FROM measure WHERE project_id = $project`,
  `DELETE FROM plot WHERE project_id = $project`,
  `DELETE FROM project_role WHERE project_id = $project`,
  `DELETE FROM project WHERE id = $project`,
];

export const ACCOUNTS = {
  users: table(users),
  tokens: table(tableSpec('api_token', { search: ['name', 'uuid'] })),
  organizations: extended(organizations, organizationReads, () => ({})),
  roles: table(tableSpec('organization_role', { key: ['organization_id', 'user_id'] })),
  invitations: table(tableSpec('invitation', { search: ['email', 'uuid'] })),
  projects: extended(projects, projectReads, (db) => ({
    deleteWithData: (projectId) => deleteCascade(db, PROJECT_DATA, { project: projectId }),
  })),
} satisfies Partial<Shared>;
