import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { jobBody } from '../helpers/runners.js';

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

describe('writes to a public project by callers who may only read it', () => {
  const P = '/v0/projects/open-plans';
  let fixture: { report: string; alert: string; threshold: string; regression: string };

  beforeAll(async () => {
    await createProject(t, owner, 'olive-owner', { name: 'Open Plans', visibility: 'public' });
    const report = async (value: number, thresholds?: object) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${P}/reports`,
        headers: bearer(owner.token),
        payload: {
          branch: 'main',
          testbed: 'linux',
          start_time: new Date().toISOString(),
          end_time: new Date().toISOString(),
          results: [JSON.stringify({ bench: { latency: { value } } })],
          settings: { adapter: 'json' },
          ...(thresholds ? { thresholds } : {}),
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    await report(100, { models: { latency: { test: 'static', upper_boundary: 10 } } });
    const alerted = await report(100);
    await t.settled();
    const regressions = await t.storage.read((r) => r.regressions.all({}));
    expect(regressions).toHaveLength(1);
    fixture = {
      report: alerted.uuid,
      alert: alerted.alerts[0].uuid,
      threshold: alerted.alerts[0].threshold.uuid,
      regression: regressions[0]!.uuid,
    };
  });

  const state = () =>
    t.storage.read(async (r) => ({
      project: await r.projects.find({ slug: 'open-plans' }),
      branches: await r.branches.count({}),
      reports: await r.reports.count({}),
      alerts: (await r.alerts.all({})).map((a) => a.status),
      models: await r.models.count({}),
      regressions: (await r.regressions.all({})).map((g) => [g.status, g.note]),
      jobs: await r.jobs.count({}),
    }));

  const writes = () => [
    { method: 'PATCH' as const, url: P, payload: { url: 'https://evil.example.com' } },
    { method: 'POST' as const, url: `${P}/branches`, payload: { name: 'intruder' } },
    {
      method: 'PUT' as const,
      url: `${P}/thresholds/${fixture.threshold}`,
      payload: { test: 'static', upper_boundary: 1e9 },
    },
    { method: 'PATCH' as const, url: `${P}/alerts/${fixture.alert}`, payload: { status: 'dismissed' } },
    { method: 'DELETE' as const, url: `${P}/reports/${fixture.report}` },
    {
      method: 'PATCH' as const,
      url: `${P}/regressions/${fixture.regression}`,
      payload: { status: 'invalid', note: 'not ours' },
    },
    { method: 'POST' as const, url: `${P}/jobs`, payload: jobBody('intruder-box') },
  ];

  it('answer a logged-in non-member 404, as for a missing project, and change nothing', async () => {
    const before = await state();
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/v0/projects/no-such-plans',
      headers: bearer(mallory.token),
      payload: { url: 'https://evil.example.com' },
    });
    for (const write of writes()) {
      const response = await t.app.inject({ ...write, headers: bearer(mallory.token) });
      expect(response.statusCode, `${write.method} ${write.url}: ${response.body}`).toBe(404);
      expect(response.json().message).toBe(missing.json().message.replace('no-such-plans', 'open-plans'));
    }
    expect(await state()).toEqual(before);
  });

  it('answer an anonymous caller 401 (log in), and change nothing', async () => {
    const before = await state();
    for (const write of writes()) {
      const response = await t.app.inject(write);
      expect(response.statusCode, `${write.method} ${write.url}: ${response.body}`).toBe(401);
    }
    expect(await state()).toEqual(before);
  });
});
