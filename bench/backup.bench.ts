/**
 * Backups and restore of a database of 1,000,000 metrics (1,000 benchmarks x 2 measures, 500
 * reports; BACKUP_REPORTS=5000 gives the 10,000,000): time and size of a backup, plain and
 * gzipped; the longest time a writer waited while a backup ran, against the same write loop with no backup; the
 * restore time. The reference is the other way considered, checkpoint-then-copy under the writer lock: its
 * writers wait at least for a copy of the file, measured here as a bare file copy.
 *
 * Run: npm run bench -- backup   (BACKUP_REPORTS=5000 npm run bench -- backup for 10 M metrics)
 *
 * Figures, 2026-11-23, 2 cores shared with five other sessions (load average 11-12), two runs:
 *   database 38.5 MB; a bare copy of it (the least checkpoint-then-copy would hold the writer) 46-54 ms
 *   longest write with no backup 124-292 ms (the load); during a backup 456-3,074 ms, during a gzipped one
 *   403-618 ms: no lock is held, the writes compete with the copy for the two cores
 *   backup 5.5-7.9 s, 34-47 MB; gzipped 8.5-9.1 s, 17.6-17.7 MB; restore from the gzipped one 1.0-3.4 s
 *   The first run's 3 s wait overlapped the background compaction of the freshly opened table; the bench
 *   now runs it to the end first (second run).
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fillHistory, seedRun } from './lib/seed-history.js';
import { Backups, createLogger, restoreDatabase, type Storage } from '../core/index.js';
import { duckdbStorage } from '../plugins/storage/duckdb/index.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const BENCHMARKS = 1_000;
const REPORTS = Number(process.env.BACKUP_REPORTS ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-backup-bench-'));
const file = join(dir, 'benchtrack.db');
const logger = createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } });

/** The project through the API, then the fact table with bare SQL (as bench/perf.bench.ts does). */
async function seed(): Promise<void> {
  const server = await startBenchServer(file);
  await seedRun(server.url, 'backup', Date.UTC(2025, 0, 1));
  await server.close();
  await fillHistory(file, {
    benchmarks: BENCHMARKS,
    reports: REPORTS,
    startMs: Date.UTC(2025, 0, 1),
    stepMs: 3_600_000,
    order: 'time',
  });
}

/** Small write transactions one after the other until `until` settles; the longest one, in ms. */
async function longestWrite(
  storage: Storage,
  until: Promise<unknown>,
): Promise<{ max: number; count: number }> {
  let done = false;
  void until.finally(() => (done = true));
  let max = 0;
  let count = 0;
  while (!done) {
    const started = performance.now();
    await storage.transaction((tx) => tx.meta.set('bench.backup', String(count)));
    max = Math.max(max, performance.now() - started);
    count++;
  }
  return { max, count };
}

const report = new BenchReport(`backup and restore, ${(BENCHMARKS * 2 * REPORTS).toLocaleString()} metrics`);
const seeded = performance.now();
await seed();
process.stderr.write(
  `seeded ${(BENCHMARKS * 2 * REPORTS).toLocaleString()} metrics in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`,
);
report.add('database', 'file-size', statSync(file).size, `${(statSync(file).size / 1e6).toFixed(1)} MB`);

const copyStarted = performance.now();
copyFileSync(file, join(dir, 'copy.db'));
const copyMs = performance.now() - copyStarted;
rmSync(join(dir, 'copy.db'));
report.add('checkpoint-then-copy (reference)', 'writer-wait-ms', copyMs, `${copyMs.toFixed(0)} ms at least`);

const storage = await duckdbStorage.open({ file }, { logger });
const backups = new Backups(storage, logger);
// the compaction an opened, unclustered table starts in the background would otherwise run during the figures
await storage.maintain?.();
const baseline = await longestWrite(storage, new Promise((resolve) => setTimeout(resolve, 2_000)));
report.add(
  'writes, no backup',
  'longest-ms',
  baseline.max,
  `${baseline.max.toFixed(1)} ms (${baseline.count} writes)`,
);

let restoreFrom = '';
for (const compress of [false, true]) {
  const label = compress ? 'backup, gzip' : 'backup';
  await new Promise((resolve) => setTimeout(resolve, 1_100)); // one backup name per second
  const running = backups.create(
    { compress, dataStore: false, remove: false },
    { databaseFile: file, dataStore: undefined },
  );
  const [made, writes] = await Promise.all([running, longestWrite(storage, running)]);
  report.add(label, 'time-ms', made.duration_ms, `${made.duration_ms} ms`);
  report.add(label, 'size', made.size, `${(made.size / 1e6).toFixed(1)} MB`);
  report.add(
    label,
    'longest-writer-wait-ms',
    writes.max,
    `${writes.max.toFixed(1)} ms (${writes.count} writes during it)`,
  );
  if (compress && made.file) restoreFrom = made.file;
}
await storage.close();

const target = join(dir, 'restored', 'benchtrack.db');
const restored = await restoreDatabase({
  source: restoreFrom,
  target,
  force: false,
  dataStore: undefined,
  open: (f) => duckdbStorage.open({ file: f }, { logger }),
});
report.add('restore from gzip', 'time-ms', restored.duration_ms, `${restored.duration_ms} ms`);
report.print();
rmSync(dir, { recursive: true, force: true });
