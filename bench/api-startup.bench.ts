import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { summarize, type Timing } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { REPO_ROOT } from '../test/helpers/process.js';

/**
 * Start-up of `benchtrack-api`, from spawn until it listens, on a database it already migrated (a restart): the
 * installed entry's program (dist/api-bundle/main.js, what bin/benchtrack-api.cjs runs) against tsc's unbundled
 * modules (dist/server/main.js, the reference for what bundling saves), beside the reference of a bare fastify
 * app listening, started the same way in the same run. Each sample is a fresh process; besides its wall time, the
 * CPU it used until it listened (user + system, from /proc: Linux only), which is what a machine running many
 * starts (the test suite, a crash loop, many API processes on one PostgreSQL) pays.
 *
 * Measured 2026-11-27 18:23 UTC (`npm run bench -- api-startup`, 2 cores, load average 0.8-2.1, nothing else
 * running), p50 of 10: bare fastify 226 ms, 245 ms of CPU; the bundle 763 ms, 950 ms of CPU (3.4x bare fastify);
 * unbundled 1,201 ms, 1,555 ms of CPU (the bundle 0.64x the time, 0.61x the CPU). Before the built-in models were
 * imported by the program instead of loaded from their files (a second copy of the kit and zod), the unbundled
 * program took 1.46-1.76 s of CPU to listen (three starts, /usr/bin/time, load about 2).
 *
 * DuckDB's JavaScript API bundled instead of loaded by Node (2026-11-28 01:57-02:01 UTC, builds alternating, two
 * runs each, nothing else running), the bundle's p50: before 673 and 695 ms, 825 and 880 ms of CPU (0.58x and 0.61x
 * the unbundled program's CPU in the same run); after 519 and 686 ms, 580 and 760 ms of CPU (0.43x and 0.48x).
 */
const ITERATIONS = Number(process.env.API_BENCH_ITERATIONS ?? 10);
const WARMUP = 2;
const TICKS_PER_SECOND = 100;

interface Start {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** CPU time (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** Spawns `args`, waits for `ready` on its output, reads its CPU time, and stops it. */
function startOnce(args: readonly string[], env: NodeJS.ProcessEnv, ready: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, [...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let start: Start | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (start || !output.includes(ready)) return;
      start = { wallMs: performance.now() - began, cpuMs: cpuMsOf(child.pid as number) };
      child.kill('SIGKILL');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (start) resolve(start);
      else
        reject(
          new Error(
            `${args.join(' ')} ended (${code}) without printing "${ready}" (60 s at most):\n${output}`,
          ),
        );
    });
  });
}

async function measure(args: readonly string[], env: NodeJS.ProcessEnv, ready: string) {
  for (let i = 0; i < WARMUP; i++) await startOnce(args, env, ready);
  const starts: Start[] = [];
  for (let i = 0; i < ITERATIONS; i++) starts.push(await startOnce(args, env, ready));
  return {
    wall: summarize(starts.map((s) => s.wallMs)),
    cpu: summarize(starts.map((s) => s.cpuMs)),
  };
}

const report = new BenchReport(`benchtrack-api start-up (${ITERATIONS} fresh processes each, p50)`);
const add = (name: string, result: { wall: Timing; cpu: Timing }) =>
  report
    .add(name, 'latency', result.wall.p50Ms * 1e6, `${result.wall.p50Ms.toFixed(0)} ms p50 to listening`)
    .add(name, 'cpu', result.cpu.p50Ms * 1e6, `${result.cpu.p50Ms.toFixed(0)} ms of CPU p50`);

const dir = mkdtempSync(join(tmpdir(), 'benchtrack-api-startup-'));
try {
  const env = {
    PATH: process.env.PATH,
    UV_THREADPOOL_SIZE: '16',
    BENCHTRACK_CONFIG: JSON.stringify({
      security: { secret_key: 'api-startup-bench-secret-0123456789' },
      server: { bind_address: '127.0.0.1:0' },
      database: { file: join(dir, 'benchtrack.db') },
    }),
  };
  const fastify = join(REPO_ROOT, 'node_modules', 'fastify', 'fastify.js');
  const bare = await measure(
    [
      '-e',
      `require(${JSON.stringify(fastify)})().get('/', async () => 'ok').listen({ port: 0, host: '127.0.0.1' }).then(() => console.log('bare fastify listening'))`,
    ],
    { PATH: process.env.PATH },
    'bare fastify listening',
  );
  add('bare fastify app', bare);

  const bundled = join(REPO_ROOT, 'dist', 'api-bundle', 'main.js');
  const compiled = join(REPO_ROOT, 'dist', 'server', 'main.js');
  if (existsSync(bundled) && existsSync(compiled)) {
    const name = 'benchtrack-api (dist/api-bundle, bundled)';
    const unbundledName = 'benchtrack-api (dist/server, unbundled)';
    const timing = await measure([bundled], env, 'Server listening');
    const unbundled = await measure([compiled], env, 'Server listening');
    add(name, timing);
    add(unbundledName, unbundled);
    report.ratio(name, 'bare fastify app', timing.wall.p50Ms, bare.wall.p50Ms);
    report.ratio(name, unbundledName, timing.wall.p50Ms, unbundled.wall.p50Ms);
    report.ratio(`${name} CPU`, `${unbundledName} CPU`, timing.cpu.p50Ms, unbundled.cpu.p50Ms);
  } else {
    process.stderr.write(
      'api-startup: dist/api-bundle/main.js or dist/server/main.js is missing; run `npm run build` first\n',
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report.print();
