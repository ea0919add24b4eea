import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Existence oracles (issue 14, item 8): a caller who may not see a private project or someone's organization
 * gets the answer a missing one gets, and nothing is written.
 */

let t: TestApp;
let owner: Session;
let mallory: Session;
let secret: { uuid: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  await signUp(t, 'Root Admin', 'root@example.com');
  owner = await signUp(t, 'Olive Owner', 'olive@example.com');
  mallory = await signUp(t, 'Mallory Mean', 'mallory@example.com');
  secret = await createProject(t, owner, 'olive-owner', { name: 'Secret Plans', visibility: 'private' });
});
afterAll(() => t.close());

const run = (project: string, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v0/run',
    headers: token ? bearer(token) : {},
    payload: {
      project,
      branch: 'main',
      testbed: 'linux',
      hash: randomBytes(20).toString('hex'),
      start_time: new Date().toISOString(),
      end_time: new Date().toISOString(),
      results: [JSON.stringify({ bench: { latency: { value: 1 } } })],
      settings: { adapter: 'json' },
    },
  });

const counts = () =>
  t.storage.read(async (r) => ({
    projects: await r.projects.count({}),
    organizations: await r.organizations.count({}),
    roles: await r.roles.count({}),
    reports: await r.reports.count({}),
  }));

describe('anonymous runs naming a private project', () => {
  it('answer 404 exactly as for a project that does not exist, by UUID and by slug, writing nothing', async () => {
    const before = await counts();
    const missing = randomUUID();
    const byMissingUuid = await run(missing);
    const byUuid = await run(secret.uuid);
    const bySlug = await run(secret.slug);
    expect([byMissingUuid.statusCode, byUuid.statusCode, bySlug.statusCode]).toEqual([404, 404, 404]);
    const message = (response: typeof byUuid, ref: string) => response.json().message.replace(ref, '<ref>');
    expect(message(byUuid, secret.uuid)).toBe(message(byMissingUuid, missing));
    expect(message(bySlug, secret.slug)).toBe(message(byMissingUuid, missing));
    expect(byUuid.body).not.toContain(secret.slug);
    expect(await counts()).toEqual(before);
  });

  it('answer 404 to a user who is not a member too, as for a missing project and naming only the reference, writing nothing', async () => {
    const before = await counts();
    const missing = randomUUID();
    const byMissingUuid = await run(missing, mallory.token);
    const byUuid = await run(secret.uuid, mallory.token);
    const bySlug = await run(secret.slug, mallory.token);
    expect([byMissingUuid.statusCode, byUuid.statusCode, bySlug.statusCode]).toEqual([404, 404, 404]);
    const message = (response: typeof byUuid, ref: string) => response.json().message.replace(ref, '<ref>');
    expect(message(byUuid, secret.uuid)).toBe(message(byMissingUuid, missing));
    expect(message(bySlug, secret.slug)).toBe(message(byMissingUuid, missing));
    expect(bySlug.body).not.toContain(secret.uuid);
    expect(byUuid.body).not.toContain(secret.slug);
    expect(await counts()).toEqual(before);
  });

  it('still take the owner’s runs (control)', async () => {
    expect((await run(secret.slug, owner.token)).statusCode).toBe(201);
  });

  it('leave the anonymous flow for unclaimed projects working: created once, then reused', async () => {
    const first = await run('anonymous-bench');
    const second = await run('anonymous-bench');
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().project.uuid).toBe(first.json().project.uuid);
  });
});

describe("claiming someone's organization", () => {
  const claim = (organization: string, token: string) =>
    t.app.inject({ method: 'POST', url: `/v0/organizations/${organization}/claim`, headers: bearer(token) });

  it('answers 404 as for an organization that does not exist, by UUID and by slug, writing nothing', async () => {
    const organization = await t.storage.read((r) => r.organizations.find({ slug: 'olive-owner' }));
    const before = await counts();
    const missing = randomUUID();
    const answers = [
      await claim(missing, mallory.token),
      await claim(organization?.uuid as string, mallory.token),
    ];
    answers.push(await claim('olive-owner', mallory.token));
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404]);
    expect(answers[1]?.json().message.replace(organization?.uuid as string, '<ref>')).toBe(
      answers[0]?.json().message.replace(missing, '<ref>'),
    );
    expect(answers[2]?.json().message.replace('olive-owner', '<ref>')).toBe(
      answers[0]?.json().message.replace(missing, '<ref>'),
    );
    expect(await counts()).toEqual(before);
  });

  it('answers 409 to a member, who may know the organization is claimed', async () => {
    const response = await claim('olive-owner', owner.token);
    expect(response.statusCode).toBe(409);
  });

  it("answers 404 to a sign-up that claims someone's organization, creating no account", async () => {
    const organization = await t.storage.read((r) => r.organizations.find({ slug: 'olive-owner' }));
    const before = await counts();
    const users = await t.storage.read((r) => r.users.count({}));
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Eve', email: 'eve@example.com', i_agree: true, claim: organization?.uuid },
    });
    expect(response.statusCode).toBe(404);
    expect(await t.storage.read((r) => r.users.count({}))).toBe(users);
    expect(await counts()).toEqual(before);
  });

  it('still lets anyone claim an unclaimed organization (control)', async () => {
    const created = await run('claimable-bench');
    const organization = created.json().project.organization;
    expect((await claim(organization, mallory.token)).statusCode).toBe(201);
  });
});
