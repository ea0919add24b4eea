import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { expectedSignature, FAST_DELIVERY, startReceiver, type Receiver } from '../helpers/receiver.js';

/** Host names of the tests' own: what the system resolver would answer for a receiver on this machine. */
const resolver = async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === 'rebound.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'rebound6.test') return [{ address: '::1', family: 6 }];
  if (hostname === 'private.test') return [{ address: '10.1.2.3', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let t: TestApp;
/** The same server without `notifications.allow_private_targets`. */
let guarded: TestApp;
let ada: Session;
/** Ada's session on the guarded server. */
let adaGuarded: Session;
let stranger: Session;
let receiver: Receiver;
const P = 'hooked';

const session = (app: TestApp) => (app === guarded ? adaGuarded : ada).token;

const call = (
  app: TestApp,
  token: string | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => app.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

async function createWebhook(app: TestApp, body: object, project = P) {
  const response = await call(app, session(app), 'POST', `/v0/projects/${project}/webhooks`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { uuid: string; has_secret: boolean; events: string[]; last_delivery: unknown };
}

async function deliveries(app: TestApp, webhook: string, project = P) {
  const response = await call(
    app,
    session(app),
    'GET',
    `/v0/projects/${project}/webhooks/${webhook}/deliveries?per_page=50`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    uuid: string;
    event: string;
    state: string;
    attempts: { status: number | null; error: string | null; response: string | null; duration_ms: number }[];
  }[];
}

/** Waits until the webhook's newest delivery is no longer pending, and answers it. */
async function settled(app: TestApp, webhook: string, project = P) {
  return eventually(async () => {
    const [last] = await deliveries(app, webhook, project);
    expect(last?.state).not.toBe('pending');
    return last!;
  }, 15_000);
}

/** Ada's report of one result into `project` on t (main, ci-box); answers its UUID. */
async function postReport(project: string): Promise<string> {
  const now = new Date().toISOString();
  const response = await call(t, ada.token, 'POST', `/v0/projects/${project}/reports`, {
    branch: 'main',
    testbed: 'ci-box',
    start_time: now,
    end_time: now,
    results: [JSON.stringify({ 'sort/1k': { latency: { value: 12 } } })],
    settings: { adapter: 'json' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid as string;
}

async function ping(app: TestApp, webhook: string, project = P) {
  const response = await call(app, session(app), 'POST', `/v0/projects/${project}/webhooks/${webhook}/test`);
  expect(response.statusCode, response.body).toBe(202);
  return response.json() as { uuid: string; state: string; event: string };
}

beforeAll(async () => {
  const options = { deliveryTiming: FAST_DELIVERY, webhookResolver: resolver };
  [t, guarded, receiver] = await Promise.all([
    createTestApp({ notifications: { allow_private_targets: true } }, options),
    createTestApp({}, options),
    startReceiver((request) => {
      const wanted = /status=(\d+)/.exec(request.url)?.[1];
      return { status: wanted ? Number(wanted) : 200, body: 'thanks' };
    }),
  ]);
  [ada, adaGuarded] = (await Promise.all(
    [t, guarded].map(async (app) => {
      const owner = await signUp(app, 'Ada Lovelace', 'ada@example.com');
      await createProject(app, owner, 'ada-lovelace', { name: 'Hooked' });
      await createProject(app, owner, 'ada-lovelace', { name: 'Secret Hooks', visibility: 'private' });
      return owner;
    }),
  )) as [Session, Session];
  stranger = await signUp(t, 'Sam Stranger', 'sam@example.com');
});
afterAll(async () => {
  await Promise.all([t?.close(), guarded?.close(), receiver?.close()]);
});

describe('managing webhooks', () => {
  it('is for logged-in members who may write to the project; the secret is never shown', async () => {
    const created = await createWebhook(t, { url: receiver.url('/managed'), secret: 'managed-secret-1' });
    expect(created).toMatchObject({
      url: receiver.url('/managed'),
      format: 'json',
      events: ['regression.created', 'regression.updated', 'regression.closed'],
      has_secret: true,
      last_delivery: null,
    });
    expect(JSON.stringify(created)).not.toContain('managed-secret-1');
    const url = `/v0/projects/${P}/webhooks`;
    expect((await call(t, undefined, 'POST', url, { url: receiver.url() })).statusCode).toBe(401);
    expect((await call(t, stranger.token, 'POST', url, { url: receiver.url() })).statusCode).toBe(404);
    expect((await call(t, undefined, 'GET', url)).statusCode).toBe(401);
    expect((await call(t, stranger.token, 'GET', `${url}/${created.uuid}`)).statusCode).toBe(404);
    const secret = '/v0/projects/secret-hooks/webhooks';
    expect((await call(t, undefined, 'POST', secret, { url: receiver.url() })).statusCode).toBe(404);
    expect((await call(t, stranger.token, 'GET', secret)).statusCode).toBe(404);

    const listed = await call(t, ada.token, 'GET', url);
    expect(listed.headers['x-total-count']).toBe('1');
    expect(listed.json().map((w: { uuid: string }) => w.uuid)).toEqual([created.uuid]);
    const changed = await call(t, ada.token, 'PATCH', `${url}/${created.uuid}`, {
      events: ['report.created', 'regression.created'],
      secret: null,
      format: 'slack',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      events: ['regression.created', 'report.created'],
      has_secret: false,
      format: 'slack',
    });
    expect((await call(t, ada.token, 'DELETE', `${url}/${created.uuid}`)).statusCode).toBe(204);
    expect((await call(t, ada.token, 'GET', `${url}/${created.uuid}`)).statusCode).toBe(404);
    expect(t.logText()).not.toContain('managed-secret-1');
  });

  it('refuses a bad webhook naming the field and the rule', async () => {
    const refused = async (body: object) => {
      const response = await call(t, ada.token, 'POST', `/v0/projects/${P}/webhooks`, body);
      expect(response.statusCode, response.body).toBe(400);
      return response.json().message as string;
    };
    expect(await refused({ url: 'ftp://example.com/hook' })).toMatch(/^body\.url: must use http or https/);
    expect(await refused({ url: 'hook' })).toMatch(/^body\.url: must be an absolute http or https URL/);
    expect(await refused({ url: 'https://bot:pw@example.com/' })).toMatch(
      /^body\.url: must not contain a user name or password/,
    );
    expect(await refused({ url: 'https://example.com/', secret: 'short' })).toMatch(
      /^body\.secret: must be at least 8 characters/,
    );
    expect(await refused({ url: 'https://example.com/', events: ['report.deleted'] })).toMatch(
      /^body\.events\[0\]: must be one of regression\.created/,
    );
    expect(await refused({ url: 'https://example.com/', events: [] })).toMatch(
      /^body\.events: must name at least one event/,
    );
    expect(await refused({ url: 'https://example.com/', format: 'xml' })).toMatch(/^body\.format/);
  });
});

describe('deliveries', () => {
  it('send a signed test delivery and list it with its attempt', async () => {
    const secret = 'ping-secret-123';
    const webhook = await createWebhook(t, { url: receiver.url('/ping'), secret });
    const queued = await ping(t, webhook.uuid);
    expect(queued).toMatchObject({ event: 'ping', state: 'pending' });
    const done = await settled(t, webhook.uuid);
    expect(done).toMatchObject({
      uuid: queued.uuid,
      state: 'delivered',
      attempts: [{ status: 200, error: null, response: 'thanks' }],
    });
    const [got] = receiver.received.filter((r) => r.url === '/ping');
    expect(got?.method).toBe('POST');
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-benchtrack-event': 'ping',
      'x-benchtrack-delivery': queued.uuid,
      'x-benchtrack-signature': expectedSignature(secret, got?.body ?? ''),
    });
    expect(JSON.parse(got?.body ?? '')).toMatchObject({
      event: 'ping',
      delivery: queued.uuid,
      project: { slug: P },
      webhook: { uuid: webhook.uuid },
    });
    const viewed = await call(
      t,
      ada.token,
      'GET',
      `/v0/projects/${P}/webhooks/${webhook.uuid}/deliveries/${queued.uuid}`,
    );
    expect(viewed.json().body).toBe(got?.body);
    const shown = await call(t, ada.token, 'GET', `/v0/projects/${P}/webhooks/${webhook.uuid}`);
    expect(shown.json().last_delivery).toMatchObject({
      uuid: queued.uuid,
      event: 'ping',
      state: 'delivered',
      status: 200,
    });
  });

  it('retry a 5xx with the same delivery and body until it is delivered', async () => {
    let calls = 0;
    const flaky = await startReceiver(() => (++calls <= 2 ? { status: 503, body: 'busy' } : { status: 204 }));
    try {
      const secret = 'flaky-secret-123';
      const webhook = await createWebhook(t, { url: flaky.url(), secret });
      await ping(t, webhook.uuid);
      const done = await settled(t, webhook.uuid);
      expect(done.state).toBe('delivered');
      expect(done.attempts.map((a) => a.status)).toEqual([503, 503, 204]);
      expect(flaky.received).toHaveLength(3);
      const [first] = flaky.received;
      for (const got of flaky.received) {
        expect(got.body).toBe(first?.body);
        expect(got.headers['x-benchtrack-delivery']).toBe(done.uuid);
        expect(got.headers['x-benchtrack-signature']).toBe(expectedSignature(secret, got.body));
      }
    } finally {
      await flaky.close();
    }
  });

  it('give up after the last attempt, fail a 4xx or a redirect at once, and redeliver by hand', async () => {
    const down = await createWebhook(t, { url: receiver.url('/down?status=500') });
    await ping(t, down.uuid);
    const failed = await settled(t, down.uuid);
    expect(failed.state).toBe('failed');
    expect(failed.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 500]);

    const gone = await createWebhook(t, { url: receiver.url('/gone?status=410') });
    await ping(t, gone.uuid);
    expect((await settled(t, gone.uuid)).attempts.map((a) => a.status)).toEqual([410]);

    const moved = await createWebhook(t, { url: receiver.url('/moved?status=302') });
    await ping(t, moved.uuid);
    const redirected = await settled(t, moved.uuid);
    expect(redirected).toMatchObject({
      state: 'failed',
      attempts: [{ status: 302, error: 'redirects are not followed' }],
    });
    expect(receiver.received.filter((r) => r.url.startsWith('/moved'))).toHaveLength(1);

    // the receiver is fixed: the same delivery goes out again, once
    const fixed = await call(t, ada.token, 'PATCH', `/v0/projects/${P}/webhooks/${gone.uuid}`, {
      url: receiver.url('/gone-fixed'),
    });
    expect(fixed.statusCode).toBe(200);
    const [first] = await deliveries(t, gone.uuid);
    const again = await call(
      t,
      ada.token,
      'POST',
      `/v0/projects/${P}/webhooks/${gone.uuid}/deliveries/${first?.uuid}/redeliver`,
    );
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toMatchObject({ uuid: first?.uuid, state: 'pending' });
    const redelivered = await settled(t, gone.uuid);
    expect(redelivered).toMatchObject({ uuid: first?.uuid, state: 'delivered' });
    expect(redelivered.attempts.map((a) => a.status)).toEqual([410, 200]);
    const [resent] = receiver.received.filter((r) => r.url === '/gone-fixed');
    expect(resent?.headers['x-benchtrack-delivery']).toBe(first?.uuid);
    // a pending delivery is not redelivered twice
    await ping(t, down.uuid);
    const [pending] = await deliveries(t, down.uuid);
    const twice = await call(
      t,
      ada.token,
      'POST',
      `/v0/projects/${P}/webhooks/${down.uuid}/deliveries/${pending?.uuid}/redeliver`,
    );
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json().message).toMatch(/is pending: its next attempt is at/);
  });

  it('time out a receiver that does not answer, and keep only the start of a long answer', async () => {
    let calls = 0;
    const slow = await startReceiver(() =>
      ++calls === 1 ? 'hang' : { status: 200, body: 'x'.repeat(100_000) },
    );
    try {
      const webhook = await createWebhook(t, { url: slow.url() });
      await ping(t, webhook.uuid);
      const done = await settled(t, webhook.uuid);
      expect(done.state).toBe('delivered');
      expect(done.attempts[0]).toMatchObject({ status: null, error: 'no answer within 1500 ms' });
      expect(done.attempts[1]?.response).toHaveLength(1024);
    } finally {
      await slow.close();
    }
  });

  it('post report.created, in Benchtrack JSON and as a Slack message', async () => {
    const json = await createWebhook(t, { url: receiver.url('/reports'), events: ['report.created'] });
    const slack = await createWebhook(t, {
      url: receiver.url('/slack'),
      events: ['report.created'],
      format: 'slack',
    });
    const quiet = await createWebhook(t, { url: receiver.url('/quiet') });
    const uuid = await postReport(P);
    const [body] = await eventually(() => {
      const bodies = receiver.bodies('/reports');
      expect(bodies).toHaveLength(1);
      return bodies;
    }, 10_000);
    expect(body).toMatchObject({
      event: 'report.created',
      project: { slug: P },
      report: {
        uuid,
        branch: { name: 'main' },
        testbed: { name: 'ci-box' },
        counts: { results: [{ benchmarks: 1, measures: 1 }] },
        console_url: `http://localhost:3000/console/projects/${P}/reports/${uuid}`,
      },
    });
    expect(body.delivery).toBe((await deliveries(t, json.uuid))[0]?.uuid);
    const [message] = await eventually(() => {
      const bodies = receiver.bodies('/slack');
      expect(bodies).toHaveLength(1);
      return bodies;
    }, 10_000);
    expect(message.text).toMatch(/^New report in Hooked: main v\d+ \/ ci-box, 1 result, 0 alerts http/);
    expect(message.blocks).toHaveLength(1);
    // the attempt is recorded once the receiver's answer is in, after the receiver has the body
    await eventually(async () =>
      expect((await deliveries(t, slack.uuid))[0]).toMatchObject({
        event: 'report.created',
        state: 'delivered',
      }),
    );
    expect(await deliveries(t, quiet.uuid)).toEqual([]);
  });

  it('follow every change of the webhooks between two reports: created, its events changed, deleted', async () => {
    const project = 'hooked-later';
    const { slug } = await createProject(t, ada, 'ada-lovelace', { name: 'Hooked Later', slug: project });
    const report = () => postReport(slug);
    const received = () => receiver.bodies('/later').map((body) => body.report?.uuid as string);
    // a report while the project has no webhook: nothing wants it
    await report();
    const hook = await createWebhook(
      t,
      { url: receiver.url('/later'), events: ['regression.created'] },
      slug,
    );
    await report();
    const patched = await call(t, ada.token, 'PATCH', `/v0/projects/${slug}/webhooks/${hook.uuid}`, {
      events: ['report.created'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const wanted = await report();
    await eventually(() => expect(received()).toEqual([wanted]), 10_000);
    const deleted = await call(t, ada.token, 'DELETE', `/v0/projects/${slug}/webhooks/${hook.uuid}`);
    expect(deleted.statusCode).toBe(204);
    await report();
    const again = await createWebhook(t, { url: receiver.url('/later'), events: ['report.created'] }, slug);
    const last = await report();
    await eventually(() => expect(received()).toEqual([wanted, last]), 10_000);
    expect((await deliveries(t, again.uuid, slug)).map((d) => d.event)).toEqual(['report.created']);
  });
});

describe('refused targets', () => {
  it('are refused when created: loopback, 10/8, cloud metadata, IPv6 loopback and localhost', async () => {
    const cases = [
      ['http://127.0.0.1:8080/hook', /127\.0\.0\.1 is a loopback address/],
      ['http://10.20.30.40/hook', /10\.20\.30\.40 is a private address/],
      [
        'http://169.254.169.254/latest/meta-data/',
        /169\.254\.169\.254 is a link-local \(cloud metadata\) address/,
      ],
      ['http://[::1]:8080/hook', /::1 is a loopback address/],
      ['http://[::ffff:127.0.0.1]/hook', /::ffff:7f00:1 is a loopback address/],
      ['http://0x7f000001/hook', /127\.0\.0\.1 is a loopback address/],
      ['http://localhost:8080/hook', /localhost is a loopback name/],
    ] as const;
    for (const [url, why] of cases) {
      const response = await call(guarded, adaGuarded.token, 'POST', `/v0/projects/${P}/webhooks`, { url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toMatch(
        /^url: must not point to a loopback, private, link-local or metadata address/,
      );
      expect(response.json().message).toMatch(why);
      expect(response.json().message).toContain('notifications.allow_private_targets');
    }
  });

  it('are refused when delivered, on the address a host name resolves to, and never retried', async () => {
    for (const [host, address] of [
      ['rebound.test', '127.0.0.1, a loopback'],
      ['rebound6.test', '::1, a loopback'],
      ['private.test', '10.1.2.3, a private'],
    ] as const) {
      const webhook = await createWebhook(guarded, { url: `http://${host}:${receiver.port}/refused` });
      await ping(guarded, webhook.uuid);
      const done = await settled(guarded, webhook.uuid);
      expect(done).toMatchObject({
        state: 'failed',
        attempts: [{ status: null, error: `refused: ${host} resolves to ${address} address` }],
      });
    }
    expect(receiver.received.filter((r) => r.url === '/refused')).toEqual([]);
  });

  it('are reached when the server allows private targets (the same names and addresses)', async () => {
    const ipv6 = await startReceiver(undefined, '::1');
    try {
      for (const url of [`http://rebound.test:${receiver.port}/allowed`, ipv6.url('/allowed')]) {
        const webhook = await createWebhook(t, { url });
        await ping(t, webhook.uuid);
        expect((await settled(t, webhook.uuid)).state).toBe('delivered');
      }
      expect(receiver.received.filter((r) => r.url === '/allowed')).toHaveLength(1);
      expect(ipv6.received.filter((r) => r.url === '/allowed')).toHaveLength(1);
    } finally {
      await ipv6.close();
    }
  });
});
