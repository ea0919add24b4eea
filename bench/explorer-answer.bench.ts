/**
 * The perf explorer's answer (issues 19 and 21) without a browser: 255 series x 100 points with t-test
 * boundaries, the query the console sends, split into its parts on one database:
 *   - the request through the API (in-process fetch client), Arrow with every field and with `fields=plot` (the
 *     explorer's wire) and JSON without threshold models, identity and gzip, with the process's CPU time per
 *     request (API thread, worker, client); and the plot answer asked again with its ETag (a 304);
 *   - its parts with the same code on their own: the perf SQL on a bare connection (the reference), Arrow and
 *     JSON shaping, the structured clone of what the hop to the worker copies (text columns packed), gzip level 1,
 *     and each answer's gzipped bytes.
 *
 *   npm run bench -- explorer-answer
 *
 * Figures, 2026-11-27 08:11-08:13 UTC, commit 75f3b4a, 2 cores shared with three other engineers (load average
 * 8.5-15), p50 (process CPU per request): Arrow plot fields gzip 483 ms (238 ms), its 304 372 ms (140 ms), Arrow
 * every field gzip 611 ms (323 ms), JSON gzip 1,444 ms (818 ms); bare SQL 322 ms; Arrow shaping 63 ms, plot fields
 * 14 ms; gzipped 1,034 KiB, plot fields 561 KiB, JSON 2,255 KiB. The code before (d312f4a) just before, load
 * 9-17: Arrow gzip 568 ms (349 ms). Both rounds and their spread: docs/performance.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import type { PerfShapeInput } from '../core/index.js';
import { perfArrow } from '../core/perf/arrow.js';
import { perfJson } from '../core/perf/shape.js';
import { duckDb } from '../plugins/storage/duckdb/sql.js';
import { perf } from '../plugins/storage/shared/perf.js';
import { packTexts } from '../core/perf/packed-texts.js';
import { CONSOLE_PROJECT, consoleSelection, seedConsoleProject } from './lib/console-seed.js';
import { summarize, time, type Timing } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const ITERATIONS = Number(process.env.EXPLORER_ANSWER_ITERATIONS ?? 15);

interface Request {
  readonly wall: Timing;
  readonly cpuMs: number;
  readonly bytes: number;
}

async function request(url: string, encoding: 'identity' | 'gzip', revalidate = false): Promise<Request> {
  const walls: number[] = [];
  const cpus: number[] = [];
  let bytes = 0;
  const first = revalidate ? await fetch(url, { headers: { 'accept-encoding': 'identity' } }) : undefined;
  await first?.arrayBuffer();
  const etag = first?.headers.get('etag') ?? null;
  for (let i = -2; i < ITERATIONS; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const response = await fetch(url, {
      headers: { 'accept-encoding': encoding, ...(etag ? { 'if-none-match': etag } : {}) },
    });
    if (response.status !== (etag ? 304 : 200)) throw new Error(`${url} answered ${response.status}`);
    bytes = (await response.arrayBuffer()).byteLength;
    if (i < 0) continue;
    walls.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  return { wall: summarize(walls), cpuMs: summarize(cpus).p50Ms, bytes };
}

/** What shapePerf (workers/shape-perf.ts) sends to the worker: the text columns packed. */
function hopOf(input: PerfShapeInput) {
  const { hash, alert, alertLimit, alertStatus, ...columns } = input.columns;
  const texts = [hash, alert, alertLimit, alertStatus].map(packTexts);
  return { input: { ...input, columns }, texts };
}

