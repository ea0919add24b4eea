import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { TOKEN_TTL } from '../accounts/tokens.js';
import type { UserCaller } from '../accounts/users.js';
import { requireOrganization } from '../access/resolve.js';
import { ConflictError, NotFoundError, UnavailableError } from '../errors.js';
import { memberJson, type newMemberSchema } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { isUuid } from '../slug.js';
import type { MemberRecord, OrganizationRole, UserRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import type { ListOptions } from '../storage/tables.js';

/** Members of an organization: list, invite by e-mail, change roles, remove. */
export class MembersService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(caller: UserCaller, orgRef: string, options: ListOptions<MemberRecord>) {
    return this.ctx.storage.read(async (r) => {
      const { organization } = await requireOrganization(r, caller, orgRef, 'view_role');
      const page = await r.organizations.members(organization.id, options);
      return { items: page.items.map(memberJson), total: page.total };
    });
  }

  async get(caller: UserCaller, orgRef: string, userRef: string) {
    return this.ctx.storage.read(async (r) => {
      const { organization } = await requireOrganization(r, caller, orgRef, 'view_role');
      return memberJson(await findMember(r, organization.id, userRef));
    });
  }

  /** Invites an address: an e-mail with a link to accept, valid for a week. */
  async invite(caller: UserCaller, orgRef: string, input: z.output<typeof newMemberSchema>) {
    const { organization, token } = await this.ctx.storage.transaction(async (tx) => {
      const { organization } = await requireOrganization(tx, caller, orgRef, 'create_role');
      const existing = await tx.users.find({ email: input.email });
      if (existing && (await tx.roles.find({ organization_id: organization.id, user_id: existing.id }))) {
        throw new ConflictError(`${input.email} is already a member of "${organization.slug}"`);
      }
      const uuid = randomUUID();
      const issued = await this.ctx.tokens.issue('invite', uuid, { email: input.email });
      await tx.invitations.insert({
        uuid,
        organization_id: organization.id,
        email: input.email,
        role: input.role,
        invited_by: caller.user.id,
        created: issued.issued,
        expiration: issued.expires,
        accepted: null,
      });
      return { organization, token: issued.token };
    });
    const link = `${this.ctx.config.current.console.url.replace(/\/$/, '')}/auth/invite?token=${token}`;
    try {
      await this.ctx.mailer.send({
        to: input.email,
        subject: `You are invited to ${organization.name} on Benchtrack`,
        link,
        text: `Hello${input.name ? ` ${input.name}` : ''},\n\n${caller.user.name} invites you to join ${organization.name} on Benchtrack as ${input.role}.\nOpen this link within ${TOKEN_TTL.invite / 86_400} days to accept (sign up or log in first if you need to):\n\n${link}\n`,
      });
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'invitation e-mail not sent');
      throw new UnavailableError(
        'the invitation e-mail could not be sent (mail relay failed); invite again later',
      );
    }
    return { email: input.email };
  }

  async update(caller: UserCaller, orgRef: string, userRef: string, role: OrganizationRole) {
    return this.ctx.storage.transaction(async (tx) => {
      const { organization } = await requireOrganization(tx, caller, orgRef, 'edit_role');
      const member = await findMember(tx, organization.id, userRef);
      if (member.role === 'leader' && role !== 'leader') await keepOneLeader(tx, organization.id);
      const modified = this.ctx.now();
      await tx.roles.update({ organization_id: organization.id, user_id: member.id }, { role, modified });
      return memberJson({ ...member, role, role_modified: modified });
    });
  }

  /** Removes a member; anyone may leave, removing others needs the leader role. */
  async remove(caller: UserCaller, orgRef: string, userRef: string): Promise<void> {
    await this.ctx.storage.transaction(async (tx) => {
      const self = userRef === caller.user.uuid || userRef === caller.user.slug;
      const { organization } = await requireOrganization(tx, caller, orgRef, self ? 'view' : 'delete_role');
      const member = await findMember(tx, organization.id, userRef);
      if (member.role === 'leader') await keepOneLeader(tx, organization.id);
      await tx.roles.delete({ organization_id: organization.id, user_id: member.id });
    });
  }
}

async function findMember(
  r: ReadRepositories,
  organizationId: number,
  userRef: string,
): Promise<MemberRecord> {
  const user: UserRecord | undefined = await r.users.find(
    isUuid(userRef) ? { uuid: userRef.toLowerCase() } : { slug: userRef },
  );
  const role = user ? await r.roles.find({ organization_id: organizationId, user_id: user.id }) : undefined;
  if (!user || !role) throw new NotFoundError(`member "${userRef}" not found`);
  return { ...user, role: role.role, role_created: role.created, role_modified: role.modified };
}

async function keepOneLeader(tx: WriteRepositories, organizationId: number): Promise<void> {
  if ((await tx.roles.count({ organization_id: organizationId, role: 'leader' })) <= 1) {
    throw new ConflictError('an organization needs at least one leader; make someone else leader first');
  }
}
