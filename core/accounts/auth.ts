import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { acceptSchema, loginSchema, signupSchema } from '../schemas/accounts.js';
import { organizationJson, userJson } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { uniqueSlug } from '../slug.js';
import type { OrganizationRecord, UserRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import type { Caller } from '../access/permissions.js';
import { findOrganization, type ResourceRef } from '../access/resolve.js';
import { moveToAddress } from './email-change.js';
import { spendLink, type LinkPurpose } from './links.js';
import { deliver, lockedMail, loginLinkMail, noAccountMail } from './mails.js';
import { Tokens } from './tokens.js';
import { personalOrganization } from '../organizations/personal.js';

/**
 * Sign-up, login by e-mail link, confirmation, and invitations. Every login sends a single-use link to
 * `<console.url>/auth/confirm?token=...`; confirming it returns a session token.
 */
export class AuthService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Creates the account and mails its login link. An address that already has an account gets the same 202,
   * nothing is written, and its owner is mailed a login link instead (no account enumeration).
   */
  async signup(input: z.output<typeof signupSchema>): Promise<{ email: string }> {
    const { user, created } = await this.ctx.storage.transaction(async (tx) => {
      const existing = await tx.users.find({ email: input.email });
      if (existing) return { user: existing, created: false };
      if (input.slug && (await tx.users.find({ slug: input.slug }))) {
        throw new ConflictError(`user slug "${input.slug}" is taken; choose another or leave it out`);
      }
      return { user: await this.#createUser(tx, input), created: true };
    });
    const message = user.locked
      ? lockedMail(user)
      : await loginLinkMail(
          this.ctx,
          user,
          created
            ? ''
            : 'Someone tried to sign up with this address, which already has a Benchtrack account. ',
        );
    await deliver(
      this.ctx,
      message,
      'the login e-mail could not be sent (mail relay failed); your account exists: log in again later to get a new link',
    );
    return { email: input.email };
  }

  /**
   * Mails a login link. Unknown and locked addresses get the same 202 and a message saying why no link came,
   * so the answer does not tell who has an account.
   */
  async login(input: z.output<typeof loginSchema>): Promise<{ email: string }> {
    const user = await this.ctx.storage.transaction(async (tx) => {
      const found = await tx.users.find({ email: input.email });
      if (found && !found.locked && input.invite) await this.#acceptInvitation(tx, found, input.invite);
      return found;
    });
    const message = !user
      ? noAccountMail(this.ctx, input.email)
      : user.locked
        ? lockedMail(user)
        : await loginLinkMail(this.ctx, user);
    await deliver(
      this.ctx,
      message,
      'the login e-mail could not be sent (mail relay failed); try again later',
    );
    return { email: input.email };
  }

  /**
   * Exchanges an e-mailed link for a session: a login link, or the link that confirms a new address (which
   * moves the account to it first). Each link works once.
   */
  async confirm(token: string) {
    const purpose: LinkPurpose = Tokens.audienceOf(token) === 'email' ? 'email' : 'auth';
    const claims = await this.ctx.tokens.verify(token, purpose);
    const user = await this.ctx.storage.transaction(async (tx) => {
      const found = await tx.users.find({ uuid: claims.sub });
      if (!found) throw new NotFoundError('the account of this link no longer exists; sign up again');
      if (found.locked) throw new ForbiddenError('this account is locked; ask a server administrator');
      await spendLink(tx.meta, purpose, found.uuid, claims.seq);
      return purpose === 'email' ? moveToAddress(tx, found, claims.email, this.ctx.now()) : found;
    });
    return this.#session(user);
  }

  /**
   * Logs in the owner of an address a code host has verified, creating the account when there is none, and
   * honours the invitation or claim the login started with. Answers like {@link confirm}.
   */
  async signInVerified(
    identity: { email: string; name: string },
    state: { invite?: string | undefined; claim?: string | undefined },
  ) {
    const user = await this.ctx.storage.transaction(async (tx) => {
      const found = await tx.users.find({ email: identity.email });
      if (!found) return this.#createUser(tx, { ...identity, ...state });
      if (found.locked) throw new ForbiddenError('this account is locked; ask a server administrator');
      if (state.invite) await this.#acceptInvitation(tx, found, state.invite);
      if (state.claim) await claimOrganization(tx, found, state.claim, this.ctx.now());
      return found;
    });
    return this.#session(user);
  }

  async #session(user: UserRecord) {
    const session = await this.ctx.tokens.issue('client', user.uuid);
    return {
      user: userJson(user),
      token: session.token,
      creation: session.issued.toISOString(),
      expiration: session.expires.toISOString(),
    };
  }

  /** A new account (the server's first is its administrator) with its personal organization or invitation. */
  async #createUser(
    tx: WriteRepositories,
    input: {
      name: string;
      slug?: string | undefined;
      email: string;
      invite?: string | undefined;
      claim?: string | undefined;
    },
  ): Promise<UserRecord> {
    const now = this.ctx.now();
    const first = (await tx.users.count({})) === 0;
    const user = await tx.users.insert({
      uuid: randomUUID(),
      name: input.name,
      slug: input.slug ?? (await uniqueSlug(input.name, async (slug) => !!(await tx.users.find({ slug })))),
      email: input.email,
      admin: first,
      locked: false,
      created: now,
      modified: now,
    });
    if (input.invite) await this.#acceptInvitation(tx, user, input.invite);
    else await personalOrganization(tx, user, now);
    if (input.claim) await claimOrganization(tx, user, input.claim, now);
    return user;
  }

  /** Accepts an invitation for the logged-in user (spec: invitations can be accepted while logged in). */
  async accept(caller: Caller & { kind: 'user' }, input: z.output<typeof acceptSchema>) {
    const organization = await this.ctx.storage.transaction((tx) =>
      this.#acceptInvitation(tx, caller.user, input.invite),
    );
    return organizationJson(organization);
  }

  async #acceptInvitation(
    tx: WriteRepositories,
    user: UserRecord,
    token: string,
  ): Promise<OrganizationRecord> {
    const claims = await this.ctx.tokens.verify(token, 'invite');
    const invitation = await tx.invitations.find({ uuid: claims.sub });
    if (!invitation || invitation.accepted) {
      throw new NotFoundError('this invitation was already used or withdrawn; ask for a new one');
    }
    if (invitation.email !== user.email) {
      throw new ForbiddenError(
        `this invitation was sent to ${invitation.email}; log in with that address to accept it`,
      );
    }
    const organization = await tx.organizations.find({ id: invitation.organization_id });
    if (!organization) throw new NotFoundError('the organization of this invitation no longer exists');
    const now = this.ctx.now();
    const existing = await tx.roles.find({ organization_id: organization.id, user_id: user.id });
    if (existing)
      await tx.roles.update(
        { organization_id: organization.id, user_id: user.id },
        { role: invitation.role, modified: now },
      );
    else {
      await tx.roles.insert({
        organization_id: organization.id,
        user_id: user.id,
        role: invitation.role,
        created: now,
        modified: now,
      });
    }
    await tx.invitations.update({ id: invitation.id }, { accepted: now });
    return organization;
  }
}

/**
 * Makes the user leader of an organization created by anonymous runs (reference section 6.4). Someone else's
 * claimed organization is a 404, as if it did not exist; only its members and administrators learn it is
 * claimed (409).
 */
export async function claimOrganization(
  tx: WriteRepositories,
  user: UserRecord,
  ref: ResourceRef,
  now: Date,
): Promise<OrganizationRecord> {
  const organization = await findOrganization(tx, ref);
  const member =
    organization &&
    (user.admin || !!(await tx.roles.find({ organization_id: organization.id, user_id: user.id })));
  // A claimed organization the user may not see is answered like a missing one (spec: Errors, 404).
  if (!organization || (organization.claimed && !member))
    throw new NotFoundError(`organization "${ref}" not found`);
  if (organization.claimed)
    throw new ConflictError(`organization "${organization.slug}" has already been claimed`);
  await tx.organizations.update({ id: organization.id }, { claimed: now, modified: now });
  await tx.roles.insert({
    organization_id: organization.id,
    user_id: user.id,
    role: 'leader',
    created: now,
    modified: now,
  });
  return { ...organization, claimed: now, modified: now };
}
