import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const port = (t: TestApp) => (t.app.server.address() as AddressInfo).port;

async function open(t: TestApp): Promise<Socket> {
  const socket = connect(port(t), '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/**
 * Starts a POST whose headers announce `length` bytes of body and sends only `{`: the request stays in flight
 * until the rest comes (or never).
 */
async function startPost(socket: Socket, length: number): Promise<void> {
  socket.write(
    `POST /v0/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Milliseconds `t.close()` takes (the server's own grace period of 10 s unless the test app says otherwise). */
async function timeClose(t: TestApp): Promise<number> {
  const started = performance.now();
  await t.close();
  return performance.now() - started;
}

describe('shutdown', () => {
  it('closes a connection whose request never completes once the grace period is over', async () => {
    const t = await createTestApp({}, { stopGraceMs: 300 });
    const socket = await open(t);
    // the body never comes
    await startPost(socket, 1000);
    const closed = once(socket, 'close');
    expect(await timeClose(t)).toBeLessThan(5_000);
    await closed;
  }, 30_000);

  it('does not wait for connections that carry no request: one that never sent one, one whose request ended', async () => {
    const t = await createTestApp();
    // a browser's preconnect, or a probe: a connection that has not sent a byte
    const silent = await open(t);
    const reused = await open(t);
    reused.write('GET /v0/server/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await once(reused, 'data');
    const closed = Promise.all([once(silent, 'close'), once(reused, 'close')]);
    // before, the silent connection held the stop for the whole grace period (10 s)
    expect(await timeClose(t)).toBeLessThan(3_000);
    await closed;
  }, 30_000);

  it('lets a request in flight finish while it closes the others', async () => {
    const t = await createTestApp();
    const busy = await open(t);
    const silent = await open(t);
    await startPost(busy, 2);
    let answer = '';
    busy.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closing = t.close();
    await once(silent, 'close');
    expect(busy.destroyed).toBe(false);
    busy.write('}');
    await closing;
    // the request was answered (a run without a project is refused: what matters is that it got an answer)
    expect(answer).toMatch(/^HTTP\/1\.1 [1-5]\d\d /);
  }, 30_000);

  it('with TLS, does not wait for a connection that has not begun its handshake, nor one that sent no request after it', async () => {
    const pem = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const t = await createTestApp({
      server: {
        bind_address: '127.0.0.1:0',
        tls: { type: 'as_bytes', certs: [...Buffer.from(pem.cert)], key: [...Buffer.from(pem.private)] },
      },
    });
    const silent = await open(t);
    const secure = tlsConnect({ port: port(t), host: '127.0.0.1', ca: pem.cert });
    secure.on('error', () => {});
    await once(secure, 'secureConnect');
    const closed = Promise.all([once(silent, 'close'), once(secure, 'close')]);
    expect(await timeClose(t)).toBeLessThan(3_000);
    await closed;
  }, 30_000);
});
