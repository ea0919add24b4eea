import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLicense, type LicensePeriod, type PlanLevel } from '../../core/index.js';
import { bearer, logIn, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

const trusted = keyPair();
const untrusted = keyPair();
const DAY = 86_400_000;
let clock = Date.UTC(2026, 5, 10, 12);
let t: TestApp;
let leader: Session;
let org: { uuid: string; slug: string };

const license = (
  organization: string,
  options: {
    level?: PlanLevel;
    entitlement?: number;
    period?: LicensePeriod;
    key?: string;
    at?: number;
  } = {},
) =>
  issueLicense(
    options.key ?? trusted.privatePem,
    {
      organization,
      level: options.level ?? 'team',
      entitlement: options.entitlement ?? 5,
      period: options.period ?? 'monthly',
    },
    new Date(options.at ?? clock),
  );

const patchLicense = (session: Session, value: string | null) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v0/organizations/${org.slug}`,
    headers: bearer(session.token),
    payload: { license: value },
  });

function report(benchmarks: number) {
  clock += 1000;
  const results = Object.fromEntries(
    Array.from({ length: benchmarks }, (_, i) => [`bench ${i}`, { latency: { value: i + 1 } }]),
  );
  return {
    branch: 'main',
    testbed: 'ci',
    start_time: new Date(clock - 500).toISOString(),
    end_time: new Date(clock).toISOString(),
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
  };
}

const submit = (session: Session, benchmarks: number) =>
  t.app.inject({
    method: 'POST',
    url: '/v0/projects/licensed/reports',
    headers: bearer(session.token),
    payload: report(benchmarks),
  });

const usage = async (session: Session) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v0/organizations/${org.slug}/usage`,
    headers: bearer(session.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>;
};

const reportCount = async (session: Session) =>
  Number(
    (
      await t.app.inject({
        method: 'GET',
        url: '/v0/projects/licensed/reports',
        headers: bearer(session.token),
      })
    ).headers['x-total-count'],
  );

beforeAll(async () => {
  t = await createTestApp({ plus: { license_keys: [trusted.publicPem] } }, { now: () => new Date(clock) });
  leader = await signUp(t, 'Lea Leader', 'lea@example.com');
  const created = await t.app.inject({
    method: 'POST',
    url: '/v0/organizations',
    headers: bearer(leader.token),
    payload: { name: 'Licensed Org', slug: 'licensed-org' },
  });
  org = created.json();
  await t.app.inject({
    method: 'POST',
    url: `/v0/organizations/${org.slug}/projects`,
    headers: bearer(leader.token),
    payload: { name: 'Licensed', slug: 'licensed' },
  });
});
afterAll(() => t.close());

describe('organization licenses', () => {
  it('refuses a license of another organization, a bad signature, an expired or malformed one, naming the problem', async () => {
    const cases: [string, string][] = [
      [await license(crypto.randomUUID()), 'license: is for organization'],
      [
        await license(org.uuid, { key: untrusted.privatePem }),
        'license: its signature matches no trusted license key',
      ],
      [await license(org.uuid, { at: clock - 40 * DAY }), 'license: has expired'],
      ['not-a-jwt', 'license: is not a JWT'],
      [
        `${(await license(org.uuid)).slice(0, -4)}AAAA`,
        'license: its signature matches no trusted license key',
      ],
    ];
    for (const [jwt, message] of cases) {
      const response = await patchLicense(leader, jwt);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(message);
      expect(response.body).not.toContain(jwt);
    }
    const body = await t.app.inject({
      method: 'PATCH',
      url: `/v0/organizations/${org.slug}`,
      headers: bearer(leader.token),
      payload: { license: 42 },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().message).toContain('license');
    const view = await t.app.inject({
      method: 'GET',
      url: `/v0/organizations/${org.slug}`,
      headers: bearer(leader.token),
    });
    expect(view.json().license).toBeNull();
    expect(t.logText()).not.toContain(cases[0]![0]);
  });

  it('reports free usage without a license', async () => {
    expect(await submit(leader, 2).then((r) => r.statusCode)).toBe(201);
    expect(await usage(leader)).toEqual({
      organization: org.uuid,
      kind: 'self_hosted_free',
      level: 'free',
      start_time: '2026-06-10T00:00:00.000Z',
      end_time: '2026-06-11T00:00:00.000Z',
      usage: 2,
      entitlement: null,
    });
  });

  it('takes a valid license, counts the period, and answers 402 over the entitlement with nothing stored', async () => {
    const jwt = await license(org.uuid, { entitlement: 5 });
    const set = await patchLicense(leader, jwt);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().license).toBe(jwt);
    const start = new Date(Math.floor(clock / 1000) * 1000);
    expect(await usage(leader)).toEqual({
      organization: org.uuid,
      kind: 'self_hosted_licensed',
      level: 'team',
      start_time: start.toISOString(),
      end_time: new Date(start.getTime() + 31 * DAY).toISOString(),
      usage: 2,
      entitlement: 5,
    });
    expect((await submit(leader, 3)).statusCode).toBe(201);
    const before = await reportCount(leader);
    const over = await submit(leader, 1);
    expect(over.statusCode, over.body).toBe(402);
    expect(over.json().message).toContain('has used 5 of the 5 metrics its team license allows');
    expect(await reportCount(leader)).toBe(before);
    expect((await usage(leader)).usage).toBe(5);
  });

  it('drops an organization whose license expired to free, with a warning in the log', async () => {
    clock += 32 * DAY;
    leader = await logIn(t, 'lea@example.com');
    expect(await usage(leader)).toMatchObject({ kind: 'self_hosted_free', level: 'free', usage: 0 });
    expect(t.logText()).toContain('organization license no longer valid');
    expect((await submit(leader, 1)).statusCode).toBe(201);
  });

  it('removes the license with null', async () => {
    const removed = await patchLicense(leader, null);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().license).toBeNull();
  });
});
