import { randomUUID } from 'node:crypto';
import { claimOrganization } from '../accounts/auth.js';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { personalOrganization } from '../organizations/personal.js';
import { isSlug, isUuid, slugify, uniqueSlug } from '../slug.js';
import type { OrganizationRecord, ProjectRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { insertProject } from './projects.js';

export interface RunProject {
  readonly project: ProjectRecord;
  readonly created: boolean;
  /** The project's organization as read here, when nothing here changed it. */
  readonly organization?: OrganizationRecord;
}

/**
 * The project a run writes to (spec: a run that targets a project that does not exist creates it, for
 * anonymous and authenticated callers alike; reference section 6.4):
 * - an existing project of an unclaimed organization takes anonymous runs; an authenticated run claims it;
 * - once its organization is claimed, anonymous runs are refused: 401 for a public project, and for a private
 *   one the 404 a missing project gets, so the answer does not tell that it exists;
 * - a missing project is created: by an anonymous caller in a new unclaimed organization, by a user in their
 *   personal organization (a name already used there gets a " (2)" suffix).
 */
export async function resolveRunProject(
  tx: WriteRepositories,
  caller: Caller,
  ref: string | undefined,
  fallbackName: string,
  now: Date,
  /** Without `ref`: the slug to look up and to create with (derived from the run context). */
  fallbackSlug?: string,
): Promise<RunProject> {
  const key = ref ?? fallbackSlug;
  const existing = key
    ? await tx.projects.find(isUuid(key) ? { uuid: key.toLowerCase() } : { slug: key })
    : undefined;
  if (existing) {
    const organization = (await tx.organizations.find({
      id: existing.organization_id,
    })) as OrganizationRecord;
    if (organization.claimed === null) {
      if (caller.kind === 'user') {
        await claimOrganization(tx, caller.user, organization.uuid, now);
        return { project: existing, created: false };
      }
      return { project: existing, created: false, organization };
    }
    if (caller.kind === 'anonymous') {
      if (existing.visibility === 'private') throw projectNotFound(ref ?? existing.slug);
      throw new UnauthorizedError(
        `project "${existing.slug}" belongs to a claimed organization: authenticate with an API token (Authorization: Bearer <token>)`,
      );
    }
    // by the caller's own reference, so that a refusal names only what the caller sent
    const { project } = await requireProject(tx, caller, key as string, 'create');
    return { project, created: false, organization };
  }
  if (ref && isUuid(ref)) throw projectNotFound(ref);
  const name = (ref ?? fallbackName).slice(0, 64) || 'Project';
  const slug = ref ? (isSlug(ref) ? ref : undefined) : fallbackSlug;
  const organizationId =
    caller.kind === 'user'
      ? await personalOrganization(tx, caller.user, now)
      : await unclaimedOrganization(tx, name, now);
  const project = await insertProject(
    tx,
    organizationId,
    { name: await freeName(tx, organizationId, name), ...(slug ? { slug } : {}) },
    now,
  );
  return { project, created: true };
}

async function unclaimedOrganization(tx: WriteRepositories, name: string, now: Date): Promise<number> {
  const organization = await tx.organizations.insert({
    uuid: randomUUID(),
    name,
    slug: await uniqueSlug(
      slugify(name) || 'project',
      async (slug) => !!(await tx.organizations.find({ slug })),
    ),
    personal_user_id: null,
    claimed: null,
    license: null,
    created: now,
    modified: now,
  });
  return organization.id;
}

async function freeName(tx: WriteRepositories, organizationId: number, name: string): Promise<string> {
  let candidate = name;
  for (let n = 2; await tx.projects.find({ organization_id: organizationId, name: candidate }); n++) {
    candidate = `${name.slice(0, 64 - ` (${n})`.length)} (${n})`;
  }
  return candidate;
}

function projectNotFound(ref: string): NotFoundError {
  return new NotFoundError(`project "${ref}" not found`);
}
