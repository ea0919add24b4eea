import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliAsync } from './run-cli.js';
import { freePort } from '../helpers/free-port.js';

// `benchtrack up` and the address the API binds (issue 14 item 11): the configured one stays, --api-host
// overrides it. Linux only: which address listens is read from /proc/net/tcp.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let dir: string;
let port: number;

const cli = (args: readonly string[]) =>
  runCliAsync(args, { env: { BENCHTRACK_STATE_DIR: join(dir, 'state') } });
const configFile = () => join(dir, 'state', 'api-config.json');

/** The IPv4 addresses listening on `port` (TCP state 0A), dotted. */
function listeningOn(tcpPort: number): string[] {
  const hexPort = tcpPort.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A')
    .map((fields) => {
      const hex = (fields[1] as string).split(':')[0] as string;
      return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
    });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-up-host-'));
  port = await freePort();
});
afterAll(async () => {
  await cli(['down']);
  rmSync(dir, { recursive: true, force: true });
});

const up = (...extra: string[]) =>
  cli(['up', 'api', '--api-port', String(port), '--api-volume', join(dir, 'data'), ...extra]);

describe('benchtrack up and the API bind address', () => {
  it('keeps the address the API configuration binds (127.0.0.1 stays off the network)', async () => {
    mkdirSync(join(dir, 'state'), { recursive: true });
    writeFileSync(configFile(), JSON.stringify({ server: { bind_address: '127.0.0.1:61016' } }));
    const result = await up();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`API      http://127.0.0.1:${port}  (pid `);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).server.bind_address).toBe(`127.0.0.1:${port}`);
    expect(listeningOn(port)).toEqual(['127.0.0.1']);
    expect((await fetch(`http://127.0.0.1:${port}/v0/server/version`)).status).toBe(200);
  });

  it('binds the address --api-host gives, and keeps it for the next up', async () => {
    const result = await up('--api-host', '0.0.0.0');
    expect(result.status, result.stderr).toBe(0);
    expect(listeningOn(port)).toEqual(['0.0.0.0']);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).server.bind_address).toBe(`0.0.0.0:${port}`);
  });

  it('refuses an --api-host that is not an IP address, and leaves the API running', async () => {
    const result = await up('--api-host', 'example.com');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--api-host must be an IP address');
    expect(listeningOn(port)).toEqual(['0.0.0.0']);
  });
});
