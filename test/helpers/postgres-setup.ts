import type { TestProject } from 'vitest/node';
import { createLogger } from '../../core/index.js';
import { openDatabase } from '../../server/composition.js';
import { databaseAt } from '../../server/migrate.js';
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
 * database migrated by the PostgreSQL storage plugin; removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pg = await startPostgres();
  try {
    const logger = createLogger({ name: 'postgres-setup', log: { mode: 'stderr_terminal', level: 'warn' } });
    const storage = await openDatabase(databaseAt(await pg.createDatabase(TEMPLATE)), logger);
    await storage.close();
  } catch (error) {
    await pg.stop();
    throw error;
  }
  project.provide('postgres', { url: pg.url, template: TEMPLATE });
  return () => pg.stop();
}
