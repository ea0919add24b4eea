import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostOptions } from './options.js';
import { createConsoleHost } from './serve.js';

let root: string;
let server: Server;
let base: string;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'console-host-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><title>t</title></head><body></body></html>',
  );
  writeFileSync(join(root, 'assets', 'index-abc123.js'), SCRIPT);
  server = createConsoleHost(
    hostOptions(
      ['--url', 'http://console.example', '--api-url', 'http://api.example:61016', '--port', '0'],
      {},
      root,
    ),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('console host', () => {
  it('serves index.html with the API location for every app path, uncached', async () => {
    for (const path of ['/', '/console/projects/p/perf?branches=a,b', '/auth/confirm?token=x']) {
      const response = await fetch(base + path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain(
        '<meta name="benchtrack-config" content="{&quot;api_url&quot;:&quot;http://api.example:61016&quot;,&quot;console_url&quot;:&quot;http://console.example&quot;}">',
      );
    }
  });

  it('answers /config.json for tools and scripts', async () => {
    const response = await fetch(`${base}/config.json`);
    expect(await response.json()).toEqual({
      api_url: 'http://api.example:61016',
      console_url: 'http://console.example',
    });
  });

  it('serves hashed assets gzipped and cached for good, and a missing asset as 404', async () => {
    // node:http, not fetch: fetch would undo the compression this checks.
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(`${base}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } }, resolve),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe(SCRIPT);
    expect((await fetch(`${base}/assets/index-old999.js`)).status).toBe(404);
  });

  it('allows the page to reach only itself and the API, and refuses writes', async () => {
    const response = await fetch(base);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' http://api.example:61016");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(base, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/%E0%A4%A`)).status).toBe(400);
  });

  it('refuses to start without a build, saying how to make one', () => {
    expect(() => createConsoleHost(hostOptions([], {}, join(root, 'nowhere')))).toThrow(/run npm run build/);
  });
});
