/**
 * Where a report's time goes on PostgreSQL, by hand, not part of `npm run bench`:
 *   node --import tsx bench/pg-ingest-anatomy.ts            (add BENCH_PG_PREDICATE=1 for the last figure)
 * In a throwaway cluster with the ingest bench's data (1,000,000 metrics), one API process: the latency of 10
 * reports in a row, the server time of their statements (log_min_duration_statement), the statements per report
 * (log_statement), then 6 clients x 20 reports on one branch and on a branch each, with the errors PostgreSQL
 * logged by statement (each one a transaction the plugin ran again). BENCH_PG_PREDICATE=1 runs the branch-each
 * load once more with max_pred_locks_per_relation raised, so serializable reads are never promoted to a lock on a
 * whole table.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../test/helpers/postgres.js';
import { startApi } from './lib/api-process.js';
import { seedIngestPostgres } from './lib/postgres-bare.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const results = () =>
  JSON.stringify(
    Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [
        `bench::case_${i}`,
        {
          latency: { value: 1000 + i + Math.random() * 20 },
          throughput: { value: 5000 - i + Math.random() * 50 },
        },
      ]),
    ),
  );
const thresholds = {
  models: {
    latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 },
    throughput: { test: 't_test', lower_boundary: 0.99, max_sample_size: 64 },
  },
};
async function post(url: string, lane?: number) {
  const now = new Date().toISOString();
  const r = await fetch(`${url}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      project: 'ingest',
      branch: lane === undefined ? 'main' : `lane-${lane}`,
      testbed: lane === undefined ? 'ci' : `ci-${lane}`,
      start_time: now,
      end_time: now,
      results: [results()],
      settings: { adapter: 'json' },
      thresholds,
    }),
  });
  await r.arrayBuffer();
  return r.status;
}

const pg = await startPostgres();
const log = join(pg.dataDir, '..', 'log');
const since = () => statSync(log).size;
const read = (from: number) => readFileSync(log, 'utf8').slice(from);
try {
  const url = await pg.createDatabase('diag');
  await pg.sql(`ALTER SYSTEM SET log_line_prefix = '%m [%p] %a '`);
  await pg.sql('SELECT pg_reload_conf()');
  let api = await startApi(root, { url });
  await post(api.url);
  await seedIngestPostgres(url, 5000);
  for (let c = 0; c < 6; c++) await post(api.url, c);
  for (let i = 0; i < 3; i++) await post(api.url);
  await pg.sql(`ALTER SYSTEM SET log_statement = 'all'`);
  await pg.sql('SELECT pg_reload_conf()');
  await new Promise((d) => setTimeout(d, 500));
  const seq: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await post(api.url);
    seq.push(performance.now() - t0);
  }
  process.stdout.write(
    `sequential report latency (before logging): ${seq.map((x) => x.toFixed(0)).join(' ')} ms\n`,
  );
  await pg.sql(`ALTER SYSTEM SET log_min_duration_statement = 0`);
  await pg.sql('SELECT pg_reload_conf()');
  await new Promise((d) => setTimeout(d, 500));
  let from = since();
  for (let i = 0; i < 10; i++) await post(api.url);
  const durations = read(from)
    .split('\n')
    .flatMap((l) => {
      const m = / duration: ([\d.]+) ms\s+(?:statement|execute [^:]*|bind [^:]*|parse [^:]*): (.*)$/.exec(l);
      return m ? [[Number(m[1]), m[2]!.slice(0, 70)] as const] : [];
    });
  const byText = new Map<string, number>();
  for (const [ms, text] of durations) byText.set(text, (byText.get(text) ?? 0) + ms);
  process.stdout.write(
    `server time per report: ${(durations.reduce((a, [ms]) => a + ms, 0) / 10).toFixed(1)} ms in ${durations.length / 10} logged steps\n`,
  );
  for (const [k, ms] of [...byText].sort((a, b) => b[1] - a[1]).slice(0, 8))
    process.stdout.write(`  ${(ms / 10).toFixed(2)} ms  ${k}\n`);
  await pg.sql(`ALTER SYSTEM SET log_min_duration_statement = -1`);
  await pg.sql('SELECT pg_reload_conf()');
  from = since();
  for (let i = 0; i < 10; i++) await post(api.url);
  const lines = read(from)
    .split('\n')
    .filter((l) => / benchtrack (LOG|DETAIL):\s+(statement|execute)/.test(l) && / LOG: /.test(l));
  const kinds = new Map<string, number>();
  for (const l of lines) {
    const text = l.replace(/^.*?(statement|execute [^:]*): /, '').slice(0, 90);
    kinds.set(text, (kinds.get(text) ?? 0) + 1);
  }
  process.stdout.write(`statements per report (1 client, one branch): ${lines.length / 10}\n`);
  for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${n / 10}  ${k}\n`);
  await pg.sql(`ALTER SYSTEM SET log_statement = 'none'`);
  await pg.sql('SELECT pg_reload_conf()');

  const shape = async (label: string, lanes: boolean) => {
    const from = since();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 6 }, async (_, c) => {
        for (let i = 0; i < 20; i++) await post(api.url, lanes ? c : undefined);
      }),
    );
    const s = (performance.now() - t0) / 1000;
    const text = read(from);
    const errors = text.split('\n').filter((l) => / ERROR: /.test(l));
    const details = new Map<string, number>();
    const all = text.split('\n');
    for (let i = 0; i < all.length; i++) {
      if (!/ ERROR: /.test(all[i]!)) continue;
      const detail = / DETAIL: /.test(all[i + 1] ?? '') ? all[i + 1]!.replace(/^.*DETAIL:\s+/, '') : '';
      const statement = all.slice(i + 1, i + 4).find((l) => / STATEMENT: /.test(l)) ?? '';
      const key = `${all[i]!.replace(/^.*ERROR:\s+/, '').slice(0, 60)} | ${detail.slice(0, 60)} | ${statement.replace(/^.*STATEMENT:\s+/, '').slice(0, 50)}`;
      details.set(key, (details.get(key) ?? 0) + 1);
    }
    process.stdout.write(`${label}: ${((120 * 200) / s).toFixed(0)} metrics/s, ${errors.length} errors\n`);
    for (const [k, n] of [...details].sort((a, b) => b[1] - a[1]).slice(0, 12))
      process.stdout.write(`  ${n}  ${k}\n`);
  };
  await shape('one branch, 1 process', false);
  await shape('a branch each, 1 process', true);
  if (process.env.BENCH_PG_PREDICATE) {
    await pg.sql(`ALTER SYSTEM SET max_pred_locks_per_relation = 1000000`);
    await pg.sql('SELECT pg_reload_conf()');
    await api.stop();
    api = await startApi(root, { url });
    await shape('a branch each, 1 process, no promotion to relation locks', true);
  }
  await api.stop();
} finally {
  await pg.stop();
}
