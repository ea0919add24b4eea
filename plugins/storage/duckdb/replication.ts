import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ChangeFile, ChangeSet, Replication, ReplicaState, TableState } from '../../../kit/index.js';
import { SCRATCH_TABLES } from './compaction.js';
import type { Database } from './database.js';
import { snapshotTo } from './snapshot.js';
import { ident } from '../shared/sql.js';
import { inTransaction } from './sql.js';

/**
 * Tables whose rows are only ever inserted and deleted, never updated (compaction.ts): their old rows are counted,
 * not hashed, every sync. Deleted rows show as fewer rows up to the id shipped last, and start a new generation
 * (shipping the whole table again would be as large as a snapshot).
 */
const APPEND_ONLY = new Set(['metric']);

/**
 * Replication of a DuckDB file by incremental snapshots (DuckDB has no commit hook and its WAL is private): a
 * change set read from one snapshot holds, for a table with an integer id whose rows up to the id shipped last are
 * unchanged (count and sum of row hashes), the rows after it; for any other changed table, the whole table.
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
    return await inTransaction(connection, () => fn(connection));
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
  const idTables = await idTablesOf(connection);
  const now = await scan(connection, names, since, idTables);
  const files: ChangeFile[] = [];
  const tables: Record<string, TableState> = {};
  for (const table of names) {
    const before = since.tables[table] as TableState;
    const { old, fresh } = now.get(table) as Scan;
    const oldSame = old.rows === before.rows && (old.hash === null || old.hash === before.hash);
    const file = `${table}.parquet`;
    if (oldSame && fresh.rows === '0') {
      tables[table] = before;
    } else if (oldSame && idTables.has(table)) {
      const through = before.max_id ?? null;
      const where = through === null ? 'true' : `id > ${BigInt(through)}`;
      await copyTo(
        connection,
        `SELECT * FROM ${ident(table)} WHERE ${where} ORDER BY id`,
        join(directory, file),
      );
      files.push({ table, mode: 'append', file });
      tables[table] = {
        rows: String(BigInt(before.rows) + BigInt(fresh.rows)),
        hash: String(BigInt(before.hash) + BigInt(fresh.hash ?? '0')),
        max_id: fresh.max_id ?? null,
      };
    } else if (APPEND_ONLY.has(table)) {
      return 'snapshot';
    } else {
      await copyTo(connection, `SELECT * FROM ${ident(table)}`, join(directory, file));
      files.push({ table, mode: 'replace', file });
      tables[table] = whole(now.get(table) as Scan, idTables.has(table));
    }
  }
  const sequences = await sequencesOf(connection);
  return { files, state: { tables, sequences } };
}

interface Part {
  readonly rows: string;
  /** null where not computed (the old rows of an append-only table: counting them is enough). */
  readonly hash: string | null;
  readonly max_id?: string | null;
}
interface Scan {
  readonly old: Part;
  readonly fresh: Part;
}

/**
 * One query over every table: for a table with an integer id, the rows up to the id shipped last ("old") and
 * those after it ("fresh"); for any other table, all rows as "old". Rows are summarized by count and hash sum.
 */
async function scan(
  connection: DuckDBConnection,
  names: readonly string[],
  since: ReplicaState,
  idTables: ReadonlySet<string>,
): Promise<Map<string, Scan>> {
  const selects = names.map((table) => {
    const name = literal(table);
    if (!idTables.has(table))
      return `SELECT ${name}, count(*)::VARCHAR, coalesce(sum(hash(t)), 0)::VARCHAR, '0', '0', NULL FROM ${ident(table)} t`;
    const through = since.tables[table]?.max_id ?? null;
    const old = through === null ? 'false' : `id <= ${BigInt(through)}`;
    const fresh = through === null ? 'true' : `id > ${BigInt(through)}`;
    const oldHash = APPEND_ONLY.has(table)
      ? 'NULL'
      : `coalesce(sum(hash(t)) FILTER (WHERE ${old}), 0)::VARCHAR`;
    if (APPEND_ONLY.has(table))
      return `SELECT ${name}, (SELECT count(*) FROM ${ident(table)} WHERE ${old})::VARCHAR, ${oldHash},
                count(*)::VARCHAR, coalesce(sum(hash(t)), 0)::VARCHAR, max(id)::VARCHAR
              FROM ${ident(table)} t WHERE ${fresh}`;
    return `SELECT ${name}, (count(*) FILTER (WHERE ${old}))::VARCHAR, ${oldHash},
              (count(*) FILTER (WHERE ${fresh}))::VARCHAR,
              coalesce(sum(hash(t)) FILTER (WHERE ${fresh}), 0)::VARCHAR, max(id)::VARCHAR
            FROM ${ident(table)} t`;
  });
  const rows = await rowsOf(connection, selects.join('\nUNION ALL\n'));
  return new Map(
    rows.map((row) => {
      const [table, oldRows, oldHash, freshRows, freshHash, maxId] = row as (string | null)[];
      return [
        table as string,
        {
          old: { rows: oldRows as string, hash: oldHash ?? null },
          fresh: { rows: freshRows as string, hash: freshHash ?? null, max_id: maxId ?? null },
        },
      ];
    }),
  );
}

/** The state of the database the connection's transaction sees (the default database of the connection). */
async function stateOf(connection: DuckDBConnection): Promise<ReplicaState> {
  const idTables = await idTablesOf(connection);
  const names = await tablesOf(connection);
  // nothing shipped yet: every row of a table with an id is fresh, and hashed
  const now = await scan(connection, names, { tables: {}, sequences: {} }, idTables);
  const tables = names.map((table) => [table, whole(now.get(table) as Scan, idTables.has(table))]);
  return { tables: Object.fromEntries(tables), sequences: await sequencesOf(connection) };
}

/** A table's state from its scan, old and fresh rows together (the old ones hashed: not append-only). */
function whole({ old, fresh }: Scan, withId: boolean): TableState {
  const rows = String(BigInt(old.rows) + BigInt(fresh.rows));
  const hash = String(BigInt(old.hash ?? '0') + BigInt(fresh.hash ?? '0'));
  return withId ? { rows, hash, max_id: fresh.max_id ?? null } : { rows, hash };
}

/** Tables with an integer id: their new rows are the rows past the highest id shipped. */
async function idTablesOf(connection: DuckDBConnection): Promise<Set<string>> {
  const rows = await rowsOf(
    connection,
    `SELECT table_name FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND column_name = 'id'
       AND data_type IN ('INTEGER', 'BIGINT')`,
  );
  return new Set(rows.map((row) => String(row[0])));
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

/**
 * Sequences at least at the values of `state` (restored rows keep their ids; new rows must not reuse them).
 * `last_value` of a sequence that has handed out nothing since it was created or opened is the value it will
 * hand out next, so advancing by the difference could end one short: it advances by one more.
 */
async function advanceSequences(connection: DuckDBConnection, state: ReplicaState): Promise<void> {
  const current = await sequencesOf(connection);
  for (const [name, value] of Object.entries(state.sequences)) {
    const behind = BigInt(value) - BigInt(current[name] ?? '0');
    if (behind > 0n) await connection.run(`SELECT nextval(${literal(name)}) FROM range(${behind + 1n})`);
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
