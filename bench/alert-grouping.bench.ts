/**
 * What an alerting report costs: reports of 200 benchmarks (latency, one-sided t_test at 0.99, 64-point samples)
 * posted over HTTP to the API composed in this process, on a fresh database of each engine, 30 reports of history
 * first. Each cycle posts, one after the other and waiting for the regression analyzer between them:
 *   step     90 series of testbed `alerting` step to a new level (three times the last): 90 alerts that open one
 *            regression (one opened, 89 joined);
 *   repeat   the same values again, nine times: the first ones raise 90 alerts each, of the known change, which
 *            attach to that regression; the analyzer confirms the change among them (90 series in one pass);
 *   quiet    testbed `quiet`, every series at its level: no alert (the reference, measured in the same run).
 * Prints, per kind, the client's latency, the time in the grouping of the alerts into regressions (from the end
 * of the alerts' insert to the end of ingest's transaction function, where the grouping is the last step) with the
 * repository calls made there (3 without alerts: lookups of change-point alerts' metrics, none, no statement),
 * and the analyzer's pass after the commit (its read and detection, its write transaction, the repository calls in
 * it and the changes it made). The storage and the analyzer are wrapped from outside; the code under test is
 * unchanged, so the bench runs on an earlier commit as it is.
 *
 * Run: npm run bench -- alert-grouping [--engine duckdb,postgres]   (BENCH_GROUPING_CYCLES, default 4; BENCH_GROUPING_REPEATS, default 9)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Storage } from '../core/index.js';
import { watchedRepositories } from '../test/helpers/repository-calls.js';
import { RegressionAnalyzer, ReportsService } from '../core/index.js';
import { benchDatabase, onEngine, selectedEngines, type EngineName } from './lib/engines.js';
import { summarize } from './lib/measure.js';
import { startBenchServer } from './lib/server.js';

const BENCHMARKS = 200;
const STEPPED = 90;
const HISTORY = 30;
const CYCLES = Number(process.env.BENCH_GROUPING_CYCLES ?? 4);
const KINDS = ['step', 'repeat', 'quiet'] as const;
/** Repeat reports a cycle posts after its step (the analyzer confirms the change among them). */
const REPEATS = Number(process.env.BENCH_GROUPING_REPEATS ?? 9);
type Kind = (typeof KINDS)[number];

/** What one report cost, by stage. */
interface Cost {
  ingestMs: number;
  /** Ingest's write transaction function (the grouping is its last step). */
  transactionMs: number;
  /** The reads of the answer after the commit. */
  answerMs: number;
  groupingMs: number;
  groupingCalls: number;
  analyzerReadMs: number;
  analyzerWriteMs: number;
  analyzerWriteCalls: number;
  /** Changes of regressions the analyzer's pass made (confirmed, moved, fixed...). */
  analyzerChanges: number;
}

const context = new AsyncLocalStorage<{ role: 'ingest' | 'analyzer'; cost: Cost }>();

/** The cost of the report being posted (one at a time). */
let current: Cost | undefined;

function instrument(storage: Storage, analyzer: RegressionAnalyzer, service: ReportsService): void {
  const run = service.run.bind(service);
  service.run = (caller, input) => context.run({ role: 'ingest', cost: current! }, () => run(caller, input));
  const transaction = storage.transaction.bind(storage);
  const read = storage.read.bind(storage);
  (storage as { transaction: Storage['transaction'] }).transaction = (fn, options) => {
    const store = context.getStore();
    if (!store) return transaction(fn, options);
    return transaction(async (tx) => {
      const started = performance.now();
      let raisedAt: number | undefined;
      const wrapped = watchedRepositories(tx, {
        start() {
          if (store.role === 'analyzer') store.cost.analyzerWriteCalls++;
          else if (raisedAt !== undefined) store.cost.groupingCalls++;
        },
        end: (call) => call === 'alerts.raise' && (raisedAt = performance.now()),
      });
      try {
        return await fn(wrapped);
      } finally {
        const ended = performance.now();
        if (store.role === 'analyzer') store.cost.analyzerWriteMs += ended - started;
        else store.cost.transactionMs += ended - started;
        if (store.role === 'ingest' && raisedAt !== undefined) store.cost.groupingMs += ended - raisedAt;
      }
    }, options);
  };
  (storage as { read: Storage['read'] }).read = async (fn) => {
    const store = context.getStore();
    const started = performance.now();
    try {
      return await read(fn);
    } finally {
      if (store?.role === 'analyzer') store.cost.analyzerReadMs += performance.now() - started;
      else if (store) store.cost.answerMs += performance.now() - started;
    }
  };
  // the analyzer's pass runs in the async context of the request that started it
  const request = analyzer.request.bind(analyzer);
  analyzer.request = (r) => {
    const store = context.getStore();
    if (!store) return request(r);
    context.run({ role: 'analyzer', cost: store.cost }, () => request(r));
  };
}

/**
 * A report of `testbed`: its first {@link STEPPED} series at `step` times their level when a step is given, the
 * others a point above or below their level by the parity of `k` (history), or at their level (`k` null: quiet).
 */
function body(testbed: string, k: number | null, step?: number): string {
  const results = Object.fromEntries(
    Array.from({ length: BENCHMARKS }, (_, i) => {
      const base = 100 + (i % 7);
      const value =
        step !== undefined && i < STEPPED ? base * step : k === null ? base : base + (k % 2 ? 1 : -1);
      return [`bench::case_${i}`, { latency: { value } }];
    }),
  );
  const now = new Date().toISOString();
  return JSON.stringify({
    project: 'grouping',
    branch: 'main',
    testbed,
    start_time: now,
    end_time: now,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
    thresholds: { models: { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 } } },
  });
}

