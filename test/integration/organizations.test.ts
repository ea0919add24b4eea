import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS, resolveRunProject, type Caller, type UserRecord } from '../../core/index.js';
import { bearer, createProject, lastLinkTo, mailsTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ada: Session;
let grace: Session;
let linus: Session;

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  grace = await signUp(t, 'Grace Hopper', 'grace@example.com');
  linus = await signUp(t, 'Linus T', 'linus@example.com');
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  session?: Session,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session.token) : {},
    ...(payload ? { payload } : {}),
  });

describe('organizations', () => {
  it('creates an organization with the caller as leader, slug from the name', async () => {
    const created = await call('POST', '/v0/organizations', ada, { name: 'Analytical Engines' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Analytical Engines',
      slug: 'analytical-engines',
      claimed: expect.any(String),
    });
    const second = await call('POST', '/v0/organizations', grace, { name: 'Analytical Engines' });
    expect(second.json().slug).toMatch(/^analytical-engines-[0-9a-z]{8}$/);
    const taken = await call('POST', '/v0/organizations', grace, { name: 'X', slug: 'analytical-engines' });
    expect(taken.statusCode).toBe(409);
  });

  it('views by slug or UUID, hides non-members behind 404, updates', async () => {
    const bySlug = await call('GET', '/v0/organizations/analytical-engines', ada);
    const byUuid = await call('GET', `/v0/organizations/${bySlug.json().uuid}`, ada);
    expect(byUuid.json()).toEqual(bySlug.json());
    expect((await call('GET', '/v0/organizations/analytical-engines', linus)).statusCode).toBe(404);
    const renamed = await call('PATCH', '/v0/organizations/analytical-engines', ada, { name: 'Engines' });
    expect(renamed.json()).toMatchObject({ name: 'Engines', slug: 'analytical-engines' });
  });

  it('answers the allowed endpoint', async () => {
    const allowed = await call('GET', '/v0/organizations/analytical-engines/allowed/manage', ada);
    expect(allowed.json()).toEqual({ allowed: true });
    expect((await call('GET', '/v0/organizations/analytical-engines/allowed/fly', ada)).statusCode).toBe(400);
  });

  it('lists with pagination, search and X-Total-Count', async () => {
    for (const name of ['Zeta Org', 'Eta Org', 'Theta Org'])
      await call('POST', '/v0/organizations', linus, { name });
    const page1 = await call('GET', '/v0/organizations?per_page=2&page=1&sort=name', linus);
    const page2 = await call('GET', '/v0/organizations?per_page=2&page=2&sort=name', linus);
    expect(page1.headers['x-total-count']).toBe('4');
    expect([...page1.json(), ...page2.json()].map((o: { name: string }) => o.name)).toEqual([
      'Eta Org',
      'Linus T',
      'Theta Org',
      'Zeta Org',
    ]);
    const search = await call('GET', '/v0/organizations?search=ZET', linus);
    expect(search.json().map((o: { name: string }) => o.name)).toEqual(['Zeta Org']);
  });
});

