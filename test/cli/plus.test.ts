import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCli } from './run-cli.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
let api: ApiServer;
let token: string;
let org: { uuid: string; slug: string };

function cli(args: readonly string[]) {
  return runCli(args, undefined, { env: { BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: token } });
}
function json(args: readonly string[]): any {
  const result = cli(args);
  expect(result.status, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  api = await startApiServer({
    plus: { license_keys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()] },
  });
  const session = await api.signUp('Ada Lovelace', 'ada@example.com');
  token = session.token;
  org = json(['org', 'view', session.user.slug]);
});
afterAll(async () => {
  await api?.close();
});

describe('licenses, usage and statistics from the command line', () => {
  it('issues a license offline, sets it, shows the usage, removes it', () => {
    const keyFile = join(api.dir, 'license.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const issued = cli([
      'license',
      'issue',
      '--key',
      keyFile,
      '--organization',
      org.uuid,
      '--level',
      'team',
      '--entitlement',
      '1000',
    ]);
    expect(issued.status, issued.stderr).toBe(0);
    const license = issued.stdout.trim();
    expect(json(['org', 'update', org.slug, '--license', license]).license).toBe(license);
    expect(json(['org', 'usage', org.slug])).toMatchObject({
      kind: 'self_hosted_licensed',
      level: 'team',
      usage: 0,
      entitlement: 1000,
    });
    expect(json(['org', 'update', org.slug, '--license', '_']).license).toBeNull();
    expect(json(['org', 'usage', org.slug])).toMatchObject({ kind: 'self_hosted_free', entitlement: null });
  });

  it('says what is wrong with a license without printing it', () => {
    const refused = cli(['org', 'update', org.slug, '--license', 'aaa.bbb.ccc']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('license: is malformed');
    expect(refused.stderr).not.toContain('aaa.bbb.ccc');
  });

  it('prints the server statistics for an administrator', () => {
    const stats = json(['server', 'stats']);
    expect(stats.users.total).toBe(1);
    expect(stats.organizations.total).toBe(1);
    expect(Array.isArray(stats.snapshots)).toBe(true);
  });
});
