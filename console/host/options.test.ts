import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostOptions } from './options.js';

describe('console host options', () => {
  it('defaults to console.url http://localhost:3000 and the API at http://localhost:61016', () => {
    const options = hostOptions([], {}, '/app');
    expect(options.consoleUrl.href).toBe('http://localhost:3000/');
    expect(options.port).toBe(3000);
    expect(options.host).toBe('0.0.0.0');
    expect(options.apiUrl).toBe('http://localhost:61016');
    expect(options.root).toBe('/app');
  });

  it("follows the API's configuration document: console.url, and the API port from bind_address", () => {
    const env = {
      BENCHTRACK_CONFIG: JSON.stringify({
        console: { url: 'https://bench.example.com' },
        server: { bind_address: '0.0.0.0:8080' },
      }),
    };
    const options = hostOptions([], env, '/app');
    expect(options.consoleUrl.href).toBe('https://bench.example.com/');
    expect(options.port).toBe(443);
    expect(options.apiUrl).toBe('http://localhost:8080');
  });

  it('reads the document from BENCHTRACK_CONFIG_PATH too, with TLS meaning an https API', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'console-options-')), 'benchtrack.json');
    writeFileSync(
      path,
      JSON.stringify({ server: { bind_address: '127.0.0.1:7000', tls: { type: 'as_file' } } }),
    );
    expect(hostOptions([], { BENCHTRACK_CONFIG_PATH: path }, '/app').apiUrl).toBe('https://localhost:7000');
  });

  it('lets environment variables override the document, and flags override both', () => {
    const env = {
      BENCHTRACK_CONFIG: JSON.stringify({ console: { url: 'http://a.example:1000' } }),
      BENCHTRACK_CONSOLE_URL: 'http://b.example:2000',
      BENCHTRACK_CONSOLE_PORT: '2001',
      BENCHTRACK_API_URL: 'http://api.example:9000/',
      BENCHTRACK_CONSOLE_HOST: '127.0.0.1',
    };
    const fromEnv = hostOptions([], env, '/app');
    expect([fromEnv.consoleUrl.host, fromEnv.port, fromEnv.apiUrl, fromEnv.host]).toEqual([
      'b.example:2000',
      2001,
      'http://api.example:9000',
      '127.0.0.1',
    ]);
    const fromFlags = hostOptions(
      ['--url', 'http://c.example', '--port', '0', '--api-url', 'http://d.example'],
      env,
      '/app',
    );
    expect([fromFlags.consoleUrl.host, fromFlags.port, fromFlags.apiUrl]).toEqual([
      'c.example',
      0,
      'http://d.example',
    ]);
  });

  it('says what is wrong with a bad port, URL or flag', () => {
    expect(() => hostOptions(['--port', '70000'], {}, '/app')).toThrow(/console port must be a port number/);
    expect(() => hostOptions(['--api-url', 'ftp://x'], {}, '/app')).toThrow(
      /API URL must be an http\(s\) URL/,
    );
    expect(() => hostOptions(['--nope'], {}, '/app')).toThrow(/nope/);
  });
});
