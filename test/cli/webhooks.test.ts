import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { expectedSignature, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCliAsync } from './run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let api: ApiServer;
let receiver: Receiver;
let token: string;
const env = () => ({
  BENCHTRACK_HOST: api.url,
  BENCHTRACK_API_TOKEN: token,
  HOOK_SECRET: 'cli-hook-secret-1',
});
const cli = (...args: string[]) => runCliAsync(args, { env: env() });

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startApiServer({ notifications: { allow_private_targets: true } }),
    startReceiver(),
  ]);
  const session = await api.signUp('Ada Lovelace', 'ada@example.com');
  token = session.token;
  const created = await fetch(`${api.url}/v0/organizations/${session.user.slug}/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Hooks' }),
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await api?.close();
  await receiver?.close();
});

describe('benchtrack webhook', () => {
  it('creates, lists, tests, shows deliveries, redelivers and deletes a webhook', async () => {
    const create = await cli(
      'webhook',
      'create',
      'hooks',
      '--url',
      receiver.url(),
      '--secret-env',
      'HOOK_SECRET',
      '--event',
      'report.created',
      'regression.created',
    );
    expect(create.status, create.stderr).toBe(0);
    const webhook = JSON.parse(create.stdout);
    expect(webhook).toMatchObject({
      events: ['regression.created', 'report.created'],
      has_secret: true,
      format: 'json',
    });
    expect(create.stdout).not.toContain('cli-hook-secret-1');

    const list = await cli('webhook', 'list', 'hooks');
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((w: { uuid: string }) => w.uuid)).toEqual([webhook.uuid]);

    const test = await cli('webhook', 'test', 'hooks', webhook.uuid);
    expect(test.status, test.stderr).toBe(0);
    const ping = JSON.parse(test.stdout);
    expect(ping).toMatchObject({ event: 'ping', state: 'pending' });
    await eventually(() => expect(receiver.received).toHaveLength(1), 10_000);
    const [got] = receiver.received;
    expect(got?.headers['x-benchtrack-signature']).toBe(
      expectedSignature('cli-hook-secret-1', got?.body ?? ''),
    );

    const deliveries = await eventually(async () => {
      const shown = await cli('webhook', 'deliveries', 'hooks', webhook.uuid);
      expect(shown.status, shown.stderr).toBe(0);
      const list = JSON.parse(shown.stdout);
      expect(list).toMatchObject([{ uuid: ping.uuid, state: 'delivered', attempts: [{ status: 200 }] }]);
      return list;
    }, 10_000);
    const again = await cli('webhook', 'redeliver', 'hooks', webhook.uuid, deliveries[0].uuid);
    expect(again.status, again.stderr).toBe(0);
    await eventually(() => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[1]?.headers['x-benchtrack-delivery']).toBe(ping.uuid);

    const update = await cli('webhook', 'update', 'hooks', webhook.uuid, '--no-secret', '--format', 'slack');
    expect(update.status, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ has_secret: false, format: 'slack' });

    const removed = await cli('webhook', 'delete', 'hooks', webhook.uuid);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toBe(`Deleted webhook ${webhook.uuid}.\n`);
    expect(JSON.parse((await cli('webhook', 'list', 'hooks')).stdout)).toEqual([]);
  });

  it('says what is wrong with a refused webhook, and exits non-zero', async () => {
    const refused = await cli('webhook', 'create', 'hooks', '--url', 'ftp://example.com/hook');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('body.url: must use http or https');
    const unknown = await cli(
      'webhook',
      'create',
      'hooks',
      '--url',
      receiver.url(),
      '--event',
      'report.deleted',
    );
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(/Allowed choices are regression\.created/);
    const noSecret = await runCliAsync(
      ['webhook', 'create', 'hooks', '--url', receiver.url(), '--secret-env', 'MISSING_SECRET'],
      { env: { BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: token } },
    );
    expect(noSecret.status).not.toBe(0);
    expect(noSecret.stderr).toContain('--secret-env MISSING_SECRET: the environment variable is not set');
  });
});
