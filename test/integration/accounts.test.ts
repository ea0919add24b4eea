import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../core/index.js';
import { bearer, lastLinkTo, logIn, mailsTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let clock = Date.now();
let ada: Session;
let grace: Session;

beforeAll(async () => {
  t = await createTestApp({ console: { url: 'https://console.example' } }, { now: () => new Date(clock) });
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  grace = await signUp(t, 'Grace Hopper', 'Grace@Example.com');
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

describe('sign-up, login and confirmation', () => {
  it('makes the first user a server administrator and nobody after', () => {
    expect(ada.user).toMatchObject({
      name: 'Ada Lovelace',
      slug: 'ada-lovelace',
      email: 'ada@example.com',
      admin: true,
    });
    expect(grace.user).toMatchObject({ email: 'grace@example.com', admin: false });
  });

  it('e-mails a link to the console confirm page (logged without a relay)', () => {
    const [mail] = mailsTo(t, 'ada@example.com');
    expect(mail?.subject).toBe('Your Benchtrack login link');
    const link = new URL(mail?.link as string);
    expect(`${link.origin}${link.pathname}`).toBe('https://console.example/auth/confirm');
    expect(mail?.text).toContain(mail?.link);
  });

  it('creates a personal organization with the user as leader', async () => {
    const response = await get('/v0/organizations', ada.token);
    expect(response.json()).toEqual([
      expect.objectContaining({ name: 'Ada Lovelace', slug: 'ada-lovelace' }),
    ]);
    const members = await get('/v0/organizations/ada-lovelace/members', ada.token);
    expect(members.json()).toEqual([expect.objectContaining({ uuid: ada.user.uuid, role: 'leader' })]);
  });

  it.each([
    [{ name: 'No Terms', email: 'n@example.com' }, 'body.i_agree'],
    [{ name: 'No Terms', email: 'n@example.com', i_agree: false }, 'body.i_agree'],
    [{ name: 'Bad Mail', email: 'not-an-address', i_agree: true }, 'body.email: must be an e-mail address'],
    [{ name: '  ', email: 'x@example.com', i_agree: true }, 'body.name'],
    [
      { name: 'Bad Slug', slug: 'Not A Slug', email: 'y@example.com', i_agree: true },
      'body.slug: must be a slug',
    ],
  ])('rejects an invalid sign-up %#', async (payload, expected) => {
    const response = await t.app.inject({ method: 'POST', url: '/v0/auth/signup', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });

  it('logs in by e-mail (the resend path) and confirms to a working session', async () => {
    const before = mailsTo(t, 'grace@example.com').length;
    const again = await logIn(t, 'grace@example.com');
    expect(mailsTo(t, 'grace@example.com')).toHaveLength(before + 1);
    expect((await get(`/v0/users/${grace.user.uuid}`, again.token)).json()).toMatchObject({
      slug: 'grace-hopper',
    });
  });

  it('refuses a confirmation link that expired', async () => {
    await t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email: 'ada@example.com' } });
    const token = lastLinkTo(t, 'ada@example.com').searchParams.get('token');
    clock += 31 * 60 * 1000;
    const response = await t.app.inject({ method: 'POST', url: '/v0/auth/confirm', payload: { token } });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('the confirmation link has expired; log in again to get a new link');
  });
});

describe('credentials', () => {
  const secret = new TextEncoder().encode('test-secret-key-0123456789abcdef');
  const sign = (claims: Record<string, unknown>, key = secret) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);

  it('needs a credential on routes that require a user (401), and explains the format', async () => {
    const missing = await get('/v0/organizations');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toContain(
      'missing Authorization header: send Authorization: Bearer <token>',
    );
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/v0/organizations',
      headers: { authorization: 'Token abc' },
    });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.json().message).toContain('malformed Authorization header');
  });

  it('treats a malformed header on optional routes as 401 and its absence as anonymous', async () => {
    expect((await get('/v0/projects')).statusCode).toBe(200);
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/v0/projects',
      headers: { authorization: 'Basic x' },
    });
    expect(malformed.statusCode).toBe(401);
  });

  it('accepts the scheme in any case and trims the value', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v0/organizations',
      headers: { authorization: `  bEaReR   ${ada.token}  ` },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each<[string, () => Promise<string>]>([
    [
      'alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({
            sub: ada.user.uuid,
            aud: 'client',
            iss: 'benchtrack',
            exp: 9_999_999_999,
            iat: 1,
          }),
        ).toString('base64url');
        return `${header}.${payload}.`;
      },
    ],
    [
      'expired',
      () =>
        sign({
          sub: ada.user.uuid,
          aud: 'client',
          iss: 'benchtrack',
          exp: Math.floor(clock / 1000) - 10,
          iat: 1,
        }),
    ],
    [
      'wrong audience',
      async () => {
        await t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email: 'ada@example.com' } });
        return lastLinkTo(t, 'ada@example.com').searchParams.get('token') as string;
      },
    ],
    [
      'tampered',
      async () => {
        const [h, , s] = ada.token.split('.');
        const payload = Buffer.from(
          JSON.stringify({
            sub: grace.user.uuid,
            aud: 'client',
            iss: 'benchtrack',
            exp: 9_999_999_999,
            iat: 1,
          }),
        ).toString('base64url');
        return `${h}.${payload}.${s}`;
      },
    ],
    [
      'other key',
      () =>
        sign(
          { sub: ada.user.uuid, aud: 'client', iss: 'benchtrack', exp: 9_999_999_999, iat: 1 },
          new TextEncoder().encode('another-secret-key-of-some-length'),
        ),
    ],
    [
      'other issuer',
      () => sign({ sub: ada.user.uuid, aud: 'client', iss: 'someone-else', exp: 9_999_999_999, iat: 1 }),
    ],
    ['garbage', async () => 'not.a.jwt'],
  ])('rejects a token: %s (401)', async (_label, make) => {
    const response = await get('/v0/organizations', await make());
    expect(response.statusCode).toBe(401);
    expect(response.json().error_code).toBe('unauthorized');
  });

  it('accepts a token signed the same way (control for the cases above)', async () => {
    const token = await sign({
      sub: ada.user.uuid,
      aud: 'client',
      iss: 'benchtrack',
      exp: Math.floor(clock / 1000) + 60,
      iat: 1,
    });
    expect((await get('/v0/organizations', token)).statusCode).toBe(200);
  });
});

