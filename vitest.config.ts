import { defineConfig } from 'vitest/config';

// Three projects by speed (`npm run test:unit|test:integration|test:e2e`; `npm test` runs all three, in that
// order): unit tests beside the code and the plugin contract suites, integration tests that drive the real fastify
// app over a real database, and end-to-end tests that spawn the built programs (dist/, compiled once by a global
// setup) and drive Chromium.
//
// Workers: unit tests are CPU-bound, so one per core, sharing modules across files (isolate: false: they stub no
// modules, globals or environment, and each file opens its own temporary files). Integration and end-to-end files
// spend most of their time waiting on servers, child processes, worker threads and Chromium, so three run at once
// on two cores. Projects with different worker counts need their own `sequence.groupOrder`; a project added with
// the same count and order as another shares its workers and runs alongside it.
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
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/{cli,browser,examples}/**/*.test.ts'],
          globalSetup: ['test/helpers/build-dist.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
