import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVersion } from '../../cli/lib/version.js';
import { runCliAsync } from './run-cli.js';

/**
 * Issue 14 item 12: `--strict` was ignored by `benchtrack server version` (it parsed no schema). A server of a
 * newer version that adds a field to the answer stands in for a real one: only its answer's shape matters here.
 */
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ version: readVersion(), build: 'nightly' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('benchtrack server version', () => {
  it('fails under --strict on a field this client does not know', async () => {
    const result = await runCliAsync(['server', 'version', '--strict'], { env: { BENCHTRACK_HOST: url } });
    expect(result.status, result.stdout).toBe(1);
    expect(result.stderr).toContain('build: unknown field (--strict)');
  });

  it('prints the whole answer, unknown field included, when relaxed', async () => {
    const result = await runCliAsync(['server', 'version'], { env: { BENCHTRACK_HOST: url } });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ version: readVersion(), build: 'nightly' });
  });
});
