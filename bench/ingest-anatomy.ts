/**
 * Where a DuckDB report's time goes with 1 and then 4 concurrent clients, by hand, not part of
 * `npm run bench`:
 *   node --import tsx bench/ingest-anatomy.ts             (BENCH_ANATOMY_PROFILE=file.cpuprofile keeps the profile)
 * The ingest bench's project (1,000,000 metrics, t_test on both measures, reports of 200 metrics) on the API
 * composed in this process; the clients run in a process of their own, so this process's event loop is the API's.
 * The storage, the reports service and the boundary engine are wrapped from outside (no change to the code under
 * test) to time, per report: the service call (HTTP parsing, validation and sending are the rest of the client's
 * latency), the wait for the writer, each repository call inside the write transaction, the boundary job, the wait
 * from the end of the report's function to its commit (the rest of its group and COMMIT), and the read transaction
 * that renders the answer. Group sizes of the group commit come from the order of the transactions' functions:
 * one that starts before the previous one committed shares its group. Also: the event-loop utilization of this
 * process during each load, its CPU, the clients' CPU, and a CPU profile of the main thread during a second
 * 4-client load summed by package and by function (the profiler keeps the event loop busy itself: read the
 * utilization from the run before it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ServiceContext, Storage, WriteRepositories } from '../core/index.js';
import { ReportsService } from '../core/index.js';
import { SERVICE_CONTEXT } from '../server/container.js';
import { benchDatabase } from './lib/engines.js';
import { loadFromProcess, post, prepareIngest } from './lib/ingest-data.js';
import { percentile } from './lib/measure.js';
import { Random } from './lib/random.js';
import { startBenchServer } from './lib/server.js';
import { watchedRepositories } from '../test/helpers/repository-calls.js';

/** Stage durations (ms) of one report. */
type Stages = Map<string, number>;
const current = new AsyncLocalStorage<Stages>();
const reports: Stages[] = [];
const addTo = (stages: Stages | undefined, stage: string, ms: number) =>
  stages?.set(stage, (stages.get(stage) ?? 0) + ms);
const add = (stage: string, ms: number) => addTo(current.getStore(), stage, ms);
const timed = async <T>(stage: string, run: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    return await run();
  } finally {
    add(stage, performance.now() - started);
  }
};

/** Each repository method of a transaction, timed under `tx <repository>.<method>`. */
const timedRepositories = (tx: WriteRepositories) =>
  watchedRepositories(tx, { end: (call, ms) => add(`tx ${call}`, ms) });

/** Group commits seen: how many transactions each committed. */
const groups: number[] = [];
let previous: { resolved: boolean } | undefined;

function instrument(storage: Storage, ctx: ServiceContext, service: ReportsService): void {
  const transaction = storage.transaction.bind(storage);
  const read = storage.read.bind(storage);
  (storage as { transaction: Storage['transaction'] }).transaction = (fn, options) => {
    const called = performance.now();
    let ended = 0;
    const state = { resolved: false, started: false };
    // the writer runs a group's functions in the async context of the write that started draining the queue
    const stages = current.getStore() as Stages;
    return transaction(
      (tx) =>
        current.run(stages, async () => {
          const started = performance.now();
          if (!state.started) {
            state.started = true;
            add('writer queue (wait for BEGIN)', started - called);
            if (previous && !previous.resolved) groups[groups.length - 1]! += 1;
            else groups.push(1);
            previous = state;
          }
          try {
            return await fn(timedRepositories(tx));
          } finally {
            ended = performance.now();
            add('report function (all tx calls + boundaries)', ended - started);
          }
        }),
      options,
    ).then((result) => {
      state.resolved = true;
      addTo(stages, 'end of function to commit (rest of group, COMMIT)', performance.now() - ended);
      return result;
    });
  };
  (storage as { read: Storage['read'] }).read = (fn) => timed('render (read transaction)', () => read(fn));
  const boundaries = ctx.boundaries;
  (ctx as { boundaries: ServiceContext['boundaries'] }).boundaries = (job) =>
    timed('boundary job (in the transaction)', () => boundaries(job));
  const run = service.run.bind(service);
  service.run = (caller, input) => {
    const stages: Stages = new Map();
    reports.push(stages);
    return current.run(stages, () => timed('service call', () => run(caller, input)));
  };
}

