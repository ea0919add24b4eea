/**
 * Ingest and perf of two checkouts in one process, request by request in turn: each side runs its own server stack
 * (bench/lib/server.ts of its checkout) over a database of its own, and the process's CPU is read around each
 * request, so both sides see the same load at the same moments. For changes whose effect is smaller than the
 * swings between runs of the other benches on a shared machine.
 *
 * Run: BENCH_AB_BASE=<other checkout> npx tsx bench/ab-checkouts.ts [--engine duckdb|postgres]
 * (BENCH_AB_WARM, BENCH_AB_REPORTS, BENCH_AB_QUERIES: reports before measuring, reports and perf queries measured;
 * 70, 100, 100). Prints the ratios of this checkout to the other.
 */
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchDatabase, selectedEngines } from './lib/engines.js';
import type * as IngestData from './lib/ingest-data.js';
import type * as RandomModule from './lib/random.js';
import type * as Server from './lib/server.js';

const base = process.env.BENCH_AB_BASE;
if (!base) throw new Error('BENCH_AB_BASE: name the checkout to compare with (a second worktree)');
const roots = { base: resolve(base), this: resolve(dirname(fileURLToPath(import.meta.url)), '..') };
const WARM = Number(process.env.BENCH_AB_WARM ?? 70);
const REPORTS = Number(process.env.BENCH_AB_REPORTS ?? 100);
const QUERIES = Number(process.env.BENCH_AB_QUERIES ?? 100);

interface Samples {
  cpu: number[];
  wall: number[];
}

async function measure(work: () => Promise<unknown>, into: Samples): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  into.wall.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  into.cpu.push((used.user + used.system) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

for (const engine of selectedEngines()) {
  const sides = [];
  for (const [name, root] of Object.entries(roots)) {
    const { post } = (await import(`${root}/bench/lib/ingest-data.ts`)) as typeof IngestData;
    const { Random } = (await import(`${root}/bench/lib/random.ts`)) as typeof RandomModule;
    const { startBenchServer } = (await import(`${root}/bench/lib/server.ts`)) as typeof Server;
    const db = await benchDatabase(engine, `ab_${name}`);
    const server = await startBenchServer(db.database);
    const random = new Random(11);
    const get = async (path: string): Promise<unknown> => {
      const response = await fetch(`${server.url}${path}`);
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      return response.json();
    };
    sides.push({
      name,
      db,
      server,
      get,
      report: () => post(server.url, random),
      query: '',
      ingest: { cpu: [], wall: [] } as Samples,
      perf: { cpu: [], wall: [] } as Samples,
    });
  }
  try {
    for (let i = 0; i < WARM; i++) for (const side of sides) await side.report();
    for (let i = 0; i < REPORTS; i++)
      for (const side of i % 2 ? sides : [...sides].reverse()) await measure(side.report, side.ingest);
    for (const side of sides) {
      const uuids = async (kind: string) =>
        ((await side.get(`/v0/projects/ingest/${kind}?per_page=8`)) as { uuid: string }[]).map((r) => r.uuid);
      const [branches, testbeds, benchmarks, measures] = (await Promise.all(
        ['branches', 'testbeds', 'benchmarks', 'measures'].map(uuids),
      )) as [string[], string[], string[], string[]];
      side.query = `/v0/projects/ingest/perf?branches=${branches[0]}&testbeds=${testbeds[0]}&benchmarks=${benchmarks.join(',')}&measures=${measures[0]}&start_time=0&end_time=${Date.now() + 1e9}`;
      for (let i = 0; i < 5; i++) await side.get(side.query);
    }
    for (let i = 0; i < QUERIES; i++)
      for (const side of i % 2 ? sides : [...sides].reverse())
        await measure(() => side.get(side.query), side.perf);
    const [before, after] = sides as [(typeof sides)[0], (typeof sides)[0]];
    for (const kind of ['ingest', 'perf'] as const) {
      const a = before[kind];
      const b = after[kind];
      process.stdout.write(
        `${engine} ${kind}: CPU ${mean(b.cpu).toFixed(2)} ms against ${mean(a.cpu).toFixed(2)} (mean ${(mean(b.cpu) / mean(a.cpu)).toFixed(3)}x, median ${(median(b.cpu) / median(a.cpu)).toFixed(3)}x), wall p50 ${median(b.wall).toFixed(1)} ms against ${median(a.wall).toFixed(1)} (${(median(b.wall) / median(a.wall)).toFixed(3)}x); load average ${(loadavg()[0] as number).toFixed(1)}\n`,
      );
    }
  } finally {
    for (const side of sides) {
      await side.server.close();
      await side.db.remove();
    }
  }
}
