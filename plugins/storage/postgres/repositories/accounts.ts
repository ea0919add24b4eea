import type {
  MemberRecord,
  OrganizationRecord,
  OrganizationsReader,
  ProjectRecord,
  ProjectsReader,
  ProjectsWriter,
  ReadRepositories,
  WriteRepositories,
} from '../../../../kit/index.js';
import { execute, query, type Connection } from '../sql.js';
import { REGRESSION_PRUNE } from '../../shared/regressions.js';
import { pageSql, tableReader, tableWriter, whereSql, type TableSpec } from '../table.js';
import { PROJECT_NOTIFICATION_DATA } from '../../shared/notifications.js';

const TIMES = ['created', 'modified'] as const;

export const users: TableSpec = {
  name: 'users',
  columns: ['id', 'uuid', 'name', 'slug', 'email', 'admin', 'locked', ...TIMES],
  search: ['name', 'slug', 'uuid'],
};
export const tokens: TableSpec = {
  name: 'api_token',
  columns: ['id', 'uuid', 'user_id', 'name', 'token_hash', 'creation', 'expiration', 'revoked'],
  search: ['name', 'uuid'],
};
export const organizations: TableSpec = {
  name: 'organization',
  columns: ['id', 'uuid', 'name', 'slug', 'personal_user_id', 'claimed', 'license', ...TIMES],
  search: ['name', 'slug', 'uuid'],
};
export const roles: TableSpec = {
  name: 'organization_role',
  columns: ['organization_id', 'user_id', 'role', ...TIMES],
  key: ['organization_id', 'user_id'],
};
export const invitations: TableSpec = {
  name: 'invitation',
  columns: [
    'id',
    'uuid',
    'organization_id',
    'email',
    'role',
    'invited_by',
    'created',
    'expiration',
    'accepted',
  ],
  search: ['email', 'uuid'],
};
export const projects: TableSpec = {
  name: 'project',
  columns: ['id', 'uuid', 'organization_id', 'name', 'slug', 'url', 'visibility', ...TIMES],
  search: ['name', 'slug', 'uuid'],
};

function organizationsReader(connection: Connection): OrganizationsReader {
  return {
    ...tableReader<OrganizationRecord>(connection, organizations),
    async listForUser(userId, where, options) {
      const w = whereSql(organizations, where, 'o.');
      const p = pageSql(organizations, options, 'o.');
      const from = `FROM organization o JOIN organization_role r ON r.organization_id = o.id
        WHERE r.user_id = $user AND ${w.sql} AND ${p.search}`;
      const params = { ...w.params, ...p.params, user: userId };
      const [count] = await query<{ total: bigint }>(connection, `SELECT count(*) AS total ${from}`, params);
      const items = await query<OrganizationRecord>(
        connection,
        `SELECT o.* ${from} ORDER BY ${p.order} ${p.limit}`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
    licensed: () =>
      query<OrganizationRecord>(
        connection,
        `SELECT * FROM organization WHERE coalesce(license, '') <> '' ORDER BY id`,
      ),
    async members(organizationId, options) {
      const p = pageSql(users, options, 'u.');
      const from = `FROM organization_role r JOIN users u ON u.id = r.user_id
        WHERE r.organization_id = $organization AND ${p.search}`;
      const params = { ...p.params, organization: organizationId };
      const [count] = await query<{ total: bigint }>(connection, `SELECT count(*) AS total ${from}`, params);
      const items = await query<MemberRecord>(
        connection,
        `SELECT u.*, r.role, r.created AS role_created, r.modified AS role_modified ${from} ORDER BY ${p.order} ${p.limit}`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
  };
}

function projectsReader(connection: Connection): ProjectsReader {
  return {
    ...tableReader<ProjectRecord>(connection, projects),
    async listVisible(viewer, where, options) {
      const w = whereSql(projects, where, 'p.');
      const p = pageSql(projects, options, 'p.');
      const from = `FROM project p WHERE ${w.sql} AND ${p.search} AND (p.visibility = 'public' OR $admin::boolean
        OR p.organization_id IN (SELECT organization_id FROM organization_role WHERE user_id = $viewer::int))`;
      const params = { ...w.params, ...p.params, admin: viewer.admin, viewer: viewer.userId ?? -1 };
      const [count] = await query<{ total: bigint }>(connection, `SELECT count(*) AS total ${from}`, params);
      const items = await query<ProjectRecord>(
        connection,
        `SELECT p.* ${from} ORDER BY ${p.order} ${p.limit}`,
        params,
      );
      return { items, total: Number(count?.total ?? 0) };
    },
  };
}

/** Every table holding rows of a project, children before parents. */
const PROJECT_DATA = [
  ...PROJECT_NOTIFICATION_DATA,
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

function projectsWriter(connection: Connection): ProjectsWriter {
  return {
    ...tableWriter<ProjectRecord, never>(connection, projects),
    ...projectsReader(connection),
    async deleteWithData(projectId) {
      for (const statement of PROJECT_DATA) await execute(connection, statement, { project: projectId });
      for (const statement of REGRESSION_PRUNE) await execute(connection, statement);
    },
  };
}

export function accountReaders(
  connection: Connection,
): Pick<ReadRepositories, 'users' | 'tokens' | 'organizations' | 'roles' | 'invitations' | 'projects'> {
  return {
    users: tableReader(connection, users),
    tokens: tableReader(connection, tokens),
    organizations: organizationsReader(connection),
    roles: tableReader(connection, roles),
    invitations: tableReader(connection, invitations),
    projects: projectsReader(connection),
  };
}

export function accountWriters(
  connection: Connection,
): Pick<WriteRepositories, 'users' | 'tokens' | 'organizations' | 'roles' | 'invitations' | 'projects'> {
  return {
    users: tableWriter(connection, users),
    tokens: tableWriter(connection, tokens),
    organizations: { ...tableWriter(connection, organizations), ...organizationsReader(connection) },
    roles: tableWriter(connection, roles),
    invitations: tableWriter(connection, invitations),
    projects: projectsWriter(connection),
  };
}
