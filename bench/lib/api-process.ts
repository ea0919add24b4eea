import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface ApiProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** The process's event-loop utilization so far: idle and active milliseconds since it started. */
  eventLoop(): Promise<EventLoopTimes>;
  stop(): Promise<void>;
}

export interface EventLoopTimes {
  readonly idle: number;
  readonly active: number;
}

/** The share of `to - from` the event loop was busy: 1 is a saturated process. */
export function utilization(from: EventLoopTimes, to: EventLoopTimes): number {
  const active = to.active - from.active;
  return active / (active + to.idle - from.idle);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A real `benchtrack-api` process from the checkout at `root` over `database` (the configuration's database
 * section) with `extra` sections of the configuration, on a free port, with memory of its own that `memory` reads.
 */
export async function startApi(
  root: string,
  database: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<ApiProcess> {
  const port = await freePort();
  const config = {
    security: { secret_key: 'bench-api-secret-key-0123456789abcdef' },
    server: { bind_address: `127.0.0.1:${port}`, request_body_max_bytes: 64 * 1024 * 1024 },
    database,
    logging: { log: { stderr_terminal: { level: 'error' } } },
    ...extra,
  };
  const probe = join(root, 'bench/lib/event-loop-probe.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', probe, join(root, 'server/main.ts')],
    {
      cwd: root,
      env: { ...process.env, BENCHTRACK_CONFIG: JSON.stringify(config), UV_THREADPOOL_SIZE: '16' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  child.channel?.unref();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/v0/server/version`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the API did not start in 60 s');
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    url,
    child,
    eventLoop: () =>
      new Promise((done) => {
        child.once('message', (times) => done(times as EventLoopTimes));
        child.send('event-loop');
      }),
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process now, and its peak since it started or since `resetPeak`. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

/** Resets a process's peak resident memory (VmHWM) to its current resident memory. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux build Node supports). */
const TICKS = 100;

/** CPU seconds (user + system) a process has used so far; `children` adds those of its children it waited for. */
export function cpuSeconds(pid: number, children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const own = (fields[11] ?? 0) + (fields[12] ?? 0);
  return (own + (children ? (fields[13] ?? 0) + (fields[14] ?? 0) : 0)) / TICKS;
}

/**
 * CPU seconds used so far by a PostgreSQL cluster (its postmaster, with the backends that ended, and every process
 * it started that is still running), split: `backends`, the running client connections (a process titled
 * `postgres: <user> <database> <host>...`), and `background`, everything else (checkpointer, WAL writer,
 * autovacuum, the postmaster itself, and the backends that ended, which it reaped).
 */
export function clusterCpu(dataDir: string): { backends: number; background: number } {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let background = cpuSeconds(postmaster, true);
  let backends = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== postmaster) continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const used = cpuSeconds(Number(entry));
      if (/^postgres: \S+ \S+ (\d|\[local\])/.test(title)) backends += used;
      else background += used;
    } catch {
      // the process ended meanwhile
    }
  }
  return { backends, background };
}

/**
 * CPU seconds the whole machine has spent busy (every process, ours and others', all cores) since it booted, and
 * the number of cores: with the CPU of the processes measured, what is left was other work on a shared machine.
 */
export function machineCpuSeconds(): { busy: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  // cpu  user nice system idle iowait irq softirq steal ...
  const total = (lines[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (total[3] ?? 0) + (total[4] ?? 0);
  const busy = total.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0) - idle;
  return { busy: busy / TICKS, cores: lines.filter((line) => /^cpu\d+ /.test(line)).length };
}
