import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lastLinkTo, mailsTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { body, smtpConfig, startSmtp } from '../helpers/smtp.js';

/**
 * Attacks on accounts (issue 14, items 5, 9 and 12): each case says the status it expects and checks that
 * nothing was written.
 */

const confirm = (t: TestApp, token: string | null) =>
  t.app.inject({ method: 'POST', url: '/v0/auth/confirm', payload: { token } });

const userCount = (t: TestApp) => t.storage.read((r) => r.users.count({}));

async function emailOf(t: TestApp, uuid: string): Promise<string | undefined> {
  return (await t.storage.read((r) => r.users.find({ uuid })))?.email;
}

describe('e-mail change (item 5)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  let ada: Session;
  let apiToken: string;
  const sent = (to: string) => smtp.received.filter((mail) => mail.to.includes(to)).map((m) => body(m.raw));
  const linkIn = (text: string | undefined) => /auth\/confirm\?token=([\w.-]+)/.exec(text ?? '')?.[1] ?? null;

  beforeAll(async () => {
    smtp = await startSmtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    t = await createTestApp({ smtp: smtpConfig(smtp.port, { starttls: false }) });
    await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', i_agree: true },
    });
    const session = await confirm(t, linkIn(sent('ada@example.com').at(-1)));
    ada = session.json();
    const created = await t.app.inject({
      method: 'POST',
      url: `/v0/users/${ada.user.slug}/tokens`,
      headers: bearer(ada.token),
      payload: { name: 'CI' },
    });
    apiToken = created.json().token;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('refuses an e-mail change made with an API token (403), changing nothing and mailing nobody', async () => {
    const before = smtp.received.length;
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.slug}`,
      headers: bearer(apiToken),
      payload: { email: 'mallory@example.net' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      'an API token cannot change the e-mail address; log in to the console and change it there',
    );
    expect(await emailOf(t, ada.user.uuid)).toBe('ada@example.com');
    expect(smtp.received).toHaveLength(before);
    const login = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      payload: { email: 'mallory@example.net' },
    });
    expect(login.statusCode).toBe(202);
    expect(linkIn(sent('mallory@example.net').at(-1))).toBeNull();
  });

  it('still lets an API token change the other settings', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.slug}`,
      headers: bearer(apiToken),
      payload: { name: 'Ada King' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Ada King', email: 'ada@example.com' });
  });

  it('with a session, mails a confirmation to the new address and a notice to the old one; only the link changes it', async () => {
    const before = smtp.received.length;
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.slug}`,
      headers: bearer(ada.token),
      payload: { email: 'Ada@Lovelace.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe('ada@example.com');
    expect(await emailOf(t, ada.user.uuid)).toBe('ada@example.com');
    const mails = smtp.received.slice(before);
    expect(mails.map((m) => m.to)).toEqual([['ada@example.com'], ['ada@lovelace.example']]);
    const [notice, confirmation] = mails.map((m) => body(m.raw));
    expect(confirmation).toContain('Subject: Confirm your new Benchtrack e-mail address');
    expect(notice).toContain('Subject: Your Benchtrack e-mail address is being changed');
    expect(notice).toContain('a**@l*******.example');
    expect(linkIn(notice)).toBeNull();

    const token = linkIn(confirmation);
    const confirmed = await confirm(t, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().user.email).toBe('ada@lovelace.example');
    expect(await emailOf(t, ada.user.uuid)).toBe('ada@lovelace.example');

    const again = await confirm(t, token);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(
      'the confirmation link was already used; change the e-mail address again to get a new link',
    );
  });

  it('refuses the link when another account took the address meanwhile (409), changing nothing', async () => {
    const before = smtp.received.length;
    await t.app.inject({
      method: 'PATCH',
      url: `/v0/users/${ada.user.slug}`,
      headers: bearer(ada.token),
      payload: { email: 'shared@example.com' },
    });
    const token = linkIn(sent('shared@example.com').at(-1));
    expect(smtp.received).toHaveLength(before + 2);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/signup',
      payload: { name: 'Grace Hopper', email: 'shared@example.com', i_agree: true },
    });
    expect(signup.statusCode).toBe(202);
    const response = await confirm(t, token);
    expect(response.statusCode).toBe(409);
    expect(await emailOf(t, ada.user.uuid)).toBe('ada@lovelace.example');
  });
});

describe('single-use links (item 9)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await signUp(t, 'Ada Lovelace', 'ada@example.com');
  });
  afterAll(() => t.close());

  const login = () =>
    t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email: 'ada@example.com' } });

  it('accepts a login link once (200, then 401)', async () => {
    await login();
    const token = lastLinkTo(t, 'ada@example.com').searchParams.get('token');
    expect((await confirm(t, token)).statusCode).toBe(200);
    const again = await confirm(t, token);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(
      'the confirmation link was already used; log in again to get a new link',
    );
  });

  it('gives one session for three confirmations of one link sent at once', async () => {
    await login();
    const token = lastLinkTo(t, 'ada@example.com').searchParams.get('token');
    const answers = await Promise.all([confirm(t, token), confirm(t, token), confirm(t, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('retires the older links a user still holds once one link is used', async () => {
    await login();
    const older = lastLinkTo(t, 'ada@example.com').searchParams.get('token');
    await login();
    const newer = lastLinkTo(t, 'ada@example.com').searchParams.get('token');
    expect((await confirm(t, newer)).statusCode).toBe(200);
    expect((await confirm(t, older)).statusCode).toBe(401);
  });
});

describe('account enumeration (item 12)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await signUp(t, 'Ada Lovelace', 'ada@example.com');
    const carol = await signUp(t, 'Carol Shaw', 'carol@example.com');
    await t.storage.transaction((tx) => tx.users.update({ uuid: carol.user.uuid }, { locked: true }));
  });
  afterAll(() => t.close());

  const post = (path: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/v0/auth/${path}`, payload });

  it('answers login the same for an unknown, a known and a locked address (202), linking only the owner', async () => {
    const unknown = await post('login', { email: 'who@example.org' });
    const known = await post('login', { email: 'ada@example.com' });
    const locked = await post('login', { email: 'carol@example.com' });
    expect([unknown.statusCode, known.statusCode, locked.statusCode]).toEqual([202, 202, 202]);
    expect(unknown.json()).toEqual({ email: 'who@example.org' });
    expect(known.json()).toEqual({ email: 'ada@example.com' });
    expect(mailsTo(t, 'who@example.org').map((m) => [m.subject, m.link])).toEqual([
      ['No Benchtrack account uses this address', undefined],
    ]);
    expect(mailsTo(t, 'carol@example.com').at(-1)).toMatchObject({
      subject: 'Your Benchtrack account is locked',
    });
    expect(mailsTo(t, 'carol@example.com').at(-1)?.link).toBeUndefined();
    expect(await userCount(t)).toBe(2);
  });

  it('answers a sign-up for a taken address like a new one (202), creating nothing and mailing the owner a login link', async () => {
    const before = mailsTo(t, 'ada@example.com').length;
    const response = await post('signup', { name: 'Impostor', email: 'ADA@example.com', i_agree: true });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ email: 'ada@example.com' });
    expect(await userCount(t)).toBe(2);
    expect(await t.storage.read((r) => r.organizations.count({}))).toBe(2);
    const mails = mailsTo(t, 'ada@example.com').slice(before);
    expect(mails.map((m) => m.subject)).toEqual(['Your Benchtrack login link']);
    expect(mails[0]?.text).toContain('already has a Benchtrack account');
    const session = await confirm(t, new URL(mails[0]?.link as string).searchParams.get('token'));
    expect(session.json().user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
  });
});