describe('members and invitations', () => {
  it('invites by e-mail; the invitee accepts while logged in', async () => {
    const invite = await call('POST', '/v0/organizations/analytical-engines/members', ada, {
      email: 'grace@example.com',
      role: 'member',
    });
    expect(invite.statusCode).toBe(202);
    const link = lastLinkTo(t, 'grace@example.com');
    expect(link.pathname).toBe('/auth/invite');
    expect(mailsTo(t, 'grace@example.com').at(-1)?.subject).toBe('You are invited to Engines on Benchtrack');
    const invitation = link.searchParams.get('token') as string;

    const stolen = await call('POST', '/v0/auth/accept', linus, { invite: invitation });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().message).toContain('sent to g****@e******.com');
    const accepted = await call('POST', '/v0/auth/accept', grace, { invite: invitation });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().slug).toBe('analytical-engines');
    expect((await call('POST', '/v0/auth/accept', grace, { invite: invitation })).statusCode).toBe(404);

    const members = await call('GET', '/v0/organizations/analytical-engines/members', grace);
    expect(members.json().map((m: { slug: string; role: string }) => [m.slug, m.role])).toEqual([
      ['ada-lovelace', 'leader'],
      ['grace-hopper', 'member'],
    ]);
  });

  it('refuses to invite an existing member', async () => {
    const again = await call('POST', '/v0/organizations/analytical-engines/members', ada, {
      email: 'grace@example.com',
      role: 'member',
    });
    expect(again.statusCode).toBe(409);
  });

  it('lets members read but not manage people', async () => {
    expect(
      (await call('GET', '/v0/organizations/analytical-engines/members/ada-lovelace', grace)).json().role,
    ).toBe('leader');
    const invite = await call('POST', '/v0/organizations/analytical-engines/members', grace, {
      email: 'x@example.com',
      role: 'member',
    });
    // what a member may not do answers as a missing organization would
    expect(invite.statusCode).toBe(404);
    const promote = await call('PATCH', '/v0/organizations/analytical-engines/members/grace-hopper', grace, {
      role: 'leader',
    });
    expect(promote.statusCode).toBe(404);
  });

  it('changes roles but always keeps a leader', async () => {
    const demote = await call('PATCH', '/v0/organizations/analytical-engines/members/ada-lovelace', ada, {
      role: 'member',
    });
    expect(demote.statusCode).toBe(409);
    const promote = await call('PATCH', '/v0/organizations/analytical-engines/members/grace-hopper', ada, {
      role: 'leader',
    });
    expect(promote.json().role).toBe('leader');
    const demoteNow = await call(
      'PATCH',
      '/v0/organizations/analytical-engines/members/ada-lovelace',
      grace,
      { role: 'member' },
    );
    expect(demoteNow.json().role).toBe('member');
    await call('PATCH', '/v0/organizations/analytical-engines/members/ada-lovelace', grace, {
      role: 'leader',
    });
  });

  it('removes members and lets members leave', async () => {
    const leave = await call('DELETE', '/v0/organizations/analytical-engines/members/grace-hopper', grace);
    expect(leave.statusCode).toBe(204);
    expect((await call('GET', '/v0/organizations/analytical-engines', grace)).statusCode).toBe(404);
    const last = await call('DELETE', '/v0/organizations/analytical-engines/members/ada-lovelace', ada);
    expect(last.statusCode).toBe(409);
  });
});

describe('projects', () => {
  it('creates projects with names unique per organization and slugs unique per server', async () => {
    const created = await createProject(t, ada, 'analytical-engines', {
      name: 'Difference',
      url: 'https://example.com/d',
    });
    expect(created).toMatchObject({
      name: 'Difference',
      slug: 'difference',
      visibility: 'public',
      url: 'https://example.com/d',
    });
    const sameName = await call('POST', '/v0/organizations/analytical-engines/projects', ada, {
      name: 'Difference',
    });
    expect(sameName.statusCode).toBe(409);
    const elsewhere = await createProject(t, linus, 'linus-t', { name: 'Difference' });
    expect(elsewhere.slug).toMatch(/^difference-/);
    const slugTaken = await call('POST', '/v0/organizations/linus-t/projects', linus, {
      name: 'Other',
      slug: 'difference',
    });
    expect(slugTaken.statusCode).toBe(409);
  });

  it('sets the URL to null, changes visibility, and hides private projects behind 404', async () => {
    const updated = await call('PATCH', '/v0/projects/difference', ada, { url: null, visibility: 'private' });
    expect(updated.json()).toMatchObject({ url: null, visibility: 'private' });
    expect((await call('GET', '/v0/projects/difference')).statusCode).toBe(404);
    expect((await call('GET', '/v0/projects/difference', linus)).statusCode).toBe(404);
    expect((await call('GET', '/v0/projects/difference', ada)).statusCode).toBe(200);
  });

  it('lists public projects for everyone and private ones for members', async () => {
    await createProject(t, ada, 'analytical-engines', { name: 'Open Engine' });
    const anonymous = await call('GET', '/v0/projects');
    const names = (r: { json(): { name: string }[] }) =>
      r
        .json()
        .map((p) => p.name)
        .sort();
    expect(names(anonymous)).toEqual(['Difference', 'Open Engine']);
    expect(anonymous.headers['x-total-count']).toBe('2');
    expect(names(await call('GET', '/v0/projects', ada))).toEqual([
      'Difference',
      'Difference',
      'Open Engine',
    ]);
    expect((await call('GET', '/v0/projects?public=true')).statusCode).toBe(200);
  });

  it('deletes an organization only after its projects', async () => {
    const blocked = await call('DELETE', '/v0/organizations/analytical-engines', ada);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      'organization "analytical-engines" still has 2 projects; delete them first',
    );
    expect((await call('DELETE', '/v0/projects/difference', ada)).statusCode).toBe(204);
    expect((await call('DELETE', '/v0/projects/open-engine', ada)).statusCode).toBe(204);
    expect((await call('DELETE', '/v0/organizations/analytical-engines', ada)).statusCode).toBe(204);
    expect((await call('GET', '/v0/organizations/analytical-engines', ada)).statusCode).toBe(404);
  });
});

