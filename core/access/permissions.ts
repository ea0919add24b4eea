import type { OrganizationRole, ProjectRecord, UserRecord } from '../storage/records.js';
import type { Viewer } from '../storage/storage.js';

/** Who is calling: nobody, or a user authenticated by a console session or an API token. */
export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'user'; readonly user: UserRecord; readonly via: 'session' | 'api_token' };

export const ANONYMOUS: Caller = { kind: 'anonymous' };

export function viewerOf(caller: Caller): Viewer {
  return caller.kind === 'user'
    ? { userId: caller.user.id, admin: caller.user.admin }
    : { userId: null, admin: false };
}

export function isAdmin(caller: Caller): boolean {
  return caller.kind === 'user' && caller.user.admin;
}

/** Permission names of the `allowed` endpoints of organizations and projects. */
export const PERMISSIONS = [
  'view',
  'create',
  'edit',
  'delete',
  'manage',
  'view_role',
  'create_role',
  'edit_role',
  'delete_role',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ALL: ReadonlySet<Permission> = new Set(PERMISSIONS);
const NONE: ReadonlySet<Permission> = new Set();

/**
 * Roles of an organization. A leader may do everything in the organization and its projects. A member reads
 * everything, creates projects, and writes benchmark data (reports, dimensions, thresholds, alert status,
 * archiving) in its projects; changing project settings, deleting, and managing people are for leaders.
 */
const ORGANIZATION: Record<OrganizationRole, ReadonlySet<Permission>> = {
  leader: ALL,
  member: new Set(['view', 'view_role', 'create']),
};
const PROJECT: Record<OrganizationRole, ReadonlySet<Permission>> = {
  leader: ALL,
  member: new Set(['view', 'view_role', 'create', 'edit']),
};
const PUBLIC_PROJECT: ReadonlySet<Permission> = new Set(['view']);

export function organizationPermissions(
  caller: Caller,
  role: OrganizationRole | undefined,
): ReadonlySet<Permission> {
  if (isAdmin(caller)) return ALL;
  return role ? ORGANIZATION[role] : NONE;
}

export function projectPermissions(
  caller: Caller,
  project: ProjectRecord,
  role: OrganizationRole | undefined,
): ReadonlySet<Permission> {
  if (isAdmin(caller)) return ALL;
  if (role) return PROJECT[role];
  return project.visibility === 'public' ? PUBLIC_PROJECT : NONE;
}
