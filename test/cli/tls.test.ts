import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCliAsync } from './run-cli.js';

// Each test runs the real CLI several times (about a second each from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let api: ApiServer;
let dir: string;

beforeAll(async () => {
  const pem = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-cli-tls-'));
  mkdirSync(join(dir, 'no-certificates'));
  writeFileSync(join(dir, 'cert.pem'), pem.cert);
  writeFileSync(join(dir, 'key.pem'), pem.private);
  api = await startApiServer({
    server: {
      bind_address: '127.0.0.1:0',
      tls: { type: 'as_file', cert_file: join(dir, 'cert.pem'), key_file: join(dir, 'key.pem') },
    },
  });
});
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS options', () => {
  it('refuses a self-signed certificate, says what to do, and does not retry', async () => {
    expect(api.url).toMatch(/^https:/);
    const result = await runCliAsync(['server', 'version', '--host', api.url, '--retry-after', '0']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`cannot reach the API at ${api.url}`);
    expect(result.stderr).toContain('hint: the TLS certificate is not trusted: use --native-tls');
    expect(result.stderr).not.toContain('retrying');
  });

  it('accepts it with --insecure-host, for resource commands and runs alike', async () => {
    const version = await runCliAsync(['server', 'version', '--host', api.url, '--insecure-host']);
    expect(version.status, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout).version).toMatch(/^\d+\.\d+\.\d+/);
    const run = await runCliAsync(
      [
        'run',
        '--host',
        api.url,
        '--insecure-host',
        '--project',
        'tls',
        '--adapter',
        'json',
        '--quiet',
        '--format',
        'json',
      ],
      { input: '{"a": {"latency": {"value": 1}}}' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).project.slug).toBe('tls');
  });

  it('accepts it with --native-tls once the operating system trusts it', async () => {
    // OpenSSL's default store, which Node reads as the system's: here the server's certificate alone
    const system = { SSL_CERT_FILE: join(dir, 'cert.pem'), SSL_CERT_DIR: join(dir, 'no-certificates') };
    const version = await runCliAsync(['server', 'version', '--host', api.url, '--native-tls'], {
      env: system,
    });
    expect(version.status, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout).version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