async function post(url: string, text: string): Promise<{ ms: number; alerts: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  const json = (await response.json()) as { alerts?: unknown[] };
  if (response.status !== 201) throw new Error(`POST /v0/run answered ${response.status}`);
  return { ms: performance.now() - started, alerts: json.alerts?.length ?? 0 };
}

async function measure(engine: EngineName): Promise<Record<string, unknown>> {
  const db = await benchDatabase(engine, 'grouping');
  try {
    const server = await startBenchServer(db.database);
    try {
      const analyzer = server.api.container.resolve(RegressionAnalyzer);
      for (let k = 0; k < HISTORY; k++)
        for (const testbed of ['alerting', 'quiet']) await post(server.url, body(testbed, k));
      await analyzer.idle();
      instrument(server.api.storage, analyzer, server.api.container.resolve(ReportsService));
      analyzer.onChanges((changes) => current && (current.analyzerChanges += changes.length));
      const costs = new Map<Kind, Cost[]>(KINDS.map((kind) => [kind, []]));
      const alerts = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
      for (let j = 1; j <= CYCLES; j++) {
        for (const kind of ['step', ...Array<Kind>(REPEATS).fill('repeat'), 'quiet'] as const) {
          const cost: Cost = {
            ingestMs: 0,
            transactionMs: 0,
            answerMs: 0,
            groupingMs: 0,
            groupingCalls: 0,
            analyzerReadMs: 0,
            analyzerWriteMs: 0,
            analyzerWriteCalls: 0,
            analyzerChanges: 0,
          };
          const text = kind === 'quiet' ? body('quiet', null) : body('alerting', HISTORY + j, 3 ** j);
          current = cost;
          const posted = await post(server.url, text);
          await analyzer.idle();
          cost.ingestMs = posted.ms;
          costs.get(kind)!.push(cost);
          alerts.get(kind)!.push(posted.alerts);
        }
      }
      return report(engine, costs, alerts);
    } finally {
      await server.close();
    }
  } finally {
    await db.remove();
  }
}

function report(engine: EngineName, costs: Map<Kind, Cost[]>, alerts: Map<Kind, number[]>) {
  const quiet = summarize(costs.get('quiet')!.map((c) => c.ingestMs));
  const bmf: Record<string, unknown> = {};
  process.stderr.write(`\n${engine}: ${CYCLES} cycles, load average ${loadavg()[0]?.toFixed(2)}\n`);
  for (const kind of KINDS) {
    const rows = costs.get(kind)!;
    const stat = (pick: (c: Cost) => number) => summarize(rows.map(pick));
    const ingest = stat((c) => c.ingestMs);
    const transaction = stat((c) => c.transactionMs);
    const answer = stat((c) => c.answerMs);
    const grouping = stat((c) => c.groupingMs);
    const readMs = stat((c) => c.analyzerReadMs);
    const write = stat((c) => c.analyzerWriteMs);
    const range = (pick: (c: Cost) => number, of = rows) => {
      const values = of.map(pick);
      return values.length === 0 ? '-' : `${Math.min(...values)}-${Math.max(...values)}`;
    };
    // the passes that changed regressions (the confirmation of a step): their write transactions
    const changing = rows.filter((c) => c.analyzerChanges > 0);
    const ms = (t: { p50Ms: number; p99Ms: number }) =>
      `p50 ${t.p50Ms.toFixed(1)} p99 ${t.p99Ms.toFixed(1)} ms`;
    process.stderr.write(
      `  ${kind.padEnd(6)} alerts ${[...new Set(alerts.get(kind))].join('/')}: ingest ${ms(ingest)} ` +
        `(${(ingest.p50Ms / quiet.p50Ms).toFixed(2)}x quiet; its transaction p50 ${transaction.p50Ms.toFixed(1)}, ` +
        `the answer's read p50 ${answer.p50Ms.toFixed(1)});\n` +
        `         grouping ${ms(grouping)}, ${range((c) => c.groupingCalls)} calls; ` +
        `analyzer read+detect p50 ${readMs.p50Ms.toFixed(1)} ms, write ${ms(write)}, ` +
        `${range((c) => c.analyzerWriteCalls)} calls; passes that changed regressions: ${changing.length}, ` +
        `write ${changing.map((c) => c.analyzerWriteMs.toFixed(1)).join('/') || '-'} ms, ` +
        `${range((c) => c.analyzerWriteCalls, changing)} calls\n`,
    );
    bmf[onEngine(engine, `alert grouping: ${kind} report`)] = {
      latency: { value: ingest.p50Ms * 1e6, upper_value: ingest.p99Ms * 1e6 },
      'grouping-time': { value: grouping.p50Ms * 1e6, upper_value: grouping.p99Ms * 1e6 },
      'analyzer-write-time': { value: write.p50Ms * 1e6, upper_value: write.p99Ms * 1e6 },
      'ratio-to-quiet': { value: ingest.p50Ms / quiet.p50Ms },
    };
  }
  return bmf;
}

const merged: Record<string, unknown> = {};
for (const engine of selectedEngines()) Object.assign(merged, await measure(engine));
process.stdout.write(`${JSON.stringify(merged)}\n`);
