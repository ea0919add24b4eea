import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  postgresBin,
  startKeptPostgres,
  startPostgres,
  type LocalPostgres,
} from '../../test/helpers/postgres.js';

export type EngineName = 'duckdb' | 'postgres';

const ENGINES: readonly EngineName[] = ['duckdb', 'postgres'];

/**
 * The engines a bench measures: `--engine duckdb,postgres` (any of them), or by default both when Debian's
 * PostgreSQL binaries are installed, DuckDB only (saying so on stderr) when they are not.
 */
export function selectedEngines(args: readonly string[] = process.argv.slice(2)): EngineName[] {
  const { values } = parseArgs({ args: [...args], options: { engine: { type: 'string' } }, strict: false });
  if (typeof values.engine === 'string') {
    const names = values.engine.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !ENGINES.includes(name as EngineName));
    if (unknown.length > 0 || names.length === 0)
      throw new Error(`--engine: unknown engine ${unknown.join(', ')}; give duckdb, postgres or both`);
    if (names.includes('postgres')) postgresBin(); // fails now, naming what to install
    return names as EngineName[];
  }
  try {
    postgresBin();
    return [...ENGINES];
  } catch (error) {
    process.stderr.write(`measuring DuckDB only: ${(error as Error).message}\n`);
    return ['duckdb'];
  }
}

/** A database of its own for one bench on one engine: a file in a temp directory, or a throwaway cluster's. */
export type BenchDatabase = (
  | { readonly engine: 'duckdb'; readonly file: string }
  | { readonly engine: 'postgres'; readonly url: string; readonly cluster: LocalPostgres }
) & {
  /** The configuration's `database` section that selects it. */
  readonly database: { readonly file: string } | { readonly url: string };
  remove(): Promise<void>;
};

/**
 * A throwaway database of `engine`, removed by `remove()`. With `keep` (PostgreSQL only), the cluster lives in that
 * directory and outlives the run: started again from it when it holds one, its database reused, `remove()` only
 * stopping the server.
 */
export async function benchDatabase(engine: EngineName, name: string, keep?: string): Promise<BenchDatabase> {
  if (engine === 'duckdb') {
    const dir = mkdtempSync(join(tmpdir(), `benchtrack-${name}-`));
    const file = join(dir, `${name}.db`);
    return {
      engine,
      file,
      database: { file },
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const cluster = keep ? await startKeptPostgres(keep) : await startPostgres();
  try {
    const exists = keep && (await cluster.sql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).trim();
    const url = exists ? cluster.url.replace(/\/postgres$/, `/${name}`) : await cluster.createDatabase(name);
    return { engine, url, cluster, database: { url }, remove: () => cluster.stop() };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** A benchmark's name on an engine: DuckDB's as they always were (their history goes on), others suffixed. */
export function onEngine(engine: EngineName, benchmark: string): string {
  return engine === 'duckdb' ? benchmark : `${benchmark} [${engine}]`;
}

/** The bare reference of an engine, as the figures name it. */
export function bareName(engine: EngineName): string {
  return engine === 'duckdb' ? 'bare DuckDB SQL' : 'bare PostgreSQL SQL (postgres driver)';
}
