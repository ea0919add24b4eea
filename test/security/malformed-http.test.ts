import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

// Requests Node's HTTP parser refuses before any route sees them: the answer is still the API's error shape, with
// a request id and the CORS headers of every answer, and the server keeps answering.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Sends `request` as raw bytes and reads until the server closes: status, headers and body. */
async function raw(request: string) {
  const { port } = t.app.server.address() as AddressInfo;
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

async function stillAnswers() {
  const { port } = t.app.server.address() as AddressInfo;
  expect((await fetch(`http://127.0.0.1:${port}/v0/server/version`)).status).toBe(200);
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    [
      'headers over 16 KiB',
      `GET /v0/server/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'larger than 16384 bytes',
    ],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /v0/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      400,
      'Content-Length',
    ],
    [
      'two different Content-Length values',
      'POST /v0/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      400,
      'Content-Length',
    ],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n', 400, 'not valid HTTP/1.1'],
  ])(
    '%s: its status in the error shape, with a request id and CORS',
    async (_what, request, status, says) => {
      const answer = await raw(request);
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        error_code: 'invalid_input',
        message: expect.stringContaining(says),
      });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['x-total-count']).toBe('0');
      await stillAnswers();
    },
  );
});
