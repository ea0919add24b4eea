/**
 * Where perf query (a)'s time goes on PostgreSQL, by hand, not part of `npm run bench`:
 *   node --import tsx bench/pg-perf-anatomy.ts          (BENCH_PG_BENCHMARKS=5000 for the perf bench's 10 M metrics)
 * In a throwaway cluster, the perf bench's history on fewer benchmarks (20 by default: 40,000 metrics, seeded in
 * seconds; (a) reads the same 8 series x 1,000 points): p50 of the bare perf statement, of the stages of
 * PerfService.query in one read transaction (BEGIN, requireProject, resolvePerf, the perf statement with its
 * decoding into columns, COMMIT), and of the whole answer over HTTP.
 */
import { performance } from 'node:perf_hooks';
import { ANONYMOUS, createLogger, requireProject, resolvePerf } from '../core/index.js';
import { postgresStorage } from '../plugins/storage/postgres/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { bareConnection, barePerf, fillHistoryPostgres } from './lib/postgres-bare.js';
import { seedRun } from './lib/seed-history.js';
import { startBenchServer } from './lib/server.js';

const BENCHMARKS = Number(process.env.BENCH_PG_BENCHMARKS ?? 20);
const REPORTS = 1_000;
const YEAR_START = Date.UTC(2025, 0, 1);
const STEP = Math.floor((365 * 86_400_000) / REPORTS);
const ROUNDS = 40;
const keys = {
  branches: ['main'],
  heads: [],
  testbeds: ['ci'],
  benchmarks: ['b-10', 'b-11', 'b-12', 'b-13'],
  measures: ['latency', 'throughput'],
};

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const stages = new Map<string, number[]>();
const note = (stage: string, ms: number) => stages.set(stage, [...(stages.get(stage) ?? []), ms]);

const cluster = await startPostgres();
try {
  const url = await cluster.createDatabase('perf');
  const server = await startBenchServer({ url });
  await seedRun(server.url, 'perf', YEAR_START);
  await server.close();
  const seeded = performance.now();
  await fillHistoryPostgres(url, {
    benchmarks: BENCHMARKS,
    reports: REPORTS,
    startMs: YEAR_START,
    stepMs: STEP,
    order: 'time',
  });
  process.stderr.write(
    `seeded ${BENCHMARKS} benchmarks in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`,
  );

  const logger = createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } });
  const storage = await postgresStorage.open({ url }, { logger });
  const bare = bareConnection(url);
  let series = new Int32Array();
  let head = 0;
  for (let k = 0; k < ROUNDS + 5; k++) {
    const started = performance.now();
    let mark = started;
    const lap = (stage: string) => {
      const now = performance.now();
      if (k >= 5) note(stage, now - mark);
      mark = now;
    };
    const points = await storage.read(async (r) => {
      lap('BEGIN (until the read runs)');
      const { project } = await requireProject(r, ANONYMOUS, 'perf', 'view');
      lap('requireProject');
      const selection = await resolvePerf(r, project, keys);
      lap('resolvePerf');
      const columns = await r.metrics.perf({ ...selection.request, limit: 100_001 });
      lap('perf statement, into columns');
      series = Int32Array.from(selection.request.series);
      head = selection.request.heads[0] as number;
      return columns.count;
    });
    lap('COMMIT');
    if (k >= 5) note('read, in all', performance.now() - started);
    if (points !== 8_000) throw new Error(`perf answered ${points} points`);
    const bareStarted = performance.now();
    await barePerf(bare, series, head);
    if (k >= 5) note('bare perf statement', performance.now() - bareStarted);
  }
  await bare.end();
  await storage.close();

  const api = await startBenchServer({ url });
  const query = `branches=main&testbeds=ci&benchmarks=${keys.benchmarks.join(',')}&measures=latency,throughput`;
  for (let k = 0; k < ROUNDS + 5; k++) {
    const started = performance.now();
    const response = await fetch(`${api.url}/v0/projects/perf/perf?${query}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`perf answered ${response.status}`);
    if (k >= 5) note('API over HTTP', performance.now() - started);
  }
  await api.close();
  for (const [stage, values] of stages)
    process.stdout.write(`${stage.padEnd(32)} p50 ${p50(values).toFixed(2)} ms\n`);
} finally {
  await cluster.stop();
}
