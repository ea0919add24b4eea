import { defineConfig } from 'vitest/config';

// Projects by speed (`npm run test:unit|test:integration|test:e2e`; `npm test` runs them all): unit tests beside
// the code and the plugin contract suites, integration tests that drive the real fastify app over a real database
// (once on the embedded DuckDB, once more on PostgreSQL: one throwaway cluster for the run, a database per test
// app), and end-to-end tests that spawn the built programs (dist/, compiled once by a global setup) and drive
// Chromium.
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
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/{integration,security}/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration-postgres',
          include: ['test/{integration,security}/**/*.test.ts'],
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/{cli,browser,examples,scale}/**/*.test.ts'],
          globalSetup: ['test/helpers/build-dist.ts'],
        },
      },
    ],
  },
});
