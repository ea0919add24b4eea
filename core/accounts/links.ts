import { UnauthorizedError } from '../errors.js';
import type { MetaReader, MetaWriter } from '../storage/storage.js';

/** What an e-mailed link does when it is confirmed: log in, or move the account to a new address. */
export type LinkPurpose = 'auth' | 'email';

const USED: Record<LinkPurpose, string> = {
  auth: 'the confirmation link was already used; log in again to get a new link',
  email: 'the confirmation link was already used; change the e-mail address again to get a new link',
};

const key = (purpose: LinkPurpose, userUuid: string) => `link_sequence:${purpose}:${userUuid}`;

/**
 * E-mailed links are single-use. Each carries the user's sequence number for its purpose when it was sent;
 * confirming one advances the number, so that link and every earlier one of that purpose stop working. The
 * number is kept in the database, so this holds across restarts and confirmations sent at the same moment
 * (write transactions are serialized).
 */
export async function linkSequence(
  meta: MetaReader,
  purpose: LinkPurpose,
  userUuid: string,
): Promise<number> {
  return Number((await meta.get(key(purpose, userUuid))) ?? 0);
}

/** Advances the sequence: every link of this purpose sent so far stops working. */
export async function retireLinks(meta: MetaWriter, purpose: LinkPurpose, userUuid: string): Promise<void> {
  await meta.set(key(purpose, userUuid), String((await linkSequence(meta, purpose, userUuid)) + 1));
}

/** Spends a link inside the confirming transaction; a link used or retired before is a 401. */
export async function spendLink(
  meta: MetaWriter,
  purpose: LinkPurpose,
  userUuid: string,
  sequence: number | undefined,
): Promise<void> {
  if (sequence !== (await linkSequence(meta, purpose, userUuid))) throw new UnauthorizedError(USED[purpose]);
  await retireLinks(meta, purpose, userUuid);
}
