import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readVersion } from '../../cli/lib/version.js';
import { runCliAsync } from './run-cli.js';

// Each test runs the real CLI once (about a second from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 60_000 });

interface Seen {
  readonly path: string;
  readonly arrived: number;
  /** When the client closed the connection. */
  closed?: number;
}

let server: http.Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A real HTTP server on 127.0.0.1: the version check is answered, `answer` handles /v0/projects. */
async function serve(answer: (response: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  server = http.createServer((request, response) => {
    const entry: Seen = {
      path: new URL(request.url ?? '/', 'http://x').pathname,
      arrived: performance.now(),
    };
    seen.push(entry);
    request.socket.on('close', () => (entry.closed = performance.now()));
    if (entry.path === '/v0/projects') return answer(response);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ version: readVersion() }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const projects = () => seen.filter((entry) => entry.path === '/v0/projects');
  return { url: `http://127.0.0.1:${port}`, projects };
}

describe('benchtrack and a failing API', () => {
  it('exits non-zero with the status after --attempts answers of 500', async () => {
    const { url, projects } = await serve((response) => {
      response.statusCode = 500;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ message: 'database is locked' }));
    });
    const result = await runCliAsync([
      'project',
      'list',
      '--host',
      url,
      '--attempts',
      '2',
      '--retry-after',
      '0.01',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('GET /v0/projects: HTTP 500; retrying in 0.01 s (attempt 2 of 2)');
    expect(result.stderr).toContain('benchtrack: GET /v0/projects failed (500): database is locked');
    expect(projects()).toHaveLength(2);
  });

  it('gives up on a server that never answers after --timeout, and says so', async () => {
    const { url, projects } = await serve(() => {
      // Never answers.
    });
    const result = await runCliAsync(['project', 'list', '--host', url, '--timeout', '1', '--attempts', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`benchtrack: cannot reach the API at ${url}: no answer within 1 s`);
    expect(result.stderr).toContain('hint: the server is slow or unreachable: raise --timeout');
    const [request, ...more] = projects();
    expect(more).toEqual([]);
    // Measured at the server, so the CLI's start-up time does not count.
    const waited = (request?.closed ?? Infinity) - (request?.arrived ?? 0);
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(2500);
  });
});
