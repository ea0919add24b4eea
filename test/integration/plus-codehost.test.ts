import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLicense, type PlanLevel } from '../../core/index.js';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { OAuthProvider } from '../helpers/oauth-provider.js';

const SECRET = 'oauth-client-secret-0123';
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const provider = new OAuthProvider('benchtrack-client', SECRET);
let clock = Date.UTC(2026, 9, 1, 12);
let t: TestApp;
let admin: Session;
let org: { uuid: string; slug: string };

const verified = (email: string) => [
  { email: `old-${email}`, primary: false, verified: true },
  { email, primary: true, verified: true },
];

async function start(query = ''): Promise<{ status: number; body: { url?: string; message?: string } }> {
  const response = await t.app.inject({ method: 'GET', url: `/v0/auth/github${query}` });
  return { status: response.statusCode, body: response.json() };
}

/** The browser's part: follow the authorize URL; the provider logs the account in and redirects back. */
async function authorize(query = ''): Promise<{ code: string; state: string }> {
  const { status, body } = await start(query);
  expect(status, JSON.stringify(body)).toBe(200);
  const response = await fetch(body.url as string, { redirect: 'manual' });
  const back = new URL(response.headers.get('location') as string);
  expect(back.origin + back.pathname).toBe('https://console.example/auth/github');
  return { code: back.searchParams.get('code') as string, state: back.searchParams.get('state') as string };
}

const finish = (payload: object) => t.app.inject({ method: 'POST', url: '/v0/auth/github', payload });

async function license(level: PlanLevel) {
  const jwt = await issueLicense(
    privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    { organization: org.uuid, level, entitlement: 1000, period: 'annual' },
    new Date(clock),
  );
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/v0/organizations/${org.slug}`,
    headers: bearer(admin.token),
    payload: { license: jwt },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const userCount = async () =>
  Number(
    (await t.app.inject({ method: 'GET', url: '/v0/users', headers: bearer(admin.token) })).headers[
      'x-total-count'
    ],
  );

beforeAll(async () => {
  await provider.start();
  t = await createTestApp(
    {
      console: { url: 'https://console.example' },
      plus: {
        codehost: provider.codehost(),
        license_keys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
      },
    },
    { now: () => new Date(clock) },
  );
  admin = await signUp(t, 'Ada Admin', 'ada@example.com');
  org = (
    await t.app.inject({
      method: 'POST',
      url: '/v0/organizations',
      headers: bearer(admin.token),
      payload: { name: 'Enterprise', slug: 'enterprise' },
    })
  ).json();
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

describe('login with GitHub', () => {
  it('is refused with a clear message until an organization holds a valid enterprise license', async () => {
    const none = await start();
    expect(none.status).toBe(403);
    expect(none.body.message).toContain('needs an organization with a valid enterprise license');
    await license('team');
    expect((await start()).status).toBe(403);
    await license('enterprise');
    expect((await start()).status).toBe(200);
  });

  it('answers the authorize URL with the client id, the console callback and a state, never the secret', async () => {
    const { body } = await start();
    const url = new URL(body.url as string);
    expect(url.origin + url.pathname).toBe(`${provider.url}/login/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe('benchtrack-client');
    expect(url.searchParams.get('redirect_uri')).toBe('https://console.example/auth/github');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.url).not.toContain(SECRET);
  });

  it('signs up a new user with the primary verified e-mail, then logs the same user in', async () => {
    provider.account = { login: 'octo', name: 'Octo Cat', emails: verified('Octo@Example.com') };
    const first = await finish(await authorize());
    expect(first.statusCode, first.body).toBe(200);
    const user = first.json().user;
    expect(user).toMatchObject({ email: 'octo@example.com', name: 'Octo Cat', admin: false });
    const me = await t.app.inject({
      method: 'GET',
      url: `/v0/users/${user.slug}`,
      headers: bearer(first.json().token),
    });
    expect(me.statusCode).toBe(200);
    const exchange = provider.requests.filter((r) => r.path === '/login/oauth/access_token').at(-1);
    expect(JSON.parse(exchange?.body ?? '{}')).toMatchObject({ client_secret: SECRET });

    const again = await finish(await authorize('?plan=team'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.uuid).toBe(user.uuid);
    expect(again.json().plan).toBe('team');
    const log = t.logText();
    expect(log).not.toContain(SECRET);
    for (const request of provider.requests.filter((r) => r.authorization)) {
      expect(log).not.toContain((request.authorization as string).replace('Bearer ', ''));
    }
  });

  it('refuses a wrong state, an expired state, a replayed state and a replayed code', async () => {
    provider.account = { login: 'octo', name: 'Octo Cat', emails: verified('octo@example.com') };
    const wrong = await finish({ ...(await authorize()), state: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toContain('the login state is invalid; start the login again');

    const late = await authorize();
    clock += 11 * 60_000;
    const expired = await finish(late);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('the login state has expired; start the login again');

    const once = await authorize();
    expect((await finish(once)).statusCode).toBe(200);
    const replayedState = await finish(once);
    expect(replayedState.statusCode).toBe(401);
    expect(replayedState.json().message).toContain('already used');

    const fresh = await authorize();
    const replayedCode = await finish({ code: once.code, state: fresh.state });
    expect(replayedCode.statusCode).toBe(400);
    expect(replayedCode.json().message).toContain('code: GitHub refused it (bad_verification_code)');
    expect(replayedCode.body).not.toContain(once.code);
  });

  it('refuses an account without a verified primary e-mail and creates nobody', async () => {
    const before = await userCount();
    provider.account = {
      login: 'shadow',
      name: null,
      emails: [
        { email: 'shadow@example.com', primary: true, verified: false },
        { email: 'other@example.com', primary: false, verified: true },
      ],
    };
    const refused = await finish(await authorize());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('no verified primary e-mail address');
    expect(await userCount()).toBe(before);
  });

  it('claims the organization named in the state', async () => {
    const run = await t.app.inject({
      method: 'POST',
      url: '/v0/run',
      payload: {
        project: 'orphan-app',
        branch: 'main',
        testbed: 'ci',
        start_time: new Date(clock - 1000).toISOString(),
        end_time: new Date(clock).toISOString(),
        results: [JSON.stringify({ b: { latency: { value: 1 } } })],
        settings: { adapter: 'json' },
      },
    });
    expect(run.statusCode, run.body).toBe(201);
    const orphan = (await t.app.inject({ method: 'GET', url: '/v0/projects/orphan-app' })).json()
      .organization;
    provider.account = { login: 'claimer', name: 'Claire', emails: verified('claire@example.com') };
    const login = await finish(await authorize(`?claim=${orphan}`));
    expect(login.statusCode, login.body).toBe(200);
    const view = await t.app.inject({
      method: 'GET',
      url: `/v0/organizations/${orphan}`,
      headers: bearer(login.json().token),
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().claimed).not.toBeNull();
  });

  it('names the field of a bad request', async () => {
    const empty = await finish({ code: '', state: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('code');
    const claim = await start('?claim=not-a-uuid');
    expect(claim.status).toBe(400);
    expect(claim.body.message).toContain('claim');
  });
});
