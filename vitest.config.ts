import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.js';

// Projects by speed (`npm run test:unit|test:contract|test:integration|test:e2e`; `npm test` runs them all, in that
// order, each file once): unit tests beside the code (fast, in one process, no threads: under 30 s); the contract
// suites, heavy by design (every adapter on 50 MB and multi-megabyte lines, the DuckDB storage contract on real
// files, the history cache checked against the table on random ingests); integration tests that drive the real
// fastify app over a real database (once on the embedded DuckDB, once more on PostgreSQL: one throwaway cluster for
// the run, a database per test app; the PostgreSQL storage contract runs there too, on that cluster), and, once,
// the tests of real worker threads and of the console host's process; and end-to-end tests that spawn the built
// programs and drive Chromium. Every program a test spawns runs from dist/, compiled once a run by a global setup of
// the projects that spawn them.
//
// Projects do not isolate their files: a worker keeps the modules it loaded for the next file, instead of importing the
// app, fastify, DuckDB and the plugins again for every file (that import was 4 to 5 s a file, about a third of the
// integration projects' worker time). integration-postgres too: its files leave nothing on the run's cluster (two files
// at once held at most 12 connections and 12 databases through a whole run), and the slowdown once put down to sharing
// (permissions 9 -> 69 s) followed the machine's load and the file running beside it: 12 files at one load took 94 s
// shared and 172 s isolated, the whole project 343 s shared. No test file stubs modules or globals; the few that set an
// environment variable put it back.
// Unit and contract tests are CPU-bound: two workers. Integration and end-to-end files wait a good part of their time
// on servers, child processes, fsync, worker threads and Chromium: with two workers the cores stood idle 13% of the
// run, so those projects run three files at once: the cores are 95-98% busy and the run took 248-271 s here (287-308 s
// with two), so what shortens it now is less work, not more workers. Three were once too many, when servers started
// through tsx with 20 s to do it; they now start from dist/ in under a second, with 60 s allowed, and the slowest test
// takes a third of its 30 s with a CPU hog beside the run. Two groups (`sequence.groupOrder`), the second after the
// first, so the fast projects finish first: contract and unit, then integration, integration-postgres and e2e; projects
// of one group share its workers, each project's files together in this order, the longest first (test/sequencer.ts).
// e2e is in the second group so that its files fill the workers while the last integration files end, instead of
// starting after the slowest of them.
const CONTRACT = [
  'test/contract/**/*.test.ts',
  'plugins/storage/duckdb/duckdb.test.ts',
  'plugins/storage/duckdb/history-cache.test.ts',
];
// the PostgreSQL plugin's tests that need a server: the storage contract, and read replicas (two clusters of their own)
const POSTGRES_CONTRACT = [
  'plugins/storage/postgres/postgres.test.ts',
  'plugins/storage/postgres/replicas.test.ts',
];
// Files of test/security whose every test app names its own database file or cluster, or whose storage use is
// incidental to what they check (the plot worker's time limits and shutdown): their second run, on PostgreSQL, repeated
// the first (21.7 s of worker time in CI). They run in the integration project only. Every file of test/integration
// runs on both engines, and so do the security files with engine-specific paths (input-limits ingests a
// report of 51,200 metrics; server-config names the database URL in a refusal; names relies on each engine's unique
// names).
const ENGINE_INDEPENDENT = [
  'test/security/plot-worker.test.ts',
  'test/security/redaction.test.ts',
  'test/security/stalled-stores.test.ts',
  'test/security/foreign-database.test.ts',
  'test/security/malformed-http.test.ts',
];
const THREADS_AND_PROCESSES = [
  'test/workers/**/*.test.ts',
  'workers/pool.test.ts',
  'workers/shape-perf.test.ts',
  'console/host/host.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          include: CONTRACT,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            '{core,kit,plugins,workers,cli,console}/**/*.test.ts',
            'test/{adapters,models}/**/*.test.ts',
          ],
          exclude: [
            'node_modules/**',
            'dist/**',
            ...CONTRACT,
            ...POSTGRES_CONTRACT,
            ...THREADS_AND_PROCESSES,
          ],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/{integration,security}/**/*.test.ts', ...THREADS_AND_PROCESSES],
          globalSetup: ['test/helpers/build-dist.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-postgres',
          include: ['test/{integration,security}/**/*.test.ts', ...POSTGRES_CONTRACT],
          exclude: ['node_modules/**', 'dist/**', ...ENGINE_INDEPENDENT],
          globalSetup: ['test/helpers/postgres-setup.ts', 'test/helpers/build-dist.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/{cli,browser,examples,scale}/**/*.test.ts'],
          globalSetup: ['test/helpers/build-dist.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
