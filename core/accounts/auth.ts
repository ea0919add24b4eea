import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError, UnavailableError } from '../errors.js';
import type { acceptSchema, loginSchema, signupSchema } from '../schemas/accounts.js';
import { organizationJson, userJson } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { uniqueSlug } from '../slug.js';
import type { OrganizationRecord, UserRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import type { Caller } from '../access/permissions.js';
import { TOKEN_TTL } from './tokens.js';

/**
 * Sign-up, login by e-mail link, confirmation, and invitations. Every login sends a link to
 * `<console.url>/auth/confirm?token=...`; confirming it returns a session token.
 */
export class AuthService {
  constructor(private readonly ctx: ServiceContext) {}

  async signup(input: z.output<typeof signupSchema>): Promise<{ email: string }> {
    const user = await this.ctx.storage.transaction(async (tx) => {
      if (await tx.users.find({ email: input.email })) {
        throw new ConflictError(`an account with e-mail ${input.email} already exists; log in instead`);
      }
      if (input.slug && (await tx.users.find({ slug: input.slug }))) {
        throw new ConflictError(`user slug "${input.slug}" is taken; choose another or leave it out`);
      }
      const now = this.ctx.now();
      const first = (await tx.users.count({})) === 0;
      const created = await tx.users.insert({
        uuid: randomUUID(),
        name: input.name,
        slug: input.slug ?? (await uniqueSlug(input.name, async (slug) => !!(await tx.users.find({ slug })))),
        email: input.email,
        admin: first,
        locked: false,
        created: now,
        modified: now,
      });
      if (input.invite) await this.#acceptInvitation(tx, created, input.invite);
      else await createPersonalOrganization(tx, created, now);
      if (input.claim) await claimOrganization(tx, created, input.claim, now);
      return created;
    });
    await this.#sendLoginLink(user);
    return { email: user.email };
  }

  async login(input: z.output<typeof loginSchema>): Promise<{ email: string }> {
    const user = await this.ctx.storage.transaction(async (tx) => {
      const found = await tx.users.find({ email: input.email });
      if (!found) throw new NotFoundError(`no account uses ${input.email}; sign up first`);
      if (found.locked) throw new ForbiddenError('this account is locked; ask a server administrator');
      if (input.invite) await this.#acceptInvitation(tx, found, input.invite);
      return found;
    });
    await this.#sendLoginLink(user);
    return { email: user.email };
  }

  /** Exchanges the e-mailed link's token for a session. */
  async confirm(token: string) {
    const claims = await this.ctx.tokens.verify(token, 'auth');
    const user = await this.ctx.storage.read((r) => r.users.find({ uuid: claims.sub }));
    if (!user) throw new NotFoundError('the account of this link no longer exists; sign up again');
    if (user.locked) throw new ForbiddenError('this account is locked; ask a server administrator');
    const session = await this.ctx.tokens.issue('client', user.uuid);
    return {
      user: userJson(user),
      token: session.token,
      creation: session.issued.toISOString(),
      expiration: session.expires.toISOString(),
    };
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

  async #sendLoginLink(user: UserRecord): Promise<void> {
    const { token } = await this.ctx.tokens.issue('auth', user.uuid);
    const link = `${this.ctx.config.current.console.url.replace(/\/$/, '')}/auth/confirm?token=${token}`;
    const minutes = TOKEN_TTL.auth / 60;
    try {
      await this.ctx.mailer.send({
        to: user.email,
        subject: 'Your Benchtrack login link',
        link,
        text: `Hello ${user.name},\n\nOpen this link within ${minutes} minutes to log in to Benchtrack:\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
      });
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'login e-mail not sent');
      throw new UnavailableError(
        'the login e-mail could not be sent (mail relay failed); your account exists: log in again later to get a new link',
      );
    }
  }
}

async function createPersonalOrganization(tx: WriteRepositories, user: UserRecord, now: Date): Promise<void> {
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
}

/** Makes the user leader of an organization created by anonymous runs (reference section 6.4). */
export async function claimOrganization(
  tx: WriteRepositories,
  user: UserRecord,
  organizationUuid: string,
  now: Date,
): Promise<OrganizationRecord> {
  const organization = await tx.organizations.find({ uuid: organizationUuid });
  if (!organization) throw new NotFoundError(`organization "${organizationUuid}" not found`);
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