/** The perf SQL on its own connection, and the shaper's input built from its columns. */
async function parts(file: string) {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  try {
    const ids = async (sql: string) =>
      Int32Array.from((await c.runAndReadAll(sql)).getRowsJS(), (row) => Number(row[0]));
    const series = await ids('SELECT id FROM series ORDER BY id');
    const [head] = await ids('SELECT head_id FROM branch');
    const selection = { series, heads: new Int32Array(series.length).fill(head!) };
    const sql = await time(() => perf(duckDb(c), selection), { iterations: ITERATIONS });
    const columns = await perf(duckDb(c), selection);
    const input: PerfShapeInput = {
      columns,
      prefixes: Array.from(series, (_, i) => `{"branch":{"name":"main"},"benchmark":{"name":"b-${i}"},`),
      names: Array.from(series, (_, i) => ['main', 'bench', `b-${i}`, 'latency'] as const),
      thresholds: null,
      head: '{"results":[',
    };
    return { sql, input, points: columns.count };
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

const report = new BenchReport('explorer answer: 255 series x 100 points with boundaries, split');
const dir = mkdtempSync(join(tmpdir(), 'explorer-answer-'));
const file = join(dir, 'bench.db');
try {
  const server = await startBenchServer(file);
  const requests: Record<string, Request> = {};
  try {
    await seedConsoleProject(server.url);
    const url = `${server.url}/v0/projects/${CONSOLE_PROJECT}/perf?${await consoleSelection(server.url)}`;
    for (const encoding of ['identity', 'gzip'] as const) {
      requests[`arrow/${encoding}`] = await request(`${url}&format=arrow`, encoding);
      requests[`arrow-plot/${encoding}`] = await request(`${url}&format=arrow&fields=plot`, encoding);
      requests[`json/${encoding}`] = await request(`${url}&threshold_models=false`, encoding);
    }
    requests['arrow-plot/304'] = await request(`${url}&format=arrow&fields=plot`, 'gzip', true);
  } finally {
    await server.close();
  }
  const { sql, input, points } = await parts(file);
  const arrow = perfArrow(input);
  const plot = perfArrow({ ...input, fields: 'plot' });
  const json = perfJson(input);
  const shaping = {
    arrow: await time(() => perfArrow(input), { iterations: ITERATIONS }),
    'arrow plot': await time(() => perfArrow({ ...input, fields: 'plot' }), { iterations: ITERATIONS }),
    json: await time(() => perfJson(input), { iterations: ITERATIONS }),
    'worker hop': await time(() => structuredClone(hopOf(input)), { iterations: ITERATIONS }),
    'gzip arrow': await time(() => gzipSync(arrow, { level: 1 }), { iterations: ITERATIONS }),
    'gzip arrow plot': await time(() => gzipSync(plot, { level: 1 }), { iterations: ITERATIONS }),
    'gzip json': await time(() => gzipSync(json, { level: 1 }), { iterations: ITERATIONS }),
  };
  for (const [name, r] of Object.entries(requests)) {
    report
      .add(
        `explorer-answer/api/${name}`,
        'latency',
        { value: r.wall.p50Ms * 1e6, upper_value: r.wall.p99Ms * 1e6 },
        `p50 ${r.wall.p50Ms.toFixed(0)} ms, min ${r.wall.minMs.toFixed(0)} ms, CPU p50 ${r.cpuMs.toFixed(0)} ms, ${(r.bytes / 1024).toFixed(0)} KiB decoded`,
      )
      .ratio(`explorer-answer/api/${name}`, 'the bare perf SQL', r.wall.p50Ms, sql.p50Ms);
  }
  report.add(
    'explorer-answer/bare-sql',
    'latency',
    sql.p50Ms * 1e6,
    `p50 ${sql.p50Ms.toFixed(0)} ms, min ${sql.minMs.toFixed(0)} ms (${points.toLocaleString('en-US')} points)`,
  );
  for (const [name, t] of Object.entries(shaping)) {
    report.add(
      `explorer-answer/${name.replaceAll(' ', '-')}`,
      'latency',
      t.p50Ms * 1e6,
      `p50 ${t.p50Ms.toFixed(1)} ms, min ${t.minMs.toFixed(1)} ms`,
    );
  }
  for (const [name, body] of Object.entries({ arrow, 'arrow plot': plot, json })) {
    const zipped = gzipSync(body, { level: 1 }).byteLength;
    report.add(
      `explorer-answer/bytes/${name.replaceAll(' ', '-')}`,
      'file-size',
      zipped,
      `${(zipped / 1024).toFixed(0)} KiB gzipped (level 1), ${(body.byteLength / 1024).toFixed(0)} KiB as shaped`,
    );
  }
  report.print();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
