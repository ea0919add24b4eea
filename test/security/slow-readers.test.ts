import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WorkLimit } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Clients that ask for a large perf answer and then read nothing: they must not hold the heavy-request places
 * that every other perf request waits for, and their connections are closed once their answers stall.
 */
const BENCHMARKS = 200;
const ITERATIONS = 200;
const names = Array.from({ length: BENCHMARKS }, (_, i) => `bench-${String(i).padStart(3, '0')}`);
const query = `branches=main&testbeds=linux&benchmarks=${names.join(',')}&measures=latency`;

async function seed(t: TestApp, ada: Session): Promise<void> {
  await createProject(t, ada, 'ada-lovelace', { name: 'Slow', visibility: 'public' });
  const iteration = (k: number) =>
    JSON.stringify(
      Object.fromEntries(names.map((name, i) => [name, { latency: { value: 100 + i + k / 1000 } }])),
    );
  const response = await t.app.inject({
    method: 'POST',
    url: '/v0/projects/slow/reports',
    headers: bearer(ada.token),
    payload: {
      branch: 'main',
      testbed: 'linux',
      start_time: '2026-06-01T00:00:00Z',
      end_time: '2026-06-01T00:01:00Z',
      settings: { adapter: 'json' },
      results: Array.from({ length: ITERATIONS }, (_, k) => iteration(k)),
    },
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
}

/** An anonymous client that asks for the whole perf answer and never reads it: its socket, once the answer began. */
function stalledReader(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /v0/projects/slow/perf?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A perf request of a few points, timed. */
async function smallPerf(port: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(
    `http://127.0.0.1:${port}/v0/projects/slow/perf?branches=main&testbeds=linux&benchmarks=bench-000&measures=latency`,
  );
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe('slow readers of large perf answers', () => {
  let t: TestApp;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 32 * 1024 * 1024 },
    });
    port = (t.app.server.address() as AddressInfo).port;
    await seed(t, await signUp(t, 'Ada Lovelace', 'ada@example.com'));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await t.close();
  });

  it('answers another perf request within 2 s while two clients stall on large answers', async () => {
    const size = await fetch(`http://127.0.0.1:${port}/v0/projects/slow/perf?${query}`);
    expect(size.status).toBe(200);
    // larger than what the kernel's socket buffers take, so the answers really wait on the readers
    expect((await size.arrayBuffer()).byteLength).toBeGreaterThan(8 * 2 ** 20);
    sockets.push(await stalledReader(port), await stalledReader(port));
    const other = await smallPerf(port);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(2000);
  });
});

describe('stalled answers over the pending budget', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(
      { server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 32 * 1024 * 1024 } },
      { pendingAnswers: { budgetBytes: 1, stallMs: 500 } },
    );
    port = (t.app.server.address() as AddressInfo).port;
    await seed(t, await signUp(t, 'Ada Lovelace', 'ada@example.com'));
  });
  afterAll(() => t.close());

  it('closes the connections of stalled answers, and the next perf request is built then', async () => {
    const first = await stalledReader(port);
    // the budget (1 byte) is spent on the stalled answer: the next one waits until its connection is closed
    const other = await smallPerf(port);
    expect(other.status).toBe(200);
    expect(other.ms).toBeGreaterThan(400);
    // the stalled client sees its connection end once it reads what reached it
    const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    first.resume();
    await closed;
    expect(t.logText()).toContain('its client read nothing of a heavy answer for too long');
  });
});

describe('a client that leaves while its heavy request waits for a place', () => {
  let t: TestApp;
  let port: number;
  const heavyLimit = new WorkLimit({
    what: 'heavy requests',
    concurrency: 1,
    queue: 4,
    retryAfterSeconds: 2,
  });

  beforeAll(async () => {
    t = await createTestApp(
      { server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 32 * 1024 * 1024 } },
      { heavyLimit },
    );
    port = (t.app.server.address() as AddressInfo).port;
    await seed(t, await signUp(t, 'Ada Lovelace', 'ada@example.com'));
  });
  afterAll(() => t.close());

  it('is logged at info level without a stack, not as a server error', async () => {
    const held = heavyLimit.enter();
    try {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /v0/projects/slow/perf?${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
      );
      await vi.waitFor(() => expect(heavyLimit.state.waiting).toBe(1));
      socket.destroy();
      await vi.waitFor(() => expect(t.logText()).toContain('request ended: its client left'));
    } finally {
      held.leave();
    }
    const lines = t
      .logText()
      .split('\n')
      .filter((line) => line.includes('the request ended while it waited'))
      .map((line) => JSON.parse(line) as { level: number; err?: unknown });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(line.err).toBeUndefined();
    }
  });
});
