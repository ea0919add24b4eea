import { ConflictError, UnauthorizedError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { UserRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { retireLinks } from './links.js';
import { deliver, emailChangeMail, emailChangeNotice } from './mails.js';

/**
 * Asks to move an account to a new address: a notice goes to the current address, then a single-use
 * confirmation link to the new one. Nothing changes until that link is confirmed (`moveToAddress`), so a
 * session or token that leaked cannot redirect the login links by itself.
 */
export async function requestEmailChange(
  ctx: ServiceContext,
  user: UserRecord,
  email: string,
): Promise<void> {
  const failure =
    'the e-mail change could not be mailed (mail relay failed); your other changes are saved: change the e-mail address again later';
  await deliver(ctx, emailChangeNotice(user, email), failure);
  await deliver(ctx, await emailChangeMail(ctx, user, email), failure);
}

/**
 * Confirms an e-mail change inside the confirming transaction: the account moves to the new address, and the
 * login links sent to the old one stop working.
 */
export async function moveToAddress(
  tx: WriteRepositories,
  user: UserRecord,
  email: string | undefined,
  now: Date,
): Promise<UserRecord> {
  if (!email)
    throw new UnauthorizedError(
      'the confirmation link is invalid; change the e-mail address again to get a new link',
    );
  const holder = await tx.users.find({ email });
  if (holder && holder.id !== user.id) {
    throw new ConflictError(`e-mail ${email} is now used by another account; choose another address`);
  }
  await tx.users.update({ id: user.id }, { email, modified: now });
  await retireLinks(tx.meta, 'auth', user.uuid);
  return { ...user, email, modified: now };
}
