import type { TestProject } from 'vitest/node';
import { silentLogger } from '../../kit/testing/storage/harness.js';
import { postgresStorage } from '../../plugins/storage/postgres/index.js';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the integration-postgres project: the cluster every test app of the run gets a database in. */
    postgres?: { url: string; template: string };
  }
}

/** Migrated once; each test app's database is a copy of it (CREATE DATABASE ... TEMPLATE, about 20 ms). */
const TEMPLATE = 'benchtrack_template';

/**
 * Global setup of the integration-postgres project: ONE throwaway cluster for the whole run, with a template
 * database migrated by the PostgreSQL storage plugin; removed after the run. It imports the plugin alone, not the
 * composition root: every project's global setup runs before the first test of the run, and importing the whole
 * app here (in vitest's main process) held every test back by 3 s.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pg = await startPostgres();
  try {
    const storage = await postgresStorage.open(
      { url: await pg.createDatabase(TEMPLATE) },
      { logger: silentLogger() },
    );
    await storage.close();
  } catch (error) {
    await pg.stop();
    throw error;
  }
  project.provide('postgres', { url: pg.url, template: TEMPLATE });
  return () => pg.stop();
}
