import { defineConfig } from 'vitest/config';

// Projects by speed (`npm run test:unit|test:integration|test:e2e`; `npm test` runs them all, in that order): unit
// tests beside the code and the plugin contract suites, integration tests that drive the real fastify app over a
// real database (once on the embedded DuckDB, once more on PostgreSQL: one throwaway cluster for the run, a
// database per test app), and end-to-end tests that spawn the built programs (dist/, compiled once by a global
// setup) and drive Chromium.
//
// Workers: two per project on two cores. Unit tests are CPU-bound and share modules across files (isolate: false:
// they stub no modules, globals or environment, and each file opens its own temporary files). Integration and
// end-to-end files mostly wait on servers, child processes, worker threads and Chromium (three at once timed out
// starting servers on the shared 2-core machine). Each group (`sequence.groupOrder`) runs after the one before, so
// the fast projects finish first; both integration projects are one group and share its two workers.
export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            '{core,kit,plugins,workers,cli,console}/**/*.test.ts',
            'test/{contract,adapters,models,workers}/**/*.test.ts',
          ],
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/{integration,security}/**/*.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-postgres',
          include: ['test/{integration,security}/**/*.test.ts'],
          globalSetup: ['test/helpers/postgres-setup.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/{cli,browser,examples,scale}/**/*.test.ts'],
          globalSetup: ['test/helpers/build-dist.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
