import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLicense } from '../../core/index.js';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const QUOTA = 5;
// 23:00:00 UTC: an hour before the quota's day ends
let clock = Date.UTC(2026, 6, 1, 23);
let t: TestApp;
let leader: Session;

function report(benchmarks: number, slug: string) {
  clock += 1000;
  const results = Object.fromEntries(
    Array.from({ length: benchmarks }, (_, i) => [`${slug} ${i}`, { latency: { value: i + 1 } }]),
  );
  return {
    branch: `branch-${clock}`,
    testbed: 'ci',
    start_time: new Date(clock - 500).toISOString(),
    end_time: new Date(clock).toISOString(),
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
  };
}

const submit = (project: string, benchmarks: number, token = leader.token) =>
  t.app.inject({
    method: 'POST',
    url: `/v0/projects/${project}/reports`,
    headers: bearer(token),
    payload: report(benchmarks, project),
  });

const count = async (path: string) =>
  Number(
    (await t.app.inject({ method: 'GET', url: path, headers: bearer(leader.token) })).headers[
      'x-total-count'
    ],
  );

async function organizationWithProject(slug: string): Promise<{ uuid: string }> {
  const org = await t.app.inject({
    method: 'POST',
    url: '/v0/organizations',
    headers: bearer(leader.token),
    payload: { name: slug, slug },
  });
  await t.app.inject({
    method: 'POST',
    url: `/v0/organizations/${slug}/projects`,
    headers: bearer(leader.token),
    payload: { name: `${slug} project`, slug: `${slug}-project` },
  });
  return org.json();
}

beforeAll(async () => {
  t = await createTestApp(
    {
      plus: {
        rate_limiting: { daily_metrics: QUOTA },
        license_keys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
      },
    },
    { now: () => new Date(clock) },
  );
  leader = await signUp(t, 'Quinn Quota', 'quinn@example.com');
});
afterAll(() => t.close());

describe('daily metric quota', () => {
  it('answers 429 with Retry-After over the quota, stores nothing of the refused report, and resets at midnight UTC', async () => {
    await organizationWithProject('free-org');
    expect((await submit('free-org-project', 3)).statusCode).toBe(201);
    const before = {
      reports: await count('/v0/projects/free-org-project/reports'),
      branches: await count('/v0/projects/free-org-project/branches'),
      benchmarks: await count('/v0/projects/free-org-project/benchmarks'),
    };
    const refused = await submit('free-org-project', 3);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(3600 - 2);
    expect(refused.json().message).toBe(
      'organization "free-org" may submit 5 metrics per UTC day without a paid plan and has submitted 3 today; this report has 3: wait until 00:00 UTC, or add a license to the organization (organization update --license)',
    );
    expect({
      reports: await count('/v0/projects/free-org-project/reports'),
      branches: await count('/v0/projects/free-org-project/branches'),
      benchmarks: await count('/v0/projects/free-org-project/benchmarks'),
    }).toEqual(before);
    expect((await submit('free-org-project', 2)).statusCode).toBe(201);
    expect((await submit('free-org-project', 1)).statusCode).toBe(429);
    const usage = await t.app.inject({
      method: 'GET',
      url: '/v0/organizations/free-org/usage',
      headers: bearer(leader.token),
    });
    expect(usage.json()).toMatchObject({ kind: 'self_hosted_free', usage: 5, entitlement: QUOTA });

    clock = Date.UTC(2026, 6, 2, 0, 0, 1);
    expect((await submit('free-org-project', 5)).statusCode).toBe(201);
  });

  it('counts concurrent reports atomically: exactly the quota passes', async () => {
    await organizationWithProject('busy-org');
    const answers = await Promise.all(Array.from({ length: 12 }, () => submit('busy-org-project', 1)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(QUOTA).fill(201), ...Array<number>(12 - QUOTA).fill(429)]);
    expect(await count('/v0/projects/busy-org-project/reports')).toBe(QUOTA);
  });

  it('does not limit an organization with a paid license', async () => {
    const org = await organizationWithProject('paid-org');
    const license = await issueLicense(
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      { organization: org.uuid, level: 'pro', entitlement: 1000, period: 'monthly' },
      new Date(clock),
    );
    const set = await t.app.inject({
      method: 'PATCH',
      url: '/v0/organizations/paid-org',
      headers: bearer(leader.token),
      payload: { license },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await submit('paid-org-project', 4)).statusCode).toBe(201);
    expect((await submit('paid-org-project', 4)).statusCode).toBe(201);
  });

  it('tells an unclaimed organization to claim itself', async () => {
    clock += 1000;
    const run = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v0/run',
        payload: { ...report(n, 'anon'), project: 'anonymous-app' },
      });
    expect((await run(4)).statusCode).toBe(201);
    const refused = await run(4);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('claim the organization (organization claim) and add a license');
  });
});