describe('projects created by runs, and claiming', () => {
  const userCaller = async (session: Session): Promise<Caller> => ({
    kind: 'user',
    user: (await t.storage.read((r) => r.users.find({ uuid: session.user.uuid }))) as UserRecord,
    via: 'session',
  });
  const run = (caller: Caller, ref: string | undefined, name = 'repo') =>
    t.storage.transaction((tx) => resolveRunProject(tx, caller, ref, name, new Date()));

  it('puts an anonymous project in a new unclaimed organization, which keeps taking anonymous runs', async () => {
    const first = await run(ANONYMOUS, 'anon-bench');
    expect(first.created).toBe(true);
    const organization = await t.storage.read((r) =>
      r.organizations.find({ id: first.project.organization_id }),
    );
    expect(organization?.claimed).toBeNull();
    const again = await run(ANONYMOUS, 'anon-bench');
    expect(again).toMatchObject({ created: false, project: { uuid: first.project.uuid } });
    expect((await run(ANONYMOUS, undefined, 'my-repo')).project.name).toBe('my-repo');
  });

  it('refuses anonymous runs once a user has claimed the organization', async () => {
    const { project } = await run(ANONYMOUS, 'claim-me');
    const organization = await t.storage.read((r) => r.organizations.find({ id: project.organization_id }));
    const claimed = await call('POST', `/v0/organizations/${organization?.uuid}/claim`, linus);
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json().claimed).not.toBeNull();
    expect((await call('POST', `/v0/organizations/${organization?.uuid}/claim`, ada)).statusCode).toBe(409);
    await expect(run(ANONYMOUS, 'claim-me')).rejects.toThrow('belongs to a claimed organization');
    expect((await run(await userCaller(linus), 'claim-me')).created).toBe(false);
    await expect(run(await userCaller(grace), 'claim-me')).rejects.toThrow('project "claim-me" not found');
  });

  it('lets an authenticated run claim an unclaimed organization', async () => {
    const { project } = await run(ANONYMOUS, 'auto-claim');
    await run(await userCaller(grace), 'auto-claim');
    const roles = await t.storage.read((r) => r.roles.all({ organization_id: project.organization_id }));
    expect(roles.map((role) => role.role)).toEqual(['leader']);
    await expect(run(ANONYMOUS, 'auto-claim')).rejects.toThrow('claimed organization');
  });

  it("creates a user's run projects in their personal organization, suffixing taken names", async () => {
    const first = await run(await userCaller(grace), undefined, 'bench repo');
    const second = await run(await userCaller(grace), undefined, 'bench repo');
    expect([first.project.name, second.project.name]).toEqual(['bench repo', 'bench repo (2)']);
    const organization = await t.storage.read((r) =>
      r.organizations.find({ id: first.project.organization_id }),
    );
    expect(organization?.slug).toBe('grace-hopper');
  });
});
