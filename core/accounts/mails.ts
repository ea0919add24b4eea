import { obfuscateEmail, UnavailableError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { UserRecord } from '../storage/records.js';
import { linkSequence, type LinkPurpose } from './links.js';
import type { MailMessage } from './mailer.js';
import { TOKEN_TTL } from './tokens.js';

/**
 * The account e-mails. Sign-up and login send exactly one of them to the address given, whether or not an
 * account uses it, so only the owner of the address learns which (see docs/security.md).
 */

function consoleUrl(ctx: ServiceContext, path: string): string {
  return `${ctx.config.current.console.url.replace(/\/$/, '')}${path}`;
}

/** A single-use link to the console's confirm page for `user`, for one purpose. */
async function confirmLink(
  ctx: ServiceContext,
  user: UserRecord,
  purpose: LinkPurpose,
  email?: string,
): Promise<string> {
  const seq = await ctx.storage.read((r) => linkSequence(r.meta, purpose, user.uuid));
  const { token } = await ctx.tokens.issue(purpose, user.uuid, { seq, ...(email ? { email } : {}) });
  return consoleUrl(ctx, `/auth/confirm?token=${token}`);
}

/** Sends one message; a relay failure is logged and answered 503 with `failure`, which says what to do. */
export async function deliver(ctx: ServiceContext, message: MailMessage, failure: string): Promise<void> {
  try {
    await ctx.mailer.send(message);
  } catch (error) {
    ctx.logger.error({ err: error, subject: message.subject }, 'e-mail not sent');
    throw new UnavailableError(failure);
  }
}

export async function loginLinkMail(ctx: ServiceContext, user: UserRecord, note = ''): Promise<MailMessage> {
  const link = await confirmLink(ctx, user, 'auth');
  return {
    to: user.email,
    subject: 'Your Benchtrack login link',
    link,
    text: `Hello ${user.name},\n\n${note}Open this link within ${TOKEN_TTL.auth / 60} minutes to log in to Benchtrack:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this message.\n`,
  };
}

export function noAccountMail(ctx: ServiceContext, email: string): MailMessage {
  return {
    to: email,
    subject: 'No Benchtrack account uses this address',
    text: `Hello,\n\nSomeone asked to log in to Benchtrack at ${consoleUrl(ctx, '')} with this address, but no account uses it. To create one, sign up at ${consoleUrl(ctx, '/auth/signup')}.\n\nIf you did not ask for it, ignore this message.\n`,
  };
}

export function lockedMail(user: UserRecord): MailMessage {
  return {
    to: user.email,
    subject: 'Your Benchtrack account is locked',
    text: `Hello ${user.name},\n\nSomeone asked to log in to Benchtrack with this address, but the account is locked, so no login link was sent. Ask a server administrator to unlock it.\n`,
  };
}

/** The confirmation of a new address: sent to the new address; the change happens when the link is opened. */
export async function emailChangeMail(
  ctx: ServiceContext,
  user: UserRecord,
  email: string,
): Promise<MailMessage> {
  const link = await confirmLink(ctx, user, 'email', email);
  return {
    to: email,
    subject: 'Confirm your new Benchtrack e-mail address',
    link,
    text: `Hello ${user.name},\n\nOpen this link within ${TOKEN_TTL.email / 60} minutes to make this the e-mail address of your Benchtrack account (login links will come here):\n\n${link}\n\nIt works once. If you did not ask for it, ignore this message: nothing changes.\n`,
  };
}

/** The notice to the current address that someone asked to move the account elsewhere. */
export function emailChangeNotice(user: UserRecord, email: string): MailMessage {
  return {
    to: user.email,
    subject: 'Your Benchtrack e-mail address is being changed',
    text: `Hello ${user.name},\n\nA logged-in session of your Benchtrack account asked to change its e-mail address to ${obfuscateEmail(email)}. Nothing changes until the link sent to that address is opened.\n\nIf it was not you, someone holds a session of your account: ask a server administrator to lock it, and revoke your API tokens.\n`,
  };
}
