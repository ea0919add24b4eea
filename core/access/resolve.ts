import { NotFoundError, UnauthorizedError } from '../errors.js';
import { isUuid } from '../slug.js';
import type { OrganizationRecord, OrganizationRole, ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import { organizationPermissions, projectPermissions, type Caller, type Permission } from './permissions.js';

/** A path parameter naming a resource by UUID or slug. */
export type ResourceRef = string;

function byRef(ref: ResourceRef): { uuid: string } | { slug: string } {
  return isUuid(ref) ? { uuid: ref.toLowerCase() } : { slug: ref };
}

export async function roleIn(
  repos: ReadRepositories,
  caller: Caller,
  organizationId: number,
): Promise<OrganizationRole | undefined> {
  if (caller.kind !== 'user') return undefined;
  return (await repos.roles.find({ organization_id: organizationId, user_id: caller.user.id }))?.role;
}

export interface OrganizationAccess {
  readonly organization: OrganizationRecord;
  readonly role: OrganizationRole | undefined;
  readonly permissions: ReadonlySet<Permission>;
}

/**
 * Resolves an organization the caller belongs to (or any, for administrators) and checks a permission.
 * Organizations are private: a non-member gets the same 404 as for a missing one, and so does a member who lacks
 * the permission (spec: a missing resource and a missing permission are not distinguished).
 */
export async function requireOrganization(
  repos: ReadRepositories,
  caller: Caller,
  ref: ResourceRef,
  permission: Permission,
): Promise<OrganizationAccess> {
  const organization = await repos.organizations.find(byRef(ref));
  const role = organization ? await roleIn(repos, caller, organization.id) : undefined;
  const permissions = organizationPermissions(caller, role);
  if (!organization || !permissions.has(permission))
    throw new NotFoundError(`organization "${ref}" not found`);
  return { organization, role, permissions };
}

export async function findOrganization(repos: ReadRepositories, ref: ResourceRef) {
  return repos.organizations.find(byRef(ref));
}

export interface ProjectAccess {
  readonly project: ProjectRecord;
  readonly role: OrganizationRole | undefined;
  readonly permissions: ReadonlySet<Permission>;
}

/**
 * Resolves a project by UUID or slug and checks a permission. A missing permission is a 404 exactly like a missing
 * project (spec: the two are not distinguished), on a public project too, where the caller may read what it may
 * not change; only an anonymous caller who may read it is told to authenticate (401).
 */
export async function requireProject(
  repos: ReadRepositories,
  caller: Caller,
  ref: ResourceRef,
  permission: Permission,
): Promise<ProjectAccess> {
  const project = await repos.projects.find(byRef(ref));
  const role = project ? await roleIn(repos, caller, project.organization_id) : undefined;
  const permissions = project ? projectPermissions(caller, project, role) : new Set<Permission>();
  if (project && permissions.has('view') && !permissions.has(permission) && caller.kind === 'anonymous') {
    throw new UnauthorizedError(
      `${permission} on project "${project.slug}" needs a logged-in member: send Authorization: Bearer <token>`,
    );
  }
  if (!project || !permissions.has(permission)) throw new NotFoundError(`project "${ref}" not found`);
  return { project, role, permissions };
}

export function projectRef(ref: ResourceRef) {
  return byRef(ref);
}
