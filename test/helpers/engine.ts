import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
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

let adminConnection: postgres.Sql | undefined;

/**
 * CREATE and DROP DATABASE over one connection to the cluster per test process, instead of a psql process each
 * (0.1-0.4 s a spawn on the loaded 2-core machine; two per test app or storage test). It closes itself when idle,
 * so it never holds a test process open.
 */
async function admin(query: string): Promise<void> {
  adminConnection ??= postgres(provided().url, { max: 1, idle_timeout: 2, onnotice: () => undefined });
  await adminConnection.unsafe(query);
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

interface Database {
  readonly name: string;
  readonly url: string;
  /** Removes the database (a copy of the template is emptied and kept for the next test instead). */
  drop(): Promise<void>;
}

/** A new database named `<prefix>_<random>` (unique in the run's cluster), empty or a copy of `template`. */
async function createDatabase(prefix: string, template?: string): Promise<Database> {
  const name = uniqueName(prefix);
  await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}

const uniqueName = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;
/** Closes every session left in the database first, as DROP DATABASE ... WITH (FORCE) does. */
const dropDatabase = (name: string) => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/**
 * Copies of the template that tests gave back, emptied, for the next test of this process. CREATE DATABASE was
 * the cost of a PostgreSQL test: 220-430 ms of the server's CPU a copy, 1.1-1.3 s of wall time at load 15 on the
 * shared 2-core machine (94 of the storage contract's 129 s), where giving a used copy back (end its sessions,
 * check its schema, empty it, rename it) took 150 ms at load 20.
 */
const spare: Database[] = [];

/**
 * Empties a copy of the template back to what the template holds: every row of every table goes except the
 * record of the migrations (checked to be the template's only rows), and every sequence starts again (setval in
 * place: ALTER SEQUENCE ... RESTART writes a new file for each). Foreign keys are not checked meanwhile
 * (session_replication_role), since every table ends empty.
 */
const EMPTY = `DO $$ DECLARE r record; BEGIN
  PERFORM set_config('session_replication_role', 'replica', true);
  FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migration' LOOP
    EXECUTE format('DELETE FROM %I', r.tablename);
  END LOOP;
  PERFORM setval(format('%I', sequencename)::regclass, start_value, false) FROM pg_sequences
    WHERE schemaname = 'public';
END $$`;

/** The schema of the public namespace (relations with their columns, constraints, triggers, functions), hashed. */
const SCHEMA = `SELECT md5(string_agg(item, ',' ORDER BY item)) AS schema FROM (
  SELECT c.relname || ':' || c.relkind::text || ':' || coalesce(string_agg(a.attname || ' ' ||
    format_type(a.atttypid, a.atttypmod), ',' ORDER BY a.attnum), '') AS item
  FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  WHERE c.relnamespace = 'public'::regnamespace GROUP BY c.relname, c.relkind
  UNION ALL SELECT conname || ':' || pg_get_constraintdef(oid) FROM pg_constraint
    WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace) items`;

/** The rows of every table but the migrations' record. */
const ROWS = `SELECT coalesce(sum((xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I', tablename),
  false, true, '')))[1]::text::bigint), 0)::int AS rows FROM pg_tables
  WHERE schemaname = 'public' AND tablename <> 'schema_migration'`;

/** The template's schema, read from this process's first copy of it (which no test has touched yet). */
let templateSchema: Promise<string> | undefined;

function connect(database: Database) {
  return postgres(database.url, { max: 1, onnotice: () => undefined });
}

async function schemaOf(database: Database): Promise<string> {
  const sql = connect(database);
  try {
    const [{ rows }] = (await sql.unsafe(ROWS)) as [{ rows: number }];
    if (rows !== 0)
      throw new Error(
        `the migrated template holds ${rows} rows besides schema_migration: emptying a used copy (test/helpers/engine.ts) would delete them; restore them there`,
      );
    return ((await sql.unsafe(SCHEMA)) as [{ schema: string }])[0].schema;
  } finally {
    await sql.end();
  }
}

/** A copy of the template: a spare one when there is one, else a new one. `drop` gives it back. */
async function templateCopy(prefix: string): Promise<Database> {
  const reused = spare.pop();
  if (reused) return reused;
  const created = await createDatabase(prefix, provided().template);
  templateSchema ??= schemaOf(created);
  await templateSchema;
  return { ...created, drop: () => giveBack(created.name) };
}

/**
 * Ends every session left in a used copy, empties it, and keeps it under a new name (a pool a test forgot to
 * close cannot reconnect to it). A copy whose schema a test changed is dropped instead.
 */
async function giveBack(name: string): Promise<void> {
  const used: Database = { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
  try {
    await admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
    );
    const sql = connect(used);
    try {
      const [{ schema }] = (await sql.unsafe(SCHEMA)) as [{ schema: string }];
      if (schema !== (await templateSchema)) return await used.drop();
      await sql.unsafe(EMPTY);
    } finally {
      await sql.end();
    }
    const next = uniqueName('spare');
    await admin(`ALTER DATABASE ${name} RENAME TO ${next}`);
    spare.push({ name: next, url: databaseUrl(next), drop: () => giveBack(next) });
  } catch {
    await used.drop();
  }
}

/** The run's cluster, for tests of the PostgreSQL engine itself: new databases, and SQL through psql. */
export const postgresCluster = {
  /** A new empty database named `<prefix>_<random>` (unique in the run's cluster); `drop` removes it. */
  createDatabase: (prefix: string): Promise<Database> => createDatabase(prefix),
  /**
   * A database that holds the project's migrated template and nothing else: a new copy, or one a test of this
   * process gave back, emptied (its name then starts with `spare_`). `drop` gives it back.
   */
  migratedDatabase: templateCopy,
  /** Runs SQL in a database of the cluster (default `postgres`); answers psql's unaligned output. */
  sql: (query: string, database = 'postgres'): Promise<string> => psql(databaseUrl(database), query),
};

/** A database holding the project's migrated template and nothing else; `drop` gives it back. */
export function freshPostgresDatabase(): Promise<Database> {
  return templateCopy('bt');
}
