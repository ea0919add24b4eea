import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lastLinkTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createRunner, runnerCalls } from '../helpers/runners.js';

let t: TestApp;
let admin: Session;
let leader: Session;
let member: Session;
let stranger: Session;

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ runners: { heartbeat_timeout: '5s' } });
  admin = await signUp(t, 'Admin User', 'admin@example.com');
  leader = await signUp(t, 'Lea Leader', 'lea@example.com');
  member = await signUp(t, 'Max Member', 'max@example.com');
  stranger = await signUp(t, 'Sam Stranger', 'sam@example.com');
  expect(
    (await call(leader.token, 'POST', '/v0/organizations', { name: 'Lab', slug: 'lab' })).statusCode,
  ).toBe(201);
  await call(leader.token, 'POST', '/v0/organizations/lab/members', {
    email: 'max@example.com',
    role: 'member',
  });
  const invite = lastLinkTo(t, 'max@example.com').searchParams.get('token');
  expect((await call(member.token, 'POST', '/v0/auth/accept', { invite })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('runners', () => {
  it('are created by administrators (every organization) with a key shown once and stored hashed', async () => {
    const created = await createRunner(t, admin.token, { name: 'Bench Box 1', specs: ['bench-box', 'arm'] });
    expect(created).toMatchObject({
      name: 'Bench Box 1',
      slug: 'bench-box-1',
      organization: null,
      specs: ['arm', 'bench-box'],
      state: 'offline',
      job: null,
      last_heartbeat: null,
      archived: false,
    });
    expect(created.key).toMatch(/^btr_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    // the key names its runner, so `runner up --key` alone says which runner it is
    expect(created.key.slice(4, 36)).toBe(created.uuid.replaceAll('-', ''));
    const viewed = await call(admin.token, 'GET', `/v0/runners/${created.slug}`);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.json()).not.toHaveProperty('key');
    const stored = await t.storage.read((r) => r.runners.find({ uuid: created.uuid }));
    expect(stored?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.key);
    // a waiting runner shows as seen
    expect((await runnerCalls(t, created, () => created.key).claim()).statusCode).toBe(204);
    expect((await call(admin.token, 'GET', `/v0/runners/${created.uuid}`)).json()).toMatchObject({
      state: 'idle',
    });
  });

  it('are created for an organization by its leaders, and only they and administrators see them', async () => {
    const mine = await createRunner(t, leader.token, {
      name: 'Lab Box',
      specs: ['lab-box'],
      organization: 'lab',
    });
    expect(mine.organization).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await call(leader.token, 'POST', '/v0/runners', { name: 'Everyone', specs: ['x'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('server administrator');
    expect(
      (await call(member.token, 'POST', '/v0/runners', { name: 'M', specs: ['x'], organization: 'lab' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(stranger.token, 'POST', '/v0/runners', { name: 'S', specs: ['x'], organization: 'lab' }))
        .statusCode,
    ).toBe(404);
    for (const [who, status] of [
      [leader, 200],
      [admin, 200],
      [member, 404],
      [stranger, 404],
    ] as const)
      expect((await call(who.token, 'GET', `/v0/runners/${mine.slug}`)).statusCode, who.user.slug).toBe(
        status,
      );
    const listed = (token: string) =>
      call(token, 'GET', '/v0/runners?per_page=255').then((r) =>
        r.json().map((x: { slug: string }) => x.slug),
      );
    expect(await listed(leader.token)).toEqual(['lab-box']);
    expect(await listed(stranger.token)).toEqual([]);
    expect(await listed(admin.token)).toEqual(expect.arrayContaining(['lab-box', 'bench-box-1']));
  });

  it('refuse bad input naming the field, and taken slugs', async () => {
    const bad = await call(admin.token, 'POST', '/v0/runners', { name: 'X', specs: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('specs');
    const notSlug = await call(admin.token, 'POST', '/v0/runners', { name: 'X', specs: ['Bench Box'] });
    expect(notSlug.statusCode).toBe(400);
    expect(notSlug.json().message).toMatch(/^body\.specs\[0\]: must be a slug/);
    await createRunner(t, admin.token, { name: 'Taken', specs: ['x'] });
    const taken = await call(admin.token, 'POST', '/v0/runners', {
      name: 'Other',
      slug: 'taken',
      specs: ['x'],
    });
    expect(taken.statusCode).toBe(409);
    const rename = await call(admin.token, 'PATCH', '/v0/runners/bench-box-1', { slug: 'taken' });
    expect(rename.statusCode).toBe(409);
  });

  it('change their specs, rotate their key (the old one stops working) and are archived', async () => {
    const runner = await createRunner(t, leader.token, {
      name: 'Rotating',
      specs: ['a'],
      organization: 'lab',
    });
    const updated = await call(leader.token, 'PATCH', `/v0/runners/${runner.slug}`, { specs: ['b', 'c'] });
    expect(updated.json()).toMatchObject({ specs: ['b', 'c'] });
    const rotated = await call(leader.token, 'POST', `/v0/runners/${runner.slug}/key`);
    expect(rotated.statusCode).toBe(201);
    const key = rotated.json().key as string;
    expect(key).not.toBe(runner.key);
    const old = await runnerCalls(t, runner, () => runner.key).claim();
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toContain('rotated');
    expect((await runnerCalls(t, runner, () => key).claim()).statusCode).toBe(204);
    // a user's token is no runner key, and a key works only on its own runner's path
    expect((await runnerCalls(t, runner, () => leader.token).claim()).statusCode).toBe(401);
    expect((await runnerCalls(t, { slug: 'bench-box-1' }, () => key).claim()).statusCode).toBe(404);
    const archived = await call(leader.token, 'PATCH', `/v0/runners/${runner.slug}`, { archived: true });
    expect(archived.json()).toMatchObject({ archived: true, state: 'archived' });
    expect((await runnerCalls(t, runner, () => key).claim()).statusCode).toBe(401);
    const listed = await call(leader.token, 'GET', '/v0/runners?archived=true');
    expect(listed.json().map((r: { slug: string }) => r.slug)).toEqual([runner.slug]);
  });

  it('go with their organization when it is deleted', async () => {
    expect(
      (await call(leader.token, 'POST', '/v0/organizations', { name: 'Gone', slug: 'gone' })).statusCode,
    ).toBe(201);
    const runner = await createRunner(t, leader.token, {
      name: 'Gone Box',
      specs: ['g'],
      organization: 'gone',
    });
    expect((await call(leader.token, 'DELETE', '/v0/organizations/gone')).statusCode).toBe(204);
    expect((await call(admin.token, 'GET', `/v0/runners/${runner.slug}`)).statusCode).toBe(404);
    await t.storage.read(async (r) => {
      expect(await r.runners.find({ uuid: runner.uuid })).toBeUndefined();
      expect(await r.runnerSpecs.count({ spec: 'g' })).toBe(0);
    });
    expect((await runnerCalls(t, runner, () => runner.key).claim()).statusCode).toBe(401);
  });
});
