import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';

describe('shutdown', () => {
  it('closes a connection whose request never completes once the grace period is over', async () => {
    const t = await createTestApp({}, { stopGraceMs: 300 });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    // Headers announce a body that never comes: the request stays in flight.
    socket.write(
      'POST /v0/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = once(socket, 'close');
    const started = performance.now();
    await t.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    await closed;
  }, 30_000);
});