function table(title: string, rows: readonly Stages[], latencies: readonly number[]): void {
  const names = new Set(rows.flatMap((stages) => [...stages.keys()]));
  const p50 = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  process.stdout.write(`\n${title} (${rows.length} reports; ms per report, mean and p50)\n`);
  process.stdout.write(
    `  client latency                                      ${mean([...latencies])
      .toFixed(2)
      .padStart(8)} ${p50([...latencies])
      .toFixed(2)
      .padStart(8)}\n`,
  );
  for (const name of [...names].sort()) {
    const values = rows.map((stages) => stages.get(name) ?? 0);
    process.stdout.write(
      `  ${name.padEnd(50)}  ${mean(values).toFixed(2).padStart(8)} ${p50(values).toFixed(2).padStart(8)}\n`,
    );
  }
}

/** Self time of a CPU profile's samples by package (or our top folder) and by function. */
function summarizeProfile(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = (byId.get(id) as (typeof profile.nodes)[number]).callFrame;
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      /\/work\/[^/]+(?:\/[^/]+)?\/(core|plugins|server|workers|bench|kit)\//.exec(url)?.[1] ??
      (url.startsWith('node:') ? 'node:' + url.slice(5).split('/')[0] : url === '' ? functionName : url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|work)\//, '')}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    if (functionName !== '(idle)') total += ms;
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(0).padStart(7)} ms  ${k}`)
      .join('\n');
  process.stdout.write(`\nmain thread CPU profile, self time (busy ${total.toFixed(0)} ms), by package:\n`);
  process.stdout.write(`${top(byPackage, 18)}\nby function:\n${top(byFunction, 30)}\n`);
}

async function load(url: string, clients: number, perClient: number, profile: boolean) {
  reports.length = 0;
  groups.length = 0;
  previous = undefined;
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
  }
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const result = await loadFromProcess([url], clients, perClient);
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  if (session) {
    const { profile: cpuProfile } = await session.post('Profiler.stop');
    session.disconnect();
    if (process.env.BENCH_ANATOMY_PROFILE)
      writeFileSync(process.env.BENCH_ANATOMY_PROFILE, JSON.stringify(cpuProfile));
    summarizeProfile(cpuProfile as never);
  }
  table(`${clients} client${clients > 1 ? 's' : ''}`, reports, result.latencies);
  const sizes = groups.reduce((m, g) => m.set(g, (m.get(g) ?? 0) + 1), new Map<number, number>());
  process.stdout.write(
    `  ${Math.round(result.perSecond).toLocaleString()} metrics/s in ${result.wallSeconds.toFixed(1)} s; ` +
      `event-loop utilization ${(elu.utilization * 100).toFixed(1)}%; API process CPU ` +
      `${((cpu.user + cpu.system) / 1e6 / result.wallSeconds).toFixed(2)} cores; clients' process ` +
      `${(result.clientCpuSeconds / result.wallSeconds).toFixed(2)} cores; load average ${loadavg()[0]?.toFixed(2)}\n` +
      `  group commits: ${groups.length} for ${reports.length} reports; sizes ${[...sizes]
        .sort((a, b) => a[0] - b[0])
        .map(([size, n]) => `${size}x${n}`)
        .join(' ')}\n`,
  );
}

const db = await benchDatabase('duckdb', 'ingest-anatomy');
try {
  await prepareIngest(db);
  const server = await startBenchServer(db.database);
  try {
    const random = new Random(11);
    for (let i = 0; i < 10; i++) await post(server.url, random);
    const { container, storage } = server.api;
    instrument(storage, container.resolve(SERVICE_CONTEXT), container.resolve(ReportsService));
    await load(server.url, 1, 40, false);
    await load(server.url, 4, 40, false);
    // the profiler's sampling busies the event loop itself: its run is not the one to read utilization from
    await load(server.url, 4, 40, true);
  } finally {
    await server.close();
  }
} finally {
  await db.remove();
}
