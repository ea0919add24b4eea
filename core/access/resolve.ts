import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
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
 * Organizations are private: a non-member gets the same 404 as for a missing one.
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
  if (!organization || !permissions.has('view')) throw new NotFoundError(`organization "${ref}" not found`);
  if (!permissions.has(permission)) {
    throw new ForbiddenError(`${permission} on organization "${organization.slug}" needs the leader role`);
  }
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
 * Resolves a project by UUID or slug and checks a permission. A private project the caller may not see is a
 * 404 exactly like a missing one; on a public project a missing permission is 401 for anonymous callers (log
 * in) and 403 for users.
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
  if (!project || !permissions.has('view')) throw new NotFoundError(`project "${ref}" not found`);
  if (!permissions.has(permission)) {
    if (caller.kind === 'anonymous') {
      throw new UnauthorizedError(
        `${permission} on project "${project.slug}" needs a logged-in member: send Authorization: Bearer <token>`,
      );
    }
    throw new ForbiddenError(
      `${permission} on project "${project.slug}" needs ${role ? 'the leader role' : 'membership'} in its organization`,
    );
  }
  return { project, role, permissions };
}

export function projectRef(ref: ResourceRef) {
  return byRef(ref);
}
