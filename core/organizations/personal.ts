import { randomUUID } from 'node:crypto';
import { uniqueSlug } from '../slug.js';
import type { UserRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';

/**
 * The user's personal organization (named after the user, the user its leader), created on first need: at
 * sign-up, or by the user's first run into a project that does not exist yet. Returns its id.
 */
export async function personalOrganization(
  tx: WriteRepositories,
  user: Pick<UserRecord, 'id' | 'name' | 'slug'>,
  now: Date,
): Promise<number> {
  const personal = await tx.organizations.find({ personal_user_id: user.id });
  if (personal) return personal.id;
  const organization = await tx.organizations.insert({
    uuid: randomUUID(),
    name: user.name,
    slug: await uniqueSlug(user.slug, async (slug) => !!(await tx.organizations.find({ slug }))),
    personal_user_id: user.id,
    claimed: now,
    license: null,
    created: now,
    modified: now,
  });
  await tx.roles.insert({
    organization_id: organization.id,
    user_id: user.id,
    role: 'leader',
    created: now,
    modified: now,
  });
  return organization.id;
}
