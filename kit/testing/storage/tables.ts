import { describe, expect, it } from 'vitest';
import type { Storage } from '../../../core/index.js';
import { at, insertOrganization, insertProject, insertUser, uuid } from './fixtures.js';
import type { Opener } from './harness.js';

/** Five testbeds named so that search, sort and paging have something to tell apart (lower case: collations differ). */
async function fiveTestbeds(storage: Storage) {
  return storage.transaction(async (tx) => {
    const organization = await insertOrganization(tx);
    const project = await insertProject(tx, organization.id);
    const names = ['delta', 'alpha', 'charlie', 'bravo', '50%_off'];
    const rows = [];
    for (const [i, name] of names.entries())
      rows.push(
        await tx.testbeds.insert({
          uuid: uuid(),
          project_id: project.id,
          name,
          slug: name.replace(/[^a-z0-9]+/g, '-'),
          archived: i % 2 === 1,
          created: at(i),
          modified: at(i),
        }),
      );
    return { project, rows };
  });
}

/** The generic table operations every repository shares (find, all, list, count, insert, update, delete). */
export function describeTables(open: Opener): void {
  describe('tables', () => {
    it('returns an inserted row as stored, with its generated id and exact values', async () => {
      const storage = await open();
      const { rows } = await fiveTestbeds(storage);
      const [first] = rows;
      expect(first).toMatchObject({ name: 'delta', slug: 'delta', archived: false, created: at(0) });
      expect(typeof first?.id).toBe('number');
      expect(new Set(rows.map((r) => r.id)).size).toBe(5);
      expect(await storage.read((r) => r.testbeds.find({ id: first?.id as number }))).toEqual(first);
      expect(await storage.read((r) => r.testbeds.find({ uuid: first?.uuid as string }))).toEqual(first);
    });

    it('filters by equality, by null, and by any of a list (an empty list matches nothing)', async () => {
      const storage = await open();
      const { project, rows } = await fiveTestbeds(storage);
      const ids = (list: readonly { id: number }[]) => list.map((r) => r.id).sort((a, b) => a - b);
      await storage.read(async (r) => {
        expect(ids(await r.testbeds.all({ project_id: project.id, archived: true }))).toEqual(
          ids(rows.filter((t) => t.archived)),
        );
        expect(ids(await r.testbeds.all({ name: ['alpha', 'bravo', 'nobody'] }))).toEqual(
          ids(rows.filter((t) => t.name === 'alpha' || t.name === 'bravo')),
        );
        expect(await r.testbeds.all({ name: [] })).toEqual([]);
        expect(await r.testbeds.count({ project_id: project.id })).toBe(5);
        expect(await r.testbeds.count({})).toBe(5);
        expect(await r.testbeds.find({ name: 'nobody' })).toBeUndefined();
        expect(await r.organizations.count({ license: null })).toBe(1);
        expect(await r.organizations.count({ personal_user_id: 1 })).toBe(0);
      });
    });

    it('finds nothing (and does not fail) for a UUID that is not well-formed', async () => {
      const storage = await open();
      await fiveTestbeds(storage);
      expect(await storage.read((r) => r.testbeds.find({ uuid: 'not-a-uuid' }))).toBeUndefined();
      expect(await storage.read((r) => r.testbeds.all({ uuid: ['not-a-uuid'] }))).toEqual([]);
    });

    it('lists a page with the total before paging; pages never repeat or skip rows', async () => {
      const storage = await open();
      const { project } = await fiveTestbeds(storage);
      const where = { project_id: project.id };
      await storage.read(async (r) => {
        const pages = [];
        for (let page = 1; page <= 3; page++)
          pages.push(await r.testbeds.list(where, { page, perPage: 2, sort: 'name', direction: 'asc' }));
        expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
        expect(pages.map((p) => p.items.map((t) => t.name))).toEqual([
          ['50%_off', 'alpha'],
          ['bravo', 'charlie'],
          ['delta'],
        ]);
        const zero = await r.testbeds.list(where, { page: 0, perPage: 2, sort: 'name', direction: 'asc' });
        expect(zero.items).toEqual(pages[0]?.items);
        const beyond = await r.testbeds.list(where, { page: 9, perPage: 2 });
        expect(beyond).toEqual({ items: [], total: 5 });
        const desc = await r.testbeds.list(where, { sort: 'created', direction: 'desc' });
        expect(desc.items.map((t) => t.name)).toEqual(['50%_off', 'bravo', 'charlie', 'alpha', 'delta']);
      });
    });

    it('orders rows with equal sort keys the same way on every page', async () => {
      const storage = await open();
      const { project } = await fiveTestbeds(storage);
      const where = { project_id: project.id };
      await storage.read(async (r) => {
        const seen: number[] = [];
        for (let page = 1; page <= 5; page++) {
          const { items } = await r.testbeds.list(where, { page, perPage: 1, sort: 'archived' });
          seen.push(...items.map((t) => t.id));
        }
        expect(new Set(seen).size).toBe(5);
      });
    });

    it('searches name, slug and UUID case-insensitively, with % and _ taken literally', async () => {
      const storage = await open();
      const { project, rows } = await fiveTestbeds(storage);
      const where = { project_id: project.id };
      const names = async (search: string) =>
        (await storage.read((r) => r.testbeds.list(where, { search, sort: 'name' }))).items.map(
          (t) => t.name,
        );
      expect(await names('ALPHA')).toEqual(['alpha']);
      expect(await names('HARL')).toEqual(['charlie']);
      expect(await names('%')).toEqual(['50%_off']);
      expect(await names('_')).toEqual(['50%_off']);
      expect(await names('50-off')).toEqual(['50%_off']);
      expect(await names((rows[3]?.uuid as string).slice(0, 13).toUpperCase())).toEqual(['bravo']);
      const page = await storage.read((r) => r.testbeds.list(where, { search: 'L', perPage: 1 }));
      expect(page.total).toBe(3);
      expect(page.items).toHaveLength(1);
    });

    it('updates and deletes matching rows and says how many', async () => {
      const storage = await open();
      const { project, rows } = await fiveTestbeds(storage);
      await storage.transaction(async (tx) => {
        expect(await tx.testbeds.update({ archived: true }, { archived: false, modified: at(9) })).toBe(2);
        expect(await tx.testbeds.update({ name: 'nobody' }, { archived: true })).toBe(0);
        expect(await tx.testbeds.update({ id: rows[0]?.id as number }, {})).toBe(0);
        expect(await tx.testbeds.delete({ name: ['alpha', 'bravo'] })).toBe(2);
        expect(await tx.testbeds.delete({ name: 'nobody' })).toBe(0);
      });
      const left = await storage.read((r) => r.testbeds.all({ project_id: project.id }));
      expect(left.map((t) => t.name).sort()).toEqual(['50%_off', 'charlie', 'delta']);
      expect(left.every((t) => !t.archived)).toBe(true);
    });

    it('refuses a second row with the same unique name, and the transaction writes nothing', async () => {
      const storage = await open();
      const { project } = await fiveTestbeds(storage);
      const row = (name: string) => ({
        uuid: uuid(),
        project_id: project.id,
        name,
        slug: name,
        archived: false,
        created: at(0),
        modified: at(0),
      });
      await expect(
        storage.transaction(async (tx) => {
          await tx.testbeds.insert(row('echo'));
          await tx.testbeds.insert(row('alpha'));
        }),
      ).rejects.toThrow();
      expect(await storage.read((r) => r.testbeds.count({ project_id: project.id }))).toBe(5);
      await storage.transaction((tx) => tx.testbeds.insert(row('echo')));
      expect(await storage.read((r) => r.testbeds.count({ project_id: project.id }))).toBe(6);
    });

    it('keeps server settings by key, replacing a value', async () => {
      const storage = await open();
      await storage.transaction(async (tx) => {
        await tx.meta.set('first.run', 'done');
        await tx.meta.set('first.run', 'again');
      });
      expect(await storage.read((r) => r.meta.get('first.run'))).toBe('again');
      expect(await storage.read((r) => r.meta.get('missing'))).toBeUndefined();
    });

    it('keeps users, tokens and invitations with their exact fields', async () => {
      const storage = await open();
      const { user, token, invitation } = await storage.transaction(async (tx) => {
        const user = await insertUser(tx);
        const organization = await insertOrganization(tx);
        const token = await tx.tokens.insert({
          uuid: uuid(),
          user_id: user.id,
          name: 'ci',
          token_hash: 'ab'.repeat(32),
          creation: at(1),
          expiration: at(60 * 24 * 365),
          revoked: null,
        });
        const invitation = await tx.invitations.insert({
          uuid: uuid(),
          organization_id: organization.id,
          email: 'invited@example.com',
          role: 'member',
          invited_by: user.id,
          created: at(2),
          expiration: at(3),
          accepted: null,
        });
        return { user, token, invitation };
      });
      await storage.read(async (r) => {
        expect(await r.users.find({ email: user.email })).toEqual(user);
        expect(await r.tokens.find({ token_hash: 'ab'.repeat(32) })).toEqual(token);
        expect(await r.tokens.all({ user_id: user.id, revoked: null })).toEqual([token]);
        expect(await r.invitations.find({ uuid: invitation.uuid })).toEqual(invitation);
      });
      await storage.transaction((tx) => tx.tokens.update({ id: token.id }, { revoked: at(5) }));
      expect(await storage.read((r) => r.tokens.find({ id: token.id }))).toEqual({
        ...token,
        revoked: at(5),
      });
    });
  });
}