describe('API tokens', () => {
  let apiToken: string;
  let tokenUuid: string;

  it('creates a token shown once, which then authenticates', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/v0/users/${ada.user.slug}/tokens`,
      headers: bearer(ada.token),
      payload: { name: 'CI' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ name: 'CI', user: ada.user.uuid, revoked: null, token: expect.any(String) });
    expect(Tokens.audienceOf(body.token)).toBe('api_key');
    apiToken = body.token;
    tokenUuid = body.uuid;
    const viewed = await get(`/v0/users/${ada.user.uuid}/tokens/${tokenUuid}`, ada.token);
    expect(viewed.json()).not.toHaveProperty('token');
    expect((await get('/v0/organizations', apiToken)).statusCode).toBe(200);
  });

  it('lists, and renames', async () => {
    const list = await get(`/v0/users/${ada.user.slug}/tokens`, apiToken);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([expect.objectContaining({ uuid: tokenUuid, name: 'CI' })]);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.slug}/tokens/${tokenUuid}`,
      headers: bearer(ada.token),
      payload: { name: 'CI main' },
    });
    expect(renamed.json().name).toBe('CI main');
  });

  it('cannot mint tokens with a token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v0/users/${ada.user.slug}/tokens`,
      headers: bearer(apiToken),
      payload: { name: 'nested' },
    });
    expect(response.statusCode).toBe(403);
  });

  it("hides other users' tokens", async () => {
    expect((await get(`/v0/users/${ada.user.slug}/tokens`, grace.token)).statusCode).toBe(404);
    expect((await get(`/v0/users/${grace.user.slug}/tokens/${tokenUuid}`, grace.token)).statusCode).toBe(404);
  });

  it('stops working at once when revoked', async () => {
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v0/users/${ada.user.slug}/tokens/${tokenUuid}`,
      headers: bearer(ada.token),
    });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await get('/v0/organizations', apiToken)).statusCode).toBe(401);
    expect(
      (await get(`/v0/users/${ada.user.slug}/tokens/${tokenUuid}`, ada.token)).json().revoked,
    ).not.toBeNull();
  });

  it('expires after its lifetime', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/v0/users/${grace.user.slug}/tokens`,
      headers: bearer(grace.token),
      payload: { name: 'short', ttl: 60 },
    });
    const { token } = created.json();
    expect((await get('/v0/organizations', token)).statusCode).toBe(200);
    clock += 61_000;
    expect((await get('/v0/organizations', token)).statusCode).toBe(401);
  });
});

