import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { CLI, ROOT, runCli, runCliAsync } from './run-cli.js';

// the acceptance run waits out a 6 s command twice over a lost heartbeat (5 s); the agents are real processes
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let api: ApiServer;
let token: string;
let dir: string;
let repo: string;
let commit: string;
const agents: ChildProcess[] = [];
const env = () => ({ BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: token });

function git(args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=CI', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** `benchtrack runner up` as a real process; its stderr is kept for the assertions. */
function startAgent(key: string, ...extra: string[]): { child: ChildProcess; log: () => string } {
  const workDir = join(dir, `work-${agents.length}`);
  mkdirSync(workDir);
  const child = spawn(
    process.execPath,
    [...CLI, 'runner', 'up', '--key', key, '--work-dir', workDir, ...extra],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCHTRACK_HOST: api.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  agents.push(child);
  return { child, log: () => log };
}

async function apiGet(path: string): Promise<any> {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return response.json();
}

async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates a runner through the CLI: the key is the last line of its output. */
function createRunner(name: string, spec: string): string {
  const created = runCli(['runner', 'create', '--name', name, '--spec', spec], undefined, { env: env() });
  expect(created.status, created.stderr).toBe(0);
  const key = created.stdout.trim().split('\n').at(-1) as string;
  expect(key).toMatch(/^btr_[0-9a-f]{32}_/);
  expect(JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf(key)))).toMatchObject({
    name,
    specs: [spec],
  });
  return key;
}

beforeAll(async () => {
  api = await startApiServer({ runners: { heartbeat_timeout: '5s' } });
  token = (await api.signUp('Admin User', 'admin@example.com')).token;
  expect(
    runCli(['project', 'create', 'admin-user', '--name', 'Bench'], undefined, { env: env() }).status,
  ).toBe(0);
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-runners-'));
  repo = join(dir, 'repo');
  mkdirSync(repo);
  git(['init', '--quiet']);
  writeFileSync(
    join(repo, 'bench.sh'),
    'echo started >&2\nsleep 6\necho \'{"bench": {"latency": {"value": 42}}}\'\n',
  );
  writeFileSync(join(repo, 'value.sh'), 'echo "{\\"bench\\": {\\"latency\\": {\\"value\\": $1}}}"\n');
  writeFileSync(join(repo, 'fail.sh'), 'echo going down >&2\nexit 3\n');
  writeFileSync(
    join(repo, 'net.sh'),
    'echo "{\\"net\\": {\\"interfaces\\": {\\"value\\": $(tail -n +3 /proc/net/dev | wc -l)}}}"\n',
  );
  git(['add', '.']);
  git(['commit', '--quiet', '-m', 'benchmarks']);
  commit = git(['rev-parse', 'HEAD']);
});

