import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../core/index.js';
import { bearer, createProject, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { expectedSignature, FAST_DELIVERY, startReceiver, type Receiver } from '../helpers/receiver.js';
import { body, smtpConfig, startSmtp } from '../helpers/smtp.js';
import { seedSteps } from '../helpers/steps.js';

/**
 * A regression reaches people: 60 daily reports of six latency benchmarks under a t-test threshold, two of them
 * 15% slower from v45 on, posted to a JSON webhook (with a secret; the receiver fails the first attempt) and a
 * Slack webhook on local receivers, and mailed through a real SMTP server to a member who wants each regression
 * and, the next day, to one who wants a daily digest.
 */
const SECRET = 'acceptance-secret-1';

/** The API's clock: real time moved to 1 March 2026, moved on by a test to the next day. */
let offset = Date.UTC(2026, 2, 1, 10) - Date.now();
const now = () => new Date(Date.now() + offset);

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let receiver: Receiver;
let ada: Session;
let bob: Session;
let jsonHook: string;
let jsonCalls = 0;

type Smtp = typeof smtp;
const mailsTo = (server: Smtp, to: string) =>
  server.received
    .filter((mail) => mail.to.includes(to))
    .map((mail) => ({ raw: mail.raw, text: body(mail.raw) }));

/** Signs up through the API, reading the confirmation link from the mail the SMTP server received. */
async function signUp(name: string, email: string): Promise<Session> {
  const signup = await t.app.inject({
    method: 'POST',
    url: '/v0/auth/signup',
    payload: { name, email, i_agree: true },
  });
  expect(signup.statusCode, signup.body).toBe(202);
  const token = /auth\/confirm\?token=([\w.-]+)/.exec(mailsTo(smtp, email).at(-1)?.text ?? '')?.[1];
  const confirm = await t.app.inject({ method: 'POST', url: '/v0/auth/confirm', payload: { token } });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return confirm.json() as Session;
}

const call = (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  [smtp, receiver] = await Promise.all([
    startSmtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true }),
    startReceiver((request) => {
      if (request.url === '/json' && ++jsonCalls === 1) return { status: 500, body: 'deploying' };
      return { status: 200 };
    }),
  ]);
  t = await createTestApp(
    { notifications: { allow_private_targets: true }, smtp: smtpConfig(smtp.port, { starttls: false }) },
    { now, deliveryTiming: FAST_DELIVERY },
  );
  ada = await signUp('Ada Lovelace', 'ada@example.com');
  bob = await signUp('Bob Follower', 'bob@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Steps', visibility: 'public' });
  const json = await call(ada.token, 'POST', '/v0/projects/steps/webhooks', {
    url: receiver.url('/json'),
    secret: SECRET,
  });
  expect(json.statusCode, json.body).toBe(201);
  jsonHook = json.json().uuid;
  const slack = await call(ada.token, 'POST', '/v0/projects/steps/webhooks', {
    url: receiver.url('/slack'),
    format: 'slack',
  });
  expect(slack.statusCode, slack.body).toBe(201);
  expect(
    (await call(ada.token, 'PUT', `/v0/users/${ada.user.slug}/notifications/steps`, { email: 'each' }))
      .statusCode,
  ).toBe(200);
  expect(
    (await call(bob.token, 'PUT', `/v0/users/${bob.user.slug}/notifications/steps`, { email: 'daily' }))
      .statusCode,
  ).toBe(200);
  await seedSteps(t, ada, {
    project: 'steps',
    benchmarks: Array.from({ length: 6 }, (_, i) => `bench_${i}`),
    level: (name, version) => ((name === 'bench_1' || name === 'bench_3') && version >= 45 ? 1.15 : 1),
    seed: 7,
  });
}, 300_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await receiver?.close();
});