describe('users', () => {
  it('lists users for administrators only', async () => {
    const list = await get('/v0/users', ada.token);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect((await get('/v0/users', grace.token)).statusCode).toBe(403);
    expect((await get('/v0/users')).statusCode).toBe(401);
  });

  it('lets users change their own settings but not their privileges', async () => {
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${grace.user.uuid}`,
      headers: bearer(grace.token),
      payload: { name: 'Rear Admiral Grace Hopper' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Rear Admiral Grace Hopper', slug: 'grace-hopper' });
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${grace.user.uuid}`,
      headers: bearer(grace.token),
      payload: { admin: true },
    });
    expect(promote.statusCode).toBe(403);
    expect((await get(`/v0/users/${ada.user.uuid}`, grace.token)).statusCode).toBe(404);
  });

  it('locks a user out of every session', async () => {
    const carol = await signUp(t, 'Carol Shaw', 'carol@example.com');
    const lock = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${carol.user.uuid}`,
      headers: bearer(ada.token),
      payload: { locked: true },
    });
    expect(lock.json().locked).toBe(true);
    expect((await get('/v0/organizations', carol.token)).statusCode).toBe(403);
    const login = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      payload: { email: 'carol@example.com' },
    });
    expect(login.statusCode).toBe(202);
    const notice = mailsTo(t, 'carol@example.com').at(-1);
    expect(notice?.subject).toBe('Your Benchtrack account is locked');
    expect(notice?.link).toBeUndefined();
  });

  it('keeps at least one administrator', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.uuid}`,
      headers: bearer(ada.token),
      payload: { admin: false },
    });
    expect(response.statusCode).toBe(409);
  });
});

describe('brute force', () => {
  it('limits authentication attempts and failed tokens per address', async () => {
    const limited = await createTestApp({}, { authAttemptsPerMinute: 5 });
    try {
      const login = () =>
        limited.app.inject({
          method: 'POST',
          url: '/v0/auth/login',
          payload: { email: 'nobody@example.com' },
          remoteAddress: '10.0.0.1',
        });
      for (let i = 0; i < 5; i++) expect((await login()).statusCode).toBe(202);
      const blocked = await login();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(
        /^too many authentication attempts from this address; retry in \d+ s$/,
      );
      const elsewhere = await limited.app.inject({
        method: 'POST',
        url: '/v0/auth/login',
        payload: { email: 'nobody@example.com' },
        remoteAddress: '10.0.0.2',
      });
      expect(elsewhere.statusCode).toBe(202);

      const guess = () =>
        limited.app.inject({
          method: 'GET',
          url: '/v0/organizations',
          headers: bearer('x.y.z'),
          remoteAddress: '10.0.0.3',
        });
      for (let i = 0; i < 5; i++) expect((await guess()).statusCode).toBe(401);
      expect((await guess()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
