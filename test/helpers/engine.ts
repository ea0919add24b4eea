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

async function psql(url: string, query: string): Promise<string> {
  const { stdout } = await run(join(postgresBin(), 'psql'), [url, '-XAtqc', query], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  return stdout;
}

function provided(): { url: string; template: string } {
  const found = cluster();
  if (!found) throw new Error('no PostgreSQL cluster: this runs in the integration-postgres project only');
  return found;
}

function databaseUrl(name: string): string {
  const url = new URL(provided().url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The run's cluster, for tests of the PostgreSQL engine itself: empty databases, and SQL through psql. */
export const postgresCluster = {
  /** A new empty database named `<prefix>_<random>` (unique in the run's cluster); `drop` removes it. */
  async createDatabase(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
    const { url } = provided();
    const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
    await psql(url, `CREATE DATABASE ${name}`);
    return {
      name,
      url: databaseUrl(name),
      drop: async () => void (await psql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
    };
  },
  /** Runs SQL in a database of the cluster (default `postgres`); answers psql's unaligned output. */
  sql: (query: string, database = 'postgres'): Promise<string> => psql(databaseUrl(database), query),
};

/** A new database copied from the project's migrated template; `drop` removes it (closing any session left). */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { url, template } = provided();
  const name = `bt_${randomUUID().replaceAll('-', '')}`;
  await psql(url, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: databaseUrl(name),
    drop: async () => void (await psql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