describe('a regression', () => {
  it('is posted once as regression.created, signed, naming both series, although the first attempt got a 500', async () => {
    const created = await eventually(() => {
      const delivered = receiver.received.filter(
        (r) => r.url === '/json' && JSON.parse(r.body).event === 'regression.created',
      );
      expect(delivered).toHaveLength(2);
      return delivered;
    }, 20_000);
    const [first, second] = created as [(typeof created)[0], (typeof created)[0]];
    // one delivery, tried twice with the same body
    expect(second.headers['x-benchtrack-delivery']).toBe(first.headers['x-benchtrack-delivery']);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-benchtrack-event']).toBe('regression.created');
    expect(second.headers['x-benchtrack-signature']).toBe(expectedSignature(SECRET, second.body));
    const payload = JSON.parse(second.body);
    expect(payload).toMatchObject({
      event: 'regression.created',
      delivery: first.headers['x-benchtrack-delivery'],
      project: { slug: 'steps' },
      regression: {
        kind: 'regression',
        status: 'untriaged',
        first_bad: { number: 45 },
        last_good: { number: 44 },
        branch: { name: 'main' },
        testbed: { name: 'linux' },
      },
    });
    expect(
      payload.regression.series.map((s: { benchmark: { name: string } }) => s.benchmark.name).sort(),
    ).toEqual(['bench_1', 'bench_3']);
    expect(payload.regression.console_url).toBe(
      `http://localhost:3000/console/projects/steps/regressions/${payload.regression.uuid}`,
    );
    const regression = await call(
      ada.token,
      'GET',
      `/v0/projects/steps/regressions/${payload.regression.uuid}`,
    );
    // the regression as the API shows it (when the delivery was made: later reports attach more alerts)
    const { console_url: _link, ...shown } = payload.regression;
    expect(Object.keys(shown).sort()).toEqual(Object.keys(regression.json()).sort());
    expect(shown).toMatchObject({ uuid: regression.json().uuid, first_bad: regression.json().first_bad });
    // the second attempt is recorded once its answer is in, after the receiver has the body
    await eventually(async () => {
      const listed = await call(
        ada.token,
        'GET',
        `/v0/projects/steps/webhooks/${jsonHook}/deliveries?per_page=50`,
      );
      const deliveries = listed.json().filter((d: { event: string }) => d.event === 'regression.created');
      expect(deliveries).toMatchObject([
        { state: 'delivered', attempts: [{ status: 500 }, { status: 200 }] },
      ]);
    });
  });

  it('reaches the Slack webhook as a message naming the benchmarks', async () => {
    const [message] = await eventually(() => {
      const messages = receiver.bodies('/slack');
      expect(messages).toHaveLength(1);
      return messages;
    }, 20_000);
    expect(message.text).toMatch(
      /^Regression found in Steps: 2 series on main \/ linux, v44 \(0000000\)\.\.v45 \(0000000\): /,
    );
    expect(message.text).toContain('bench_1 +1');
    expect(message.text).toContain('bench_3 +1');
    expect(JSON.stringify(message.blocks)).toContain('bench_1 (Latency)');
  });

  it('is mailed to who wants each regression, with a link that stops it', async () => {
    const [mail] = await eventually(() => {
      const mails = mailsTo(smtp, 'ada@example.com').filter((m) =>
        /Subject: \[Benchtrack\] Regression/.test(m.raw),
      );
      expect(mails).toHaveLength(1);
      return mails;
    }, 20_000);
    expect(mail?.raw).toContain('Subject: [Benchtrack] Regression found in Steps: 2 series on main / linux');
    expect(mail?.text).toMatch(/bench_1 \(Latency\): \+1\d\.\d%/);
    expect(mail?.text).toMatch(/bench_3 \(Latency\): \+1\d\.\d%/);
    expect(mail?.raw).toMatch(
      /List-Unsubscribe:\s+<http:\/\/localhost:3000\/notifications\/unsubscribe\?token=/,
    );
    const token = /notifications\/unsubscribe\?token=([\w.-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    // nobody but the token's holder is needed: no session
    const stopped = await call(undefined, 'POST', '/v0/notifications/unsubscribe', { token });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ project: { slug: 'steps' }, email: 'off' });
    expect((await call(ada.token, 'GET', `/v0/users/${ada.user.slug}/notifications`)).json()).toEqual([]);
    // a session token is no unsubscribe token
    const wrong = await call(undefined, 'POST', '/v0/notifications/unsubscribe', { token: ada.token });
    expect(wrong.statusCode).toBe(401);
    // bob wants the digest, not each regression
    expect(
      mailsTo(smtp, 'bob@example.com').filter((m) => /Subject: \[Benchtrack\] Regression/.test(m.raw)),
    ).toEqual([]);
  });

  it('is in the digest of the next day, sent once, to who wants a daily digest', async () => {
    const digests = () =>
      mailsTo(smtp, 'bob@example.com').filter((m) => /Subject: \[Benchtrack\] Steps:/.test(m.raw));
    expect(digests()).toEqual([]);
    offset += Date.UTC(2026, 2, 2, 0, 0, 30) - now().getTime();
    const [digest] = await eventually(() => {
      expect(digests()).toHaveLength(1);
      return digests();
    }, 20_000);
    expect(digest?.raw).toContain('Subject: [Benchtrack] Steps: 1 regression on 2026-03-01');
    expect(digest?.text).toContain('Regression found in Steps: 2 series on main / linux');
    expect(digest?.text).toContain('You get this e-mail because you chose a daily digest for Steps');
    expect(digest?.text).toMatch(/notifications\/unsubscribe\?token=[\w.-]+/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(digests()).toHaveLength(1);
  });
});

describe('e-mail choices', () => {
  it('are for projects the person may see, and refuse unknown choices naming the field', async () => {
    await createProject(t, ada, 'ada-lovelace', { name: 'Hidden', visibility: 'private' });
    expect(
      (await call(bob.token, 'PUT', `/v0/users/${bob.user.slug}/notifications/hidden`, { email: 'each' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(bob.token, 'PUT', `/v0/users/${ada.user.slug}/notifications/steps`, { email: 'each' }))
        .statusCode,
    ).toBe(404);
    const bad = await call(bob.token, 'PUT', `/v0/users/${bob.user.slug}/notifications/steps`, {
      email: 'weekly',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^body\.email: /);
    const listed = await call(bob.token, 'GET', `/v0/users/${bob.user.slug}/notifications`);
    expect(listed.json()).toMatchObject([{ project: { slug: 'steps' }, email: 'daily' }]);
    expect(listed.headers['x-total-count']).toBe('1');
  });

  it('accept an unsubscribe token signed by the server only', async () => {
    const forged = await new Tokens(
      {
        current: {
          ...t.config,
          security: { ...t.config.security, secret_key: 'another-secret-key-0123456789' },
        },
      },
      now,
    ).issue('unsubscribe', bob.user.uuid, { project: 'steps' });
    const refused = await call(undefined, 'POST', '/v0/notifications/unsubscribe', { token: forged.token });
    expect(refused.statusCode).toBe(401);
    expect((await call(bob.token, 'GET', `/v0/users/${bob.user.slug}/notifications`)).json()).toHaveLength(1);
  });

  it('refuse anonymous webhook creation', async () => {
    const anonymous = await call(undefined, 'POST', '/v0/projects/steps/webhooks', {
      url: receiver.url('/anon'),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