afterAll(async () => {
  for (const agent of agents) agent.kill('SIGKILL');
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const remote = (spec: string, command: string, ...extra: string[]) => [
  'run',
  '--spec',
  spec,
  '--project',
  'bench',
  '--repo',
  `file://${repo}`,
  '--hash',
  commit,
  '--adapter',
  'json',
  ...extra,
  command,
];

describe('benchtrack run --spec', () => {
  it('survives a runner killed mid-job: the job returns to the queue, the other runner reports it once', async () => {
    const keyA = createRunner('Runner A', 'bench-box');
    const keyB = createRunner('Runner B', 'bench-box');
    const a = startAgent(keyA);
    const run = runCliAsync(remote('bench-box', 'sh bench.sh'), { env: env(), cwd: repo });
    const running = await until(async () => {
      const [job] = await apiGet('/v0/projects/bench/jobs?spec=bench-box');
      return job?.state === 'running' ? job : undefined;
    }, 'runner A to claim the job');
    expect(running.runner.slug).toBe('runner-a');
    a.child.kill('SIGKILL');
    const b = startAgent(keyB);
    const result = await run;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Testbed: bench-box/);
    expect(result.stdout).toMatch(/│ bench +│ Latency \(ns\) +│ +42 │/);
    expect(result.stderr).toContain(`job ${running.uuid} running on runner runner-a (attempt 1)`);
    expect(result.stderr).toContain(
      'attempt 1 of 3 ended: runner "runner-a" sent no heartbeat for 5s; the job is queued again',
    );
    expect(result.stderr).toContain(`job ${running.uuid} running on runner runner-b (attempt 2)`);
    expect(result.stderr).toContain('started');
    const reports = await apiGet('/v0/projects/bench/reports?testbed=bench-box');
    expect(reports).toHaveLength(1);
    expect(reports[0].job).toBe(running.uuid);
    expect(await apiGet(`/v0/projects/bench/jobs/${running.uuid}`)).toMatchObject({
      state: 'succeeded',
      attempt: 2,
      runner: { slug: 'runner-b' },
      report: reports[0].uuid,
    });
    expect(b.log()).toContain(`job ${running.uuid} succeeded`);
    // the runner cleans its work directory after each job
    await until(
      async () => (readdirSync(join(dir, 'work-1')).length === 0 ? true : undefined),
      'a clean work directory',
    );
  });

  it('prints the report as a local run does, with the exit status of --error-on-alert', async () => {
    const agent = startAgent(createRunner('Quick', 'quick-box'));
    const thresholds = [
      '--threshold-measure',
      'latency',
      '--threshold-test',
      'percentage',
      '--threshold-upper-boundary',
      '0.1',
    ];
    const first = await runCliAsync(remote('quick-box', 'sh value.sh 10', '--err', ...thresholds), {
      env: env(),
      cwd: repo,
    });
    expect(first.status, first.stderr).toBe(0);
    const second = await runCliAsync(
      remote('quick-box', 'sh value.sh 100', '--err', '--format', 'json', ...thresholds),
      {
        env: env(),
        cwd: repo,
      },
    );
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('the report has 1 alert (--error-on-alert)');
    const report = JSON.parse(second.stdout);
    expect(report).toMatchObject({ testbed: { slug: 'quick-box' }, counts: { alerts: { total: 1 } } });
    // --no-wait queues and prints the job's UUID; a failing command fails the job with its reason
    const queued = await runCliAsync(remote('quick-box', 'sh fail.sh', '--no-wait'), {
      env: env(),
      cwd: repo,
    });
    expect(queued.status).toBe(0);
    const uuid = queued.stdout.trim();
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await until(async () => {
      const job = await apiGet(`/v0/projects/bench/jobs/${uuid}`);
      return job.state === 'failed' ? job : undefined;
    }, 'the failing job');
    expect(failed.reason).toBe(
      'the command `sh fail.sh` exited with status 3; pass --allow-failure to skip failed iterations',
    );
    const log = runCli(['job', 'log', 'bench', uuid], undefined, { env: env() });
    expect(log.stdout).toContain('going down');
    expect(agent.log()).toContain(`job ${uuid} failed`);
  });

  it('cancels a job with benchtrack job cancel', async () => {
    const queued = await runCliAsync(remote('nobody-box', 'sh bench.sh', '--no-wait'), {
      env: env(),
      cwd: repo,
    });
    const uuid = queued.stdout.trim();
    const canceled = runCli(['job', 'cancel', 'bench', uuid], undefined, { env: env() });
    expect(canceled.status, canceled.stderr).toBe(0);
    expect(JSON.parse(canceled.stdout)).toMatchObject({
      state: 'canceled',
      reason: 'canceled by admin-user',
    });
    const listed = runCli(['job', 'list', 'bench', '--state', 'canceled'], undefined, { env: env() });
    expect(JSON.parse(listed.stdout).map((job: { uuid: string }) => job.uuid)).toContain(uuid);
  });

  it('runs a job without network with --no-network, and refuses to start when no sandbox works', async () => {
    const key = createRunner('Offline', 'offline-box');
    const agent = startAgent(key, '--no-network', '--once');
    const result = await runCliAsync(remote('offline-box', 'sh net.sh', '--format', 'json', '--quiet'), {
      env: env(),
      cwd: repo,
    });
    expect(result.status, result.stderr).toBe(0);
    // only the loopback interface
    expect(JSON.parse(result.stdout).results[0][0].measures[0].metric.value).toBe(1);
    expect(agent.log()).toMatch(/no network: (bwrap|unshare)/);
    const bare = spawnSync(process.execPath, [...CLI, 'runner', 'up', '--key', key, '--no-network'], {
      // no program on the PATH: neither bwrap nor unshare (node itself runs by its full path)
      env: { PATH: '/nonexistent', BENCHTRACK_HOST: api.url },
      encoding: 'utf8',
    });
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain('--no-network needs bubblewrap or unshare');
    expect(bare.stderr).toContain('bwrap: not installed');
  });
});

describe('benchtrack runner', () => {
  it('lists, rotates the key of, and archives runners', () => {
    const key = createRunner('Managed', 'managed-box');
    const listed = runCli(['runner', 'list', '--per-page', '255'], undefined, { env: env() });
    expect(JSON.parse(listed.stdout).map((r: { slug: string }) => r.slug)).toContain('managed');
    const rotated = runCli(['runner', 'rotate-key', 'managed'], undefined, { env: env() });
    expect(rotated.status, rotated.stderr).toBe(0);
    const newKey = rotated.stdout.trim().split('\n').at(-1);
    expect(newKey).toMatch(/^btr_/);
    expect(newKey).not.toBe(key);
    const old = spawnSync(process.execPath, [...CLI, 'runner', 'up', '--key', key, '--once'], {
      env: { PATH: process.env.PATH, BENCHTRACK_HOST: api.url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('(401)');
    const archived = runCli(['runner', 'archive', 'managed'], undefined, { env: env() });
    expect(JSON.parse(archived.stdout)).toMatchObject({ archived: true, state: 'archived' });
  });
});
