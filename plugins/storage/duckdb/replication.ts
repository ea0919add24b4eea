import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ChangeFile, ChangeSet, Replication, ReplicaState, TableState } from '../../../kit/index.js';
import { SCRATCH_TABLES } from './compaction.js';
import type { Database } from './database.js';
import { snapshotTo } from './snapshot.js';
import { ident } from './sql.js';

/**
 * Tables whose rows are only ever inserted and deleted, never updated, with ids that only grow: a change ships
 * the rows past the last id shipped. Deleted rows show as fewer rows up to that id, and start a new chain.
 */
const APPEND_ONLY = new Set(['metric']);

/**
 * Replication of a DuckDB file by incremental snapshots. DuckDB has no hook on committed transactions and its
 * WAL is private to the file it belongs to, so a change set is read from one MVCC snapshot: the new rows of the
 * append-only tables and the whole of every other table whose row count or sum of row hashes changed, each as a
 * Parquet file. Writers never wait for it.
 */
export function duckdbReplication(database: Database): Replication {
  return {
    commits: () => database.commits,
    snapshot: (file) => snapshotTo(database, file, (connection) => stateOf(connection)),
    changes: (since, directory) =>
      onSnapshot(database, (connection) => changes(connection, since, directory)),
    apply: (directory, change) =>
      database.write(async (connection) => {
        for (const { table, mode, file } of change.files) {
          if (mode === 'replace') await connection.run(`DELETE FROM ${ident(table)}`);
          await connection.run(
            `INSERT INTO ${ident(table)} BY NAME SELECT * FROM read_parquet(${literal(join(directory, file))})`,
          );
        }
        await advanceSequences(connection, change.state);
      }),
    state: () => onSnapshot(database, stateOf),
  };
}

async function onSnapshot<T>(
  database: Database,
  fn: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const connection = await database.connect();
  try {
    await connection.run('BEGIN TRANSACTION');
    try {
      return await fn(connection);
    } finally {
      await connection.run('COMMIT');
    }
  } finally {
    database.disconnect(connection);
  }
}

async function changes(
  connection: DuckDBConnection,
  since: ReplicaState,
  directory: string,
): Promise<ChangeSet | 'snapshot'> {
  const names = await tablesOf(connection);
  const known = Object.keys(since.tables);
  if (names.length !== known.length || names.some((name) => !(name in since.tables))) return 'snapshot';
  const files: ChangeFile[] = [];
  const tables: Record<string, TableState> = {};
  for (const table of names) {
    const before = since.tables[table] as TableState;
    let after: TableState | 'snapshot';
    if (APPEND_ONLY.has(table)) after = await appended(connection, table, before, directory, files);
    else after = await replaced(connection, table, before, directory, files);
    if (after === 'snapshot') return 'snapshot';
    tables[table] = after;
  }
  const sequences = await sequencesOf(connection);
  return { files, state: { tables, sequences } };
}

async function appended(
  connection: DuckDBConnection,
  table: string,
  before: TableState,
  directory: string,
  files: ChangeFile[],
): Promise<TableState | 'snapshot'> {
  const through = before.max_id ?? null;
  const old = through === null ? 'false' : `id <= ${BigInt(through)}`;
  const [kept] = await rowsOf(connection, `SELECT count(*)::VARCHAR FROM ${ident(table)} WHERE ${old}`);
  if (kept?.[0] !== before.rows) return 'snapshot';
  const fresh = through === null ? 'true' : `id > ${BigInt(through)}`;
  const added = await fingerprint(connection, table, fresh);
  if (added.rows === '0') return before;
  const file = `${table}.parquet`;
  await copyTo(connection, `SELECT * FROM ${ident(table)} WHERE ${fresh} ORDER BY id`, join(directory, file));
  files.push({ table, mode: 'append', file });
  return {
    rows: String(BigInt(before.rows) + BigInt(added.rows)),
    hash: String(BigInt(before.hash) + BigInt(added.hash)),
    max_id: added.max_id ?? null,
  };
}

async function replaced(
  connection: DuckDBConnection,
  table: string,
  before: TableState,
  directory: string,
  files: ChangeFile[],
): Promise<TableState> {
  const now = await fingerprint(connection, table, 'true');
  if (now.rows === before.rows && now.hash === before.hash) return before;
  const file = `${table}.parquet`;
  await copyTo(connection, `SELECT * FROM ${ident(table)}`, join(directory, file));
  files.push({ table, mode: 'replace', file });
  return now;
}

/** The state of the database the connection's transaction sees (the default database of the connection). */
async function stateOf(connection: DuckDBConnection): Promise<ReplicaState> {
  const tables: Record<string, TableState> = {};
  for (const table of await tablesOf(connection))
    tables[table] = await fingerprint(connection, table, 'true');
  return { tables, sequences: await sequencesOf(connection) };
}

async function fingerprint(connection: DuckDBConnection, table: string, where: string): Promise<TableState> {
  const maxId = APPEND_ONLY.has(table) ? 'max(id)::VARCHAR' : 'NULL';
  const [row] = await rowsOf(
    connection,
    `SELECT count(*)::VARCHAR, coalesce(sum(hash(t)), 0)::VARCHAR, ${maxId} FROM ${ident(table)} t WHERE ${where}`,
  );
  const [rows, hash, max] = row as [string, string, string | null];
  return APPEND_ONLY.has(table) ? { rows, hash, max_id: max } : { rows, hash };
}

async function tablesOf(connection: DuckDBConnection): Promise<string[]> {
  const rows = await rowsOf(
    connection,
    `SELECT table_name FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary ORDER BY table_name`,
  );
  return rows.map((row) => String(row[0])).filter((name) => !SCRATCH_TABLES.includes(name));
}

async function sequencesOf(connection: DuckDBConnection): Promise<Record<string, string>> {
  const rows = await rowsOf(
    connection,
    `SELECT sequence_name, coalesce(last_value, 0)::VARCHAR FROM duckdb_sequences()
     WHERE database_name = current_database() AND schema_name = 'main' ORDER BY sequence_name`,
  );
  return Object.fromEntries(rows.map((row) => [String(row[0]), String(row[1])]));
}

/** Sequences at least at the values of `state` (restored rows keep their ids; new rows must not reuse them). */
async function advanceSequences(connection: DuckDBConnection, state: ReplicaState): Promise<void> {
  const current = await sequencesOf(connection);
  for (const [name, value] of Object.entries(state.sequences)) {
    const behind = BigInt(value) - BigInt(current[name] ?? '0');
    if (behind > 0n) await connection.run(`SELECT nextval(${literal(name)}) FROM range(${behind})`);
  }
}

async function copyTo(connection: DuckDBConnection, query: string, file: string): Promise<void> {
  await connection.run(`COPY (${query}) TO ${literal(file)} (FORMAT parquet, COMPRESSION zstd)`);
}

async function rowsOf(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRows();
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
