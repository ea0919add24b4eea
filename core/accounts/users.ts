import type { z } from 'zod';
import { isAdmin, type Caller } from '../access/permissions.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { userJson, type updateUserSchema } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { isUuid } from '../slug.js';
import type { UserRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { ListOptions } from '../storage/tables.js';
import { requestEmailChange } from './email-change.js';

export type UserCaller = Caller & { kind: 'user' };

/**
 * A user visible to the caller: oneself, or anyone for a server administrator. Others are a 404, like a user
 * that does not exist.
 */
export async function requireUser(
  repos: ReadRepositories,
  caller: UserCaller,
  ref: string,
): Promise<UserRecord> {
  const user = await repos.users.find(isUuid(ref) ? { uuid: ref.toLowerCase() } : { slug: ref });
  if (!user || (user.id !== caller.user.id && !isAdmin(caller)))
    throw new NotFoundError(`user "${ref}" not found`);
  return user;
}

/** Accounts: a user's own settings, and the user list of server administrators. */
export class UsersService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(caller: UserCaller, options: ListOptions<UserRecord> & { name?: string }) {
    if (!isAdmin(caller)) throw new ForbiddenError('listing users is for server administrators');
    const page = await this.ctx.storage.read((r) =>
      r.users.list(options.name ? { name: options.name } : {}, options),
    );
    return { items: page.items.map(userJson), total: page.total };
  }

  async get(caller: UserCaller, ref: string) {
    return userJson(await this.ctx.storage.read((r) => requireUser(r, caller, ref)));
  }

  /**
   * Applies the changes at once, except a new e-mail address: that needs a console session (not an API
   * token) and is confirmed through a link mailed to the new address, with a notice to the current one. The
   * answer shows the account as it is, still with the current address until the link is opened.
   */
  async update(caller: UserCaller, ref: string, patch: z.output<typeof updateUserSchema>) {
    if ((patch.admin !== undefined || patch.locked !== undefined) && !isAdmin(caller)) {
      throw new ForbiddenError('admin and locked can only be changed by a server administrator');
    }
    const { email, ...changes } = patch;
    const { updated, newEmail } = await this.ctx.storage.transaction(async (tx) => {
      const user = await requireUser(tx, caller, ref);
      const newEmail = email !== undefined && email !== user.email ? email : undefined;
      if (newEmail && caller.via !== 'session') {
        throw new ForbiddenError(
          'an API token cannot change the e-mail address; log in to the console and change it there',
        );
      }
      if (changes.slug && changes.slug !== user.slug && (await tx.users.find({ slug: changes.slug }))) {
        throw new ConflictError(`user slug "${changes.slug}" is taken`);
      }
      if (changes.admin === false && user.admin && (await tx.users.count({ admin: true })) === 1) {
        throw new ConflictError(
          'this is the last server administrator; make another user administrator first',
        );
      }
      await tx.users.update({ id: user.id }, { ...changes, modified: this.ctx.now() });
      return { updated: (await tx.users.find({ id: user.id })) as UserRecord, newEmail };
    });
    if (newEmail) await requestEmailChange(this.ctx, updated, newEmail);
    return userJson(updated);
  }
}
