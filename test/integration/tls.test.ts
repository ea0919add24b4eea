import { mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConfigDocument } from '../../core/index.js';
import { createTestApp } from '../helpers/app.js';

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
