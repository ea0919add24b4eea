import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../cli/api-server.js';
import { freshPostgresDatabase, onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

/**
 * Deliveries across real `benchtrack-api` processes, as users run them (the compiled program, production pacing):
 * one killed with SIGKILL while a delivery waits for its retry, and two sharing one PostgreSQL database.
 */

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A database both runs of a test share: a file on the embedded engine, else a PostgreSQL database. */
async function sharedDatabase() {
  if (onPostgres) {
    const { url, drop } = await freshPostgresDatabase();
    return { database: { url }, drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-webhooks-'));
  directories.push(dir);
  return { database: { file: join(dir, 'shared.db') }, drop: async () => undefined };
}

async function api(server: ApiServer, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

function report(benchmark: string) {
  const now = new Date().toISOString();
  return {
    branch: 'main',
    testbed: 'ci',
    start_time: now,
    end_time: now,
    results: [JSON.stringify({ [benchmark]: { latency: { value: 1 } } })],
    settings: { adapter: 'json' },
  };
}

/** A project with a report.created webhook to `receiver`, made through `server`; answers the token and the webhook. */
async function hookedProject(server: ApiServer, receiver: Receiver) {
  const { token, user } = await server.signUp('Ada Lovelace', 'ada@example.com');
  await api(server, token, 'POST', `/v0/organizations/${user.slug}/projects`, { name: 'Killed' });
  const webhook = await api(server, token, 'POST', '/v0/projects/killed/webhooks', {
    url: receiver.url(),
    events: ['report.created'],
  });
  return { token, webhook: webhook.uuid as string };
}

const deliveryIds = (receiver: Receiver) => receiver.received.map((r) => r.headers['x-benchtrack-delivery']);

describe('a delivery pending its retry when the process is killed', () => {
  it('is delivered once after the restart', { timeout: 120_000 }, async () => {
    const { database, drop } = await sharedDatabase();
    let calls = 0;
    const receiver = await startReceiver(() =>
      ++calls === 1 ? { status: 500, body: 'down' } : { status: 200 },
    );
    const document = { database, notifications: { allow_private_targets: true } };
    let first: ApiServer | undefined;
    let second: ApiServer | undefined;
    try {
      first = await startApiServer(document);
      const { token, webhook } = await hookedProject(first, receiver);
      await api(first, token, 'POST', '/v0/projects/killed/reports', report('killed'));
      const deliveries = `/v0/projects/killed/webhooks/${webhook}/deliveries`;
      // the first attempt is answered 500 and recorded: the delivery waits for its retry, 15 s on
      const [pending] = await eventually(async () => {
        const list = await api(first as ApiServer, token, 'GET', deliveries);
        expect(list).toMatchObject([{ state: 'pending', attempts: [{ status: 500 }] }]);
        return list as { uuid: string }[];
      }, 20_000);
      expect(await first.process.stop('SIGKILL')).toBeNull();
      await first.close();
      first = undefined;

      second = await startApiServer(document);
      const server = second;
      await eventually(() => expect(receiver.received).toHaveLength(2), 40_000);
      // time for a duplicate to show, were there one
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(deliveryIds(receiver)).toEqual([pending?.uuid, pending?.uuid]);
      expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
      await eventually(async () =>
        expect(await api(server, token, 'GET', deliveries)).toMatchObject([
          { uuid: pending?.uuid, state: 'delivered', attempts: [{ status: 500 }, { status: 200 }] },
        ]),
      );
    } finally {
      await first?.close();
      await second?.close();
      await receiver.close();
      await drop();
    }
  });
});

describe.runIf(onPostgres)('two API processes on one PostgreSQL database', () => {
  it('deliver each notification once, both taking part', { timeout: 120_000 }, async () => {
    const { database, drop } = await sharedDatabase();
    // a slow receiver: each process's sixteen places fill, so the other claims what is due meanwhile
    const receiver = await startReceiver(async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { status: 200 };
    });
    const document = { database, notifications: { allow_private_targets: true } };
    const servers: ApiServer[] = [];
    try {
      servers.push(await startApiServer(document), await startApiServer(document));
      const [a, b] = servers as [ApiServer, ApiServer];
      const { token } = await hookedProject(a, receiver);
      const count = 40;
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          api(i % 2 === 0 ? a : b, token, 'POST', '/v0/projects/killed/reports', report(`bench-${i}`)),
        ),
      );
      await eventually(() => expect(new Set(deliveryIds(receiver)).size).toBe(count), 60_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(receiver.received).toHaveLength(count);
      const delivered = servers.map(
        (server) =>
          readFileSync(join(server.dir, 'api.log'), 'utf8').split('"notification delivered"').length - 1,
      );
      expect(delivered.reduce((sum, n) => sum + n, 0)).toBe(count);
      for (const n of delivered) expect(n).toBeGreaterThan(0);
    } finally {
      for (const server of servers) await server.close();
      await receiver.close();
      await drop();
    }
  });
});
