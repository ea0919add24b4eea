import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { postgresBin } from './postgres.js';

const run = promisify(execFile);

/** The cluster of the integration-postgres project; none outside vitest (a bench that borrows a test helper). */
const cluster = () => (process.env.VITEST ? inject('postgres') : undefined);

/**
 * True in the integration-postgres project (test/helpers/postgres-setup.ts): every test app then runs on a
 * PostgreSQL database of its own. Tests about the embedded DuckDB file itself skip there, saying why.
 */
export const onPostgres = cluster() !== undefined;

async function psql(url: string, query: string): Promise<void> {
  await run(join(postgresBin(), 'psql'), [url, '-XAtqc', query], { env: { PATH: process.env.PATH } });
}

/** A new database copied from the project's migrated template; `drop` removes it (closing any session left). */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const provided = cluster();
  if (!provided) throw new Error('no PostgreSQL cluster: this runs in the integration-postgres project only');
  const name = `bt_${randomUUID().replaceAll('-', '')}`;
  await psql(provided.url, `CREATE DATABASE ${name} TEMPLATE ${provided.template}`);
  const url = new URL(provided.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => psql(provided.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
