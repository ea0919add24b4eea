import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI, ROOT, runCliAsync, type CliResult } from './run-cli.js';
import { freePort } from '../helpers/free-port.js';

// Each test runs the real CLI several times (about a second each from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let dir: string;
let ports: { api: number; console: number };
const consoleInstalled =
  existsSync(join(ROOT, 'console', 'host.ts')) &&
  existsSync(join(ROOT, 'dist', 'console', 'app', 'index.html'));

function cli(args: readonly string[], input?: string): Promise<CliResult> {
  return runCliAsync(args, {
    env: { BENCHTRACK_STATE_DIR: join(dir, 'state') },
    ...(input ? { input } : {}),
  });
}

const pidOf = (service: string) => Number(readFileSync(join(dir, 'state', `${service}.pid`), 'utf8'));
/** Running, and not a zombie waiting for a parent that does not reap (as in some containers). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-up-'));
  ports = { api: await freePort(), console: await freePort() };
});
afterAll(async () => {
  await cli(['down']);
  rmSync(dir, { recursive: true, force: true });
});

const upArgs = () => [
  'up',
  '--api-port',
  String(ports.api),
  '--console-port',
  String(ports.console),
  '--api-volume',
  join(dir, 'data'),
];

describe('benchtrack up, logs, down', () => {
  it('starts the API (and the console when installed) in the background and prints the URLs', async () => {
    const up = await cli(upArgs());
    expect(up.status, up.stderr).toBe(0);
    expect(up.stdout).toContain(`API      http://localhost:${ports.api}  (pid `);
    expect(up.stdout).toContain(`Data     ${join(dir, 'data', 'benchtrack.db')}`);
    if (consoleInstalled) expect(up.stdout).toContain(`Console  http://localhost:${ports.console}  (pid `);
    const version = await fetch(`http://127.0.0.1:${ports.api}/v0/server/version`);
    expect(version.status).toBe(200);
    const console = await fetch(`http://127.0.0.1:${ports.api}/v0/server/config/console`);
    expect(await console.json()).toEqual({ url: `http://localhost:${ports.console}` });
    if (consoleInstalled)
      expect((await fetch(`http://127.0.0.1:${ports.console}/`)).status).toBeLessThan(500);
  });

  it('keeps the data where --api-volume says, across a restart', async () => {
    const host = ['--host', `http://127.0.0.1:${ports.api}`];
    const run = await cli(
      ['run', ...host, '--project', 'local', '--adapter', 'json', '--quiet'],
      '{"a": {"latency": {"value": 1}}}',
    );
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(dir, 'data', 'benchtrack.db'))).toBe(true);
    const before = pidOf('api');
    // What the user set in the API's configuration stays across an `up`: the secret key, a public console URL.
    const configFile = join(dir, 'state', 'api-config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    writeFileSync(configFile, JSON.stringify({ ...config, console: { url: 'https://bench.example.com' } }));
    const again = await cli(upArgs());
    expect(again.status, again.stderr).toBe(0);
    expect(pidOf('api')).not.toBe(before);
    expect(alive(before)).toBe(false);
    const reports = await cli(['report', 'list', 'local', ...host]);
    expect(JSON.parse(reports.stdout)).toHaveLength(1);
    const kept = JSON.parse(readFileSync(configFile, 'utf8'));
    expect(kept.security.secret_key).toBe(config.security.secret_key);
    expect(kept.console.url).toBe('https://bench.example.com');
    const console = await fetch(`http://127.0.0.1:${ports.api}/v0/server/config/console`);
    expect(await console.json()).toEqual({ url: 'https://bench.example.com' });
  });

  it('prints the logs, and follows them', async () => {
    const logs = await cli(['logs', 'api', '--no-follow', '--tail', '1000']);
    expect(logs.status).toBe(0);
    expect(logs.stdout).toContain(`Server listening at http://127.0.0.1:${ports.api}`);
    const follower = spawn(process.execPath, [...CLI, 'logs', '--tail', '0'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BENCHTRACK_STATE_DIR: join(dir, 'state') },
    });
    let out = '';
    follower.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // --tail 0 prints no earlier line: a request shows up once the follower reads the log, so ask until then
    const deadline = Date.now() + 12_000;
    while (!out.includes('followed=yes') && Date.now() < deadline) {
      await fetch(`http://127.0.0.1:${ports.api}/v0/server/version?followed=yes`);
      await new Promise((r) => setTimeout(r, 250));
    }
    follower.kill('SIGINT');
    expect(out).toMatch(/^api {5}\| .*followed=yes/m);
  });

  it('leaves the running services alone when a flag of up is wrong', async () => {
    const running = consoleInstalled ? ['api', 'console'] : ['api'];
    const before = running.map(pidOf);
    const notADirectory = join(dir, 'not-a-directory');
    writeFileSync(notADirectory, '');
    const mistakes = [
      { args: [...upArgs(), '--api-env', 'LOG_LEVEL'], error: '--api-env takes KEY=VALUE, got "LOG_LEVEL"' },
      { args: [...upArgs(), '--console-env', '=3000'], error: '--console-env takes KEY=VALUE, got "=3000"' },
      { args: [...upArgs(), '--api-volume', notADirectory], error: notADirectory },
    ];
    for (const { args, error } of mistakes) {
      const up = await cli(args);
      expect(up.status, args.join(' ')).toBe(1);
      expect(up.stderr).toContain(error);
      expect(running.map(pidOf)).toEqual(before);
      for (const pid of before) expect(alive(pid)).toBe(true);
    }
    expect((await fetch(`http://127.0.0.1:${ports.api}/v0/server/version`)).status).toBe(200);
  });

  it('stops everything with down, and says so when nothing runs', async () => {
    const pid = pidOf('api');
    const down = await cli(['down']);
    expect(down.status).toBe(0);
    expect(down.stdout).toMatch(/^Stopped .*api \(pid \d+\)\.$/m);
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(dir, 'state', 'api.pid'))).toBe(false);
    await expect(fetch(`http://127.0.0.1:${ports.api}/v0/server/version`)).rejects.toThrow();
    expect((await cli(['down'])).stdout).toBe('Nothing was running.\n');
  });

  it('fails with the end of the log when the API cannot start', async () => {
    const up = await cli([
      'up',
      'api',
      '--api-port',
      String(ports.api),
      '--api-env',
      'BENCHTRACK_CONFIG={"server": {"bind_adress": "x"}}',
    ]);
    expect(up.status).toBe(1);
    expect(up.stderr).toContain('benchtrack: the api stopped; the end of its log');
    expect(up.stderr).toContain('bind_adress: is not a known key');
    expect(existsSync(join(dir, 'state', 'api.pid'))).toBe(false);
  });
});
