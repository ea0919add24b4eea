import type { Logger } from '../../../kit/index.js';
import { Database, type DatabaseOptions } from './database.js';
import type { Connection } from './sql.js';

/** A WAL position ('16/B374D848') as a number, so positions compare. */
export function lsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Past every real WAL position: no replica has replayed it. */
const UNKNOWN = 2n ** 64n;

interface Replica {
  readonly database: Database;
  /** The newest WAL position the replica was seen to have replayed. */
  replayed: bigint;
}

/**
 * Reads spread over streaming read replicas, with read-your-writes: a read goes to a replica only once it has
 * replayed the primary's WAL position noted after this process's last write; otherwise to the primary.
 */
export async function replicaReads(primary: Database, options: DatabaseOptions, logger: Logger) {
  const replicas: Replica[] = [];
  const close = () => Promise.all(replicas.map((replica) => replica.database.close()));
  try {
    for (const [i, url] of options.replicas.entries()) {
      const database = await Database.open({ ...options, url }, logger, `database.replicas[${i}]`);
      replicas.push({ database, replayed: 0n });
    }
  } catch (error) {
    await close();
    throw error;
  }
  let lastWrite = 0n;
  let next = 0;

  /** The next replica in turn that has replayed this process's writes, or the primary. */
  const pick = async (): Promise<Database> => {
    if (replicas.length === 0) return primary;
    const replica = replicas[next++ % replicas.length] as Replica;
    if (replica.replayed >= lastWrite) return replica.database;
    try {
      const [row] = await replica.database.run((sql) =>
        sql.unsafe<{ at: string | null }[]>('SELECT pg_last_wal_replay_lsn()::text AS at'),
      );
      replica.replayed = lsn(row?.at ?? '0/0');
    } catch (error) {
      logger.warn(
        { err: error, database: replica.database.where },
        'read replica unreachable: reading from the primary',
      );
      return primary;
    }
    return replica.replayed >= lastWrite ? replica.database : primary;
  };

  return {
    /**
     * Notes the primary's WAL insert position after a committed write (past the commit record even with
     * synchronous_commit off). Never throws: an unknown position keeps reads on the primary.
     */
    async written(): Promise<void> {
      if (replicas.length === 0) return;
      let at = UNKNOWN;
      try {
        const [row] = await primary.run((sql) =>
          sql.unsafe<{ at: string }[]>('SELECT pg_current_wal_insert_lsn()::text AS at'),
        );
        at = lsn(row?.at ?? '0/0');
      } catch {
        // the write committed; the position is unknown, so no replica is known to have it
      }
      if (at > lastWrite || lastWrite === UNKNOWN) lastWrite = at;
    },
    read: <T>(fn: (connection: Connection) => Promise<T>): Promise<T> =>
      pick().then((database) => database.read(fn)),
    close,
  };
}
