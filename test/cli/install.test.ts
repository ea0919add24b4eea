import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startPostgres, type LocalPostgres } from '../helpers/postgres.js';
import { REPO_ROOT, runServerProcess, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { runCliAsync } from './run-cli.js';

// Two installs from the npm cache and a PostgreSQL cluster, on a machine shared with the rest of the run.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 600_000 });

/**
 * The package as people install it. `npm pack` packs this run's build (the end-to-end global setup makes it), and
 * npm installs the tarball into an empty project and, with -g, into a prefix of its own, install scripts on and
 * `--strict-allow-scripts`: npm then refuses any install script the installing project has not reviewed, so the
 * package and everything it brings must need none. The installed programs serve, take and show reports, on the
 * embedded database and on PostgreSQL (postgres.js is bundled into the API with its patch: no `postgres` package is
 * installed), and refuse a replica whose optional client is not installed.
 */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-install-'));
const project = join(dir, 'project');
const prefix = join(dir, 'global');
const peers = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies;

const programs = {
  project: (name: string) => join(project, 'node_modules', '.bin', name),
  global: (name: string) => join(prefix, 'bin', name),
};
type Install = keyof typeof programs;

/**
 * npm as a user runs it, with the machine's cache and configuration; without the `npm_*` variables of an npm that
 * runs this test (`npm test` exports its prefix, log level and package), which would steer the install.
 */
async function npm(args: readonly string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

let tarball: string;
const printed: Partial<Record<Install, string>> = {};
/** Programs to stop after the file, then the PostgreSQL cluster they used. */
const stopping: (() => Promise<unknown>)[] = [];
let cluster: LocalPostgres | undefined;

beforeAll(async () => {
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], REPO_ROOT);
  tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  mkdirSync(project);
  mkdirSync(join(prefix, 'lib'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const [local, global] = await Promise.all([
    npm(['install', '--strict-allow-scripts', tarball], project),
    npm(['install', '--global', '--prefix', prefix, '--strict-allow-scripts', tarball], dir),
  ]);
  printed.project = local.stdout + local.stderr;
  printed.global = global.stdout + global.stderr;
});
afterAll(async () => {
  await Promise.all(stopping.map((stop) => stop()));
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function startApi(install: Install, document: object): Promise<ServerProcess> {
  const server = await startServerProcess(
    { BENCHTRACK_CONFIG: JSON.stringify({ server: { bind_address: '127.0.0.1:0' }, ...document }) },
    { command: [programs[install]('benchtrack-api')] },
  );
  stopping.push(() => server.stop());
  return server;
}

async function startConsole(install: Install, api: string): Promise<string> {
  const child: ChildProcess = spawn(
    process.execPath,
    [programs[install]('benchtrack-console'), '--host', '127.0.0.1', '--port', '0', '--api-url', api],
    { env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  stopping.push(async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /Console listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`benchtrack-console exited ${code}: ${stderr}`)));
  });
}

interface Report {
  branch: { uuid: string };
  testbed: { uuid: string };
  results: {
    benchmark: { uuid: string };
    measures: { measure: { uuid: string }; boundary: { upper_limit: number | null } | null }[];
  }[][];
}

/** `benchtrack run` of the install with a t_test threshold, whose limits a worker thread computes. */
async function report(install: Install, api: string, value: number): Promise<Report> {
  const result = await runCliAsync(
    [
      'run',
      '--host',
      api,
      '--project',
      'installed',
      '--adapter',
      'json',
      '--threshold-measure',
      'latency',
      '--threshold-test',
      't_test',
      '--threshold-upper-boundary',
      '0.99',
      '--format',
      'json',
      '--quiet',
    ],
    {
      program: [programs[install]('benchtrack')],
      cwd: dir,
      input: `{"parse": {"latency": {"value": ${value}}}}`,
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Report;
}

describe.each(['project', 'global'] as const)('npm install %s', (install) => {
  it('installs with install scripts on, none to review, and no engine warning', () => {
    expect(printed[install]).toMatch(/added \d+ packages/);
    expect(printed[install]).not.toContain('install-scripts');
    expect(printed[install]).not.toContain('EBADENGINE');
  });

  it('serves the API and the console, takes reports and draws their plot', async () => {
    const api = await startApi(install, { database: { file: join(dir, install, 'benchtrack.db') } });
    const site = await startConsole(install, api.url);
    const html = await (await fetch(site)).text();
    expect(html).toContain(api.url);
    const script = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const app = await fetch(new URL(script!, site));
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toContain('javascript');

    for (const value of [10, 11, 10, 12]) await report(install, api.url, value);
    const last = await report(install, api.url, 11);
    const [result] = last.results[0]!;
    expect(result!.measures[0]!.boundary?.upper_limit).toBeGreaterThan(11);

    const query = new URLSearchParams({
      branches: last.branch.uuid,
      testbeds: last.testbed.uuid,
      benchmarks: result!.benchmark.uuid,
      measures: result!.measures[0]!.measure.uuid,
    });
    const image = await fetch(`${api.url}/v0/projects/installed/perf/img?${query}`);
    expect(image.status).toBe(200);
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('refuses to start with a replica whose client is not installed, naming the package to install', async () => {
    const result = await runServerProcess(
      {
        BENCHTRACK_CONFIG: JSON.stringify({
          database: { file: join(dir, install, 'replicated.db') },
          plus: {
            disaster_recovery: {
              replicas: [
                { scheme: 's3', bucket: 'b', access_key_id: 'id', secret_access_key: 'secret-0001' },
              ],
            },
          },
        }),
      },
      { command: [programs[install]('benchtrack-api')] },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `plus.disaster_recovery.replicas[0].scheme: needs @aws-sdk/client-s3 and @aws-sdk/lib-storage, not installed: run npm install '@aws-sdk/client-s3@${peers['@aws-sdk/client-s3']}' '@aws-sdk/lib-storage@${peers['@aws-sdk/lib-storage']}'`,
    );
  });
});

describe('optional clients', () => {
  it('finds one installed globally beside a global install, as the refusal advises', async () => {
    await npm(['install', '--global', '--prefix', prefix, '--ignore-scripts', `ssh2@${peers.ssh2}`], dir);
    // nothing listens on the replica's port: the server starts and keeps trying
    const replica = {
      scheme: 'sftp',
      host: '127.0.0.1',
      port: await freePort(),
      user: 'u',
      password: 'secret-0001',
    };
    const api = await startApi('global', {
      database: { file: join(dir, 'global', 'sftp.db') },
      plus: { disaster_recovery: { replicas: [replica] } },
    });
    expect(api.stderr()).not.toContain('needs ssh2');
  });
});

describe('npm install project, on PostgreSQL', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });

  it('answers every read while the server terminates its connections: postgres.js runs with its patch', async () => {
    // Without the patch, a connection the pool opens again after its socket closed kept the dead socket's
    // buffered write and never sent its startup: the read waited the connect timeout and answered 503.
    const api = await startApi('project', { database: { url: await cluster!.createDatabase('installed') } });
    await report('project', api.url, 10);
    const read = async () => {
      const response = await fetch(`${api.url}/v0/projects/installed/branches`);
      expect(response.status, await response.text()).toBe(200);
    };
    for (let round = 0; round < 10; round++) {
      await Promise.all([read(), read(), read(), read()]);
      await cluster!.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'installed' AND pid <> pg_backend_pid()`,
      );
      await read();
    }
  });
});
