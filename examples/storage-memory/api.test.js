// The plugin in real use: the installed `benchtrack-api` loads it from `plugins`, `database.url` chooses it, and a
// report sent over HTTP comes back from the perf query.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = dirname(createRequire(import.meta.url).resolve('benchtrack/package.json'));
const config = {
  server: { bind_address: '127.0.0.1:0' },
  database: { url: 'memory://preview' },
  plugins: [fileURLToPath(new URL('./index.js', import.meta.url))],
};

/** @type {import('node:child_process').ChildProcess} */
let server;
let output = '';
let base = '';

beforeAll(async () => {
  server = spawn(process.execPath, [join(root, 'bin', 'benchtrack-api.cjs')], {
    env: { ...process.env, BENCHTRACK_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Promise((resolve, reject) => {
    const read = (/** @type {Buffer} */ chunk) => {
      output += chunk.toString();
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.on('exit', (code) => reject(new Error(`benchtrack-api exited with ${code}:\n${output}`)));
  });
  base = /** @type {string} */ (await listening);
}, 60_000);

afterAll(async () => {
  if (server.exitCode !== null) return;
  const exited = once(server, 'exit');
  server.kill('SIGINT');
  await exited;
});

describe('benchtrack-api on the memory storage', () => {
  it('loads the plugin from the configuration (no other engine serves memory://, so it holds the data)', () => {
    expect(output).toMatch(/plugin loaded\n\s+plugin: "memory"\n\s+kind: "storage"/);
  });

  it('stores a report and answers it in perf', async () => {
    const now = new Date().toISOString();
    const run = await globalThis.fetch(`${base}/v0/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project: 'preview',
        branch: 'main',
        testbed: 'ci',
        start_time: now,
        end_time: now,
        results: [JSON.stringify({ parse: { latency: { value: 88.5, lower_value: 80, upper_value: 97 } } })],
        settings: { adapter: 'json' },
      }),
    });
    expect(run.status, await run.clone().text()).toBe(201);
    const perf = await globalThis.fetch(
      `${base}/v0/projects/preview/perf?branches=main&testbeds=ci&benchmarks=parse&measures=latency`,
    );
    expect(perf.status, await perf.clone().text()).toBe(200);
    const answer = /** @type {{ results: { metrics: { metric: object }[] }[] }} */ (await perf.json());
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]?.metrics.map((point) => point.metric)).toEqual([
      expect.objectContaining({ value: 88.5, lower_value: 80, upper_value: 97 }),
    ]);
  });
});
