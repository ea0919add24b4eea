import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ChangeFile, ChangeSet, Replication, ReplicaState, TableState } from '../../../kit/index.js';
import { dataTables } from './compaction.js';
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
  const withIds = await dataTables(connection);
  const known = Object.keys(since.tables);
  if (withIds.size !== known.length || known.some((name) => !withIds.has(name))) return 'snapshot';
  const now = await scan(connection, withIds, since);
  const files: ChangeFile[] = [];
  const tables: Record<string, TableState> = {};
  for (const [table, withId] of withIds) {
    const before = since.tables[table] as TableState;
    const scanned = now.get(table) as Scan;
    const oldSame = scanned.old.rows === before.rows && (scanned.old.hash ?? before.hash) === before.hash;
    if (oldSame && scanned.fresh.rows === '0') {
      tables[table] = before;
      continue;
    }
    const append = oldSame && withId;
    if (!append && APPEND_ONLY.has(table)) return 'snapshot';
    const through = append ? (before.max_id ?? null) : null;
    const fresh = through === null ? '' : ` WHERE id > ${BigInt(through)}`;
    const query = `SELECT * FROM ${ident(table)}${fresh}${append ? ' ORDER BY id' : ''}`;
    const file = `${table}.parquet`;
    await connection.run(
      `COPY (${query}) TO ${literal(join(directory, file))} (FORMAT parquet, COMPRESSION zstd)`,
    );
    files.push({ table, mode: append ? 'append' : 'replace', file });
    tables[table] = whole(scanned, withId, append ? before.hash : undefined);
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
  withIds: ReadonlyMap<string, boolean>,
  since: ReplicaState,
): Promise<Map<string, Scan>> {
  const selects = [...withIds].map(([table, withId]) => {
    const through = since.tables[table]?.max_id ?? null;
    const old = !withId ? 'true' : through === null ? 'false' : `id <= ${BigInt(through)}`;
    const fresh = !withId ? 'false' : through === null ? 'true' : `id > ${BigInt(through)}`;
    const maxId = withId ? 'max(id)::VARCHAR' : 'NULL';
    if (APPEND_ONLY.has(table))
      return `SELECT ${literal(table)}, (SELECT count(*) FROM ${ident(table)} WHERE ${old})::VARCHAR, NULL,
                count(*)::VARCHAR, coalesce(sum(hash(t)), 0)::VARCHAR, ${maxId}
              FROM ${ident(table)} t WHERE ${fresh}`;
    const part = (where: string) =>
      `(count(*) FILTER (WHERE ${where}))::VARCHAR, coalesce(sum(hash(t)) FILTER (WHERE ${where}), 0)::VARCHAR`;
    return `SELECT ${literal(table)}, ${part(old)}, ${part(fresh)}, ${maxId} FROM ${ident(table)} t`;
  });
  const rows = (await connection.runAndReadAll(selects.join('\nUNION ALL\n'))).getRows();
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
  const withIds = await dataTables(connection);
  // nothing shipped yet: every row of a table with an id is fresh, and hashed
  const now = await scan(connection, withIds, { tables: {}, sequences: {} });
  const tables = [...withIds].map(([table, withId]) => [table, whole(now.get(table) as Scan, withId)]);
  return { tables: Object.fromEntries(tables), sequences: await sequencesOf(connection) };
}

/** A table's state from its scan, old and fresh rows together (`oldHash` where the scan did not hash the old). */
function whole({ old, fresh }: Scan, withId: boolean, oldHash = old.hash ?? '0'): TableState {
  const rows = String(BigInt(old.rows) + BigInt(fresh.rows));
  const hash = String(BigInt(oldHash) + BigInt(fresh.hash ?? '0'));
  return withId ? { rows, hash, max_id: fresh.max_id ?? null } : { rows, hash };
}

async function sequencesOf(connection: DuckDBConnection): Promise<Record<string, string>> {
  const reader = await connection.runAndReadAll(
    `SELECT sequence_name, coalesce(last_value, 0)::VARCHAR FROM duckdb_sequences()
     WHERE database_name = current_database() AND schema_name = 'main' ORDER BY sequence_name`,
  );
  return Object.fromEntries(reader.getRows().map((row) => [String(row[0]), String(row[1])]));
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

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
