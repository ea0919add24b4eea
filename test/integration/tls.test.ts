import { mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ENV, type ConfigDocument } from '../../core/index.js';
import { bearer, signUp } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { freePort } from '../helpers/free-port.js';

let pem: { cert: string; private: string };
beforeAll(async () => {
  pem = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
});

function fetchJson(
  get: typeof httpsGet,
  url: string,
  ca?: string,
): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { ca }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.on('error', reject);
    request.setTimeout(5000, () => request.destroy(new Error('timeout')));
  });
}

async function expectTlsOnly(tls: NonNullable<ConfigDocument['server']>['tls']) {
  const t = await createTestApp({ server: { bind_address: '127.0.0.1:0', tls } });
  try {
    const { port } = t.app.server.address() as AddressInfo;
    const secure = await fetchJson(httpsGet, `https://127.0.0.1:${port}/v0/server/version`, pem.cert);
    expect(secure.status).toBe(200);
    expect(JSON.parse(secure.body)).toHaveProperty('version');
    await expect(
      fetchJson(httpGet as typeof httpsGet, `http://127.0.0.1:${port}/v0/server/version`),
    ).rejects.toThrow();
  } finally {
    await t.close();
  }
}

describe('TLS', () => {
  it('serves HTTPS only with a certificate and key given as files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchtrack-tls-'));
    writeFileSync(join(dir, 'cert.pem'), pem.cert);
    writeFileSync(join(dir, 'key.pem'), pem.private);
    await expectTlsOnly({
      type: 'as_file',
      cert_file: join(dir, 'cert.pem'),
      key_file: join(dir, 'key.pem'),
    });
  });

  it('serves HTTPS only with a certificate and key given as bytes', async () => {
    await expectTlsOnly({
      type: 'as_bytes',
      certs: [...Buffer.from(pem.cert)],
      key: [...Buffer.from(pem.private)],
    });
  });

  it('names the key when a certificate file cannot be read', async () => {
    await expect(
      createTestApp({
        server: { tls: { type: 'as_file', cert_file: '/nonexistent/cert.pem', key_file: '/k.pem' } },
      }),
    ).rejects.toThrow('server.tls.cert_file: cannot read /nonexistent/cert.pem (ENOENT)');
  });
});

describe('TLS set through PUT /v0/server/config on the address the server listens on', () => {
  const savedEnv = process.env[CONFIG_ENV];
  afterAll(() => {
    if (savedEnv === undefined) delete process.env[CONFIG_ENV];
    else process.env[CONFIG_ENV] = savedEnv;
  });

  it('takes over the port (200, not EADDRINUSE) and a request in flight still gets its answer', async () => {
    const port = await freePort();
    const configPath = join(mkdtempSync(join(tmpdir(), 'benchtrack-tls-')), 'benchtrack.json');
    const t = await createTestApp({ server: { bind_address: `127.0.0.1:${port}` } }, { configPath });
    try {
      const admin = await signUp(t, 'Admin User', 'admin@example.com');
      // a request in flight on the plain listener: its body half sent
      const body = JSON.stringify({ email: 'nobody@example.com' });
      const inFlight = connect(port, '127.0.0.1');
      await new Promise((resolve) => inFlight.once('connect', resolve));
      inFlight.write(
        `POST /v0/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      // the status line of its answer, or what came before the connection closed
      const answered = new Promise<string>((resolve) => {
        let text = '';
        inFlight.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('\r\n')) resolve(text);
        });
        inFlight.on('close', () => resolve(text));
      });

      const document = (
        await t.app.inject({ method: 'GET', url: '/v0/server/config', headers: bearer(admin.token) })
      ).json();
      document.server.tls = {
        type: 'as_bytes',
        certs: [...Buffer.from(pem.cert)],
        key: [...Buffer.from(pem.private)],
      };
      const response = await t.app.inject({
        method: 'PUT',
        url: '/v0/server/config',
        headers: bearer(admin.token),
        payload: document,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((t.app.server.address() as AddressInfo).port).toBe(port);
      const secure = await fetchJson(httpsGet, `https://127.0.0.1:${port}/v0/server/version`, pem.cert);
      expect(secure.status).toBe(200);
      await expect(
        fetchJson(httpGet as typeof httpsGet, `http://127.0.0.1:${port}/v0/server/version`),
      ).rejects.toThrow();

      inFlight.write(body.slice(10));
      expect(await answered).toMatch(/^HTTP\/1\.1 \d{3} /);
      inFlight.destroy();
    } finally {
      await t.close();
    }
  });
});
