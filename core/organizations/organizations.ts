import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { claimOrganization } from '../accounts/auth.js';
import type { UserCaller } from '../accounts/users.js';
import type { Permission } from '../access/permissions.js';
import { requireOrganization } from '../access/resolve.js';
import { ConflictError } from '../errors.js';
import { verifyLicense } from '../plus/license.js';
import {
  organizationJson,
  type newOrganizationSchema,
  type updateOrganizationSchema,
} from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { uniqueSlug } from '../slug.js';
import type { OrganizationRecord } from '../storage/records.js';
import type { ListOptions } from '../storage/tables.js';

/** Organizations: create, list the caller's, view, update, delete, claim, and the `allowed` check. */
export class OrganizationsService {
  constructor(private readonly ctx: ServiceContext) {}

  async create(caller: UserCaller, input: z.output<typeof newOrganizationSchema>) {
    const organization = await this.ctx.storage.transaction(async (tx) => {
      if (input.slug && (await tx.organizations.find({ slug: input.slug }))) {
        throw new ConflictError(`organization slug "${input.slug}" is taken; choose another or leave it out`);
      }
      const now = this.ctx.now();
      const created = await tx.organizations.insert({
        uuid: randomUUID(),
        name: input.name,
        slug:
          input.slug ??
          (await uniqueSlug(input.name, async (slug) => !!(await tx.organizations.find({ slug })))),
        personal_user_id: null,
        claimed: now,
        license: null,
        created: now,
        modified: now,
      });
      await tx.roles.insert({
        organization_id: created.id,
        user_id: caller.user.id,
        role: 'leader',
        created: now,
        modified: now,
      });
      return created;
    });
    return organizationJson(organization);
  }

  /** The organizations the caller is a member of (administrators open others directly). */
  async list(caller: UserCaller, options: ListOptions<OrganizationRecord> & { name?: string }) {
    const where = options.name ? { name: options.name } : {};
    const page = await this.ctx.storage.read((r) =>
      r.organizations.listForUser(caller.user.id, where, options),
    );
    return { items: page.items.map(organizationJson), total: page.total };
  }

  async get(caller: UserCaller, ref: string) {
    const { organization } = await this.ctx.storage.read((r) => requireOrganization(r, caller, ref, 'view'));
    return organizationJson(organization);
  }

  async update(caller: UserCaller, ref: string, patch: z.output<typeof updateOrganizationSchema>) {
    const updated = await this.ctx.storage.transaction(async (tx) => {
      const { organization } = await requireOrganization(
        tx,
        caller,
        ref,
        patch.license === undefined ? 'edit' : 'manage',
      );
      if (patch.license) {
        await verifyLicense(
          patch.license,
          organization.uuid,
          this.ctx.config.current.plus?.license_keys ?? [],
          this.ctx.now(),
        );
      }
      if (
        patch.slug &&
        patch.slug !== organization.slug &&
        (await tx.organizations.find({ slug: patch.slug }))
      ) {
        throw new ConflictError(`organization slug "${patch.slug}" is taken`);
      }
      const modified = this.ctx.now();
      await tx.organizations.update({ id: organization.id }, { ...patch, modified });
      return { ...organization, ...patch, modified };
    });
    return organizationJson(updated);
  }

  /** Deletes an organization without projects (projects hold data: delete them first, explicitly). */
  async delete(caller: UserCaller, ref: string): Promise<void> {
    await this.ctx.storage.transaction(async (tx) => {
      const { organization } = await requireOrganization(tx, caller, ref, 'delete');
      const projects = await tx.projects.count({ organization_id: organization.id });
      if (projects > 0) {
        throw new ConflictError(
          `organization "${organization.slug}" still has ${projects} project${projects === 1 ? '' : 's'}; delete ${projects === 1 ? 'it' : 'them'} first`,
        );
      }
      // its runners serve nothing any more: they go with it (they hold no job, it has no project)
      const runners = await tx.runners.all({ organization_id: organization.id });
      await tx.runnerSpecs.delete({ runner_id: runners.map((runner) => runner.id) });
      await tx.runners.delete({ organization_id: organization.id });
      await tx.invitations.delete({ organization_id: organization.id });
      await tx.roles.delete({ organization_id: organization.id });
      await tx.organizations.delete({ id: organization.id });
    });
  }

  async allowed(caller: UserCaller, ref: string, permission: Permission) {
    const { permissions } = await this.ctx.storage.read((r) => requireOrganization(r, caller, ref, 'view'));
    return { allowed: permissions.has(permission) };
  }

  /** Claims an organization created by anonymous runs; from then on anonymous runs into it are refused. */
  async claim(caller: UserCaller, ref: string) {
    const claimed = await this.ctx.storage.transaction((tx) =>
      claimOrganization(tx, caller.user, ref, this.ctx.now()),
    );
    return organizationJson(claimed);
  }
}
