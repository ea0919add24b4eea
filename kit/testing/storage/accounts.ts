import { describe, expect, it } from 'vitest';
import type { OrganizationRole, WriteRepositories } from '../../../core/index.js';
import { at, insertOrganization, insertProject, insertUser } from './fixtures.js';
import type { Opener } from './harness.js';

const addRole = (tx: WriteRepositories, organizationId: number, userId: number, role: OrganizationRole) =>
  tx.roles.insert({
    organization_id: organizationId,
    user_id: userId,
    role,
    created: at(1),
    modified: at(2),
  });

/** Organizations of a user, members of an organization, projects a viewer may see. */
export function describeAccounts(open: Opener): void {
  describe('accounts', () => {
    it("lists a user's organizations with filter, search and paging", async () => {
      const storage = await open();
      const { user, mine } = await storage.transaction(async (tx) => {
        const user = await insertUser(tx);
        const other = await insertUser(tx);
        const mine = [
          await insertOrganization(tx, 'acme-tools'),
          await insertOrganization(tx, 'acme-labs'),
          await insertOrganization(tx, 'zeta'),
        ];
        const theirs = await insertOrganization(tx, 'acme-other');
        for (const organization of mine) await addRole(tx, organization.id, user.id, 'member');
        await addRole(tx, theirs.id, other.id, 'leader');
        return { user, mine };
      });
      await storage.read(async (r) => {
        const all = await r.organizations.listForUser(user.id, {}, { sort: 'name' });
        expect(all).toEqual({ items: [mine[1], mine[0], mine[2]], total: 3 });
        const acme = await r.organizations.listForUser(
          user.id,
          {},
          { search: 'ACME', perPage: 1, page: 2, sort: 'name' },
        );
        expect(acme).toEqual({ items: [mine[0]], total: 2 });
        const filtered = await r.organizations.listForUser(user.id, { slug: 'zeta' }, {});
        expect(filtered).toEqual({ items: [mine[2]], total: 1 });
        expect(await r.organizations.listForUser(9_999, {}, {})).toEqual({ items: [], total: 0 });
      });
    });

    it('lists the members of an organization with their roles', async () => {
      const storage = await open();
      const { organization, leader, member } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const leader = await insertUser(tx, 'ada');
        const member = await insertUser(tx, 'bob');
        await insertUser(tx, 'cyd');
        await addRole(tx, organization.id, leader.id, 'leader');
        await addRole(tx, organization.id, member.id, 'member');
        return { organization, leader, member };
      });
      const role = { role_created: at(1), role_modified: at(2) };
      await storage.read(async (r) => {
        expect(await r.organizations.members(organization.id, { sort: 'name' })).toEqual({
          items: [
            { ...leader, role: 'leader', ...role },
            { ...member, role: 'member', ...role },
          ],
          total: 2,
        });
        const found = await r.organizations.members(organization.id, { search: 'BO' });
        expect(found.items.map((m) => m.name)).toEqual(['bob']);
        const second = await r.organizations.members(organization.id, { sort: 'name', perPage: 1, page: 2 });
        expect(second).toEqual({ items: [{ ...member, role: 'member', ...role }], total: 2 });
      });
    });

    it('shows public projects to anyone, private ones to members of their organization and to admins', async () => {
      const storage = await open();
      const {
        member,
        stranger,
        open: pub,
        hidden,
        elsewhere,
      } = await storage.transaction(async (tx) => {
        const member = await insertUser(tx);
        const stranger = await insertUser(tx);
        const organization = await insertOrganization(tx);
        const other = await insertOrganization(tx);
        await addRole(tx, organization.id, member.id, 'member');
        return {
          member,
          stranger,
          open: await insertProject(tx, other.id, 'public', 'open-project'),
          hidden: await insertProject(tx, organization.id, 'private', 'hidden-project'),
          elsewhere: await insertProject(tx, other.id, 'private', 'elsewhere-project'),
        };
      });
      const names = (page: { items: { name: string }[] }) => page.items.map((p) => p.name);
      await storage.read(async (r) => {
        const sorted = { sort: 'name' } as const;
        expect(names(await r.projects.listVisible({ userId: null, admin: false }, {}, sorted))).toEqual([
          pub.name,
        ]);
        expect(
          names(await r.projects.listVisible({ userId: stranger.id, admin: false }, {}, sorted)),
        ).toEqual([pub.name]);
        expect(names(await r.projects.listVisible({ userId: member.id, admin: false }, {}, sorted))).toEqual([
          hidden.name,
          pub.name,
        ]);
        const admin = await r.projects.listVisible({ userId: stranger.id, admin: true }, {}, sorted);
        expect(admin).toEqual({ items: [elsewhere, hidden, pub], total: 3 });
        const filtered = await r.projects.listVisible(
          { userId: member.id, admin: false },
          { visibility: 'private' },
          { search: 'HIDDEN', perPage: 1 },
        );
        expect(filtered).toEqual({ items: [hidden], total: 1 });
      });
    });
  });
}
