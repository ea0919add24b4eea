import { defineConfig } from 'vitest/config';

// Three projects by speed (`npm run test:unit|test:integration|test:e2e`; `npm test` runs all three, in that
// order): unit tests beside the code and the plugin contract suites, integration tests that drive the real fastify
// app over a real database, and end-to-end tests that spawn the built programs (dist/, compiled once by a global
// setup) and drive Chromium.
//
// Workers: two per project on two cores. Unit tests are CPU-bound and share modules across files (isolate: false:
// they stub no modules, globals or environment, and each file opens its own temporary files). Integration and
// end-to-end files mostly wait on servers, child processes, worker threads and Chromium (three at once timed out
// starting servers on the shared 2-core machine). Each project is its own group (`sequence.groupOrder`), so the
// fast projects finish first; a project added with the same group and worker count shares the workers of that group.
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
          name: 'e2e',
          include: ['test/{cli,browser,examples}/**/*.test.ts'],
          globalSetup: ['test/helpers/build-dist.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
