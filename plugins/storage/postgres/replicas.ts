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
export class ReplicaReads {
  #written = 0n;
  #next = 0;

  private constructor(
    private readonly primary: Database,
    private readonly replicas: readonly Replica[],
    private readonly logger: Logger,
  ) {}

  static async open(primary: Database, options: DatabaseOptions, logger: Logger): Promise<ReplicaReads> {
    const replicas: Replica[] = [];
    try {
      for (const [i, url] of options.replicas.entries()) {
        const database = await Database.open({ ...options, url }, logger, `database.replicas[${i}]`);
        replicas.push({ database, replayed: 0n });
      }
    } catch (error) {
      await Promise.all(replicas.map((replica) => replica.database.close()));
      throw error;
    }
    return new ReplicaReads(primary, replicas, logger);
  }

  /**
   * Notes the primary's WAL insert position after a committed write (past the commit record even with
   * synchronous_commit off). Never throws: an unknown position keeps reads on the primary.
   */
  async written(): Promise<void> {
    if (this.replicas.length === 0) return;
    let at = UNKNOWN;
    try {
      const [row] = await this.primary.run((sql) =>
        sql.unsafe<{ at: string }[]>('SELECT pg_current_wal_insert_lsn()::text AS at'),
      );
      at = lsn(row?.at ?? '0/0');
    } catch {
      // the write committed; the position is unknown, so no replica is known to have it
    }
    if (at > this.#written || this.#written === UNKNOWN) this.#written = at;
  }

  read<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    return this.#pick().then((database) => database.read(fn));
  }

  close(): Promise<unknown> {
    return Promise.all(this.replicas.map((replica) => replica.database.close()));
  }

  /** The next replica in turn that has replayed this process's writes, or the primary. */
  async #pick(): Promise<Database> {
    if (this.replicas.length === 0) return this.primary;
    const replica = this.replicas[this.#next++ % this.replicas.length] as Replica;
    if (replica.replayed >= this.#written) return replica.database;
    try {
      const [row] = await replica.database.run((sql) =>
        sql.unsafe<{ at: string | null }[]>('SELECT pg_last_wal_replay_lsn()::text AS at'),
      );
      replica.replayed = lsn(row?.at ?? '0/0');
    } catch (error) {
      this.logger.warn(
        { err: error, database: replica.database.where },
        'read replica unreachable: reading from the primary',
      );
      return this.primary;
    }
    return replica.replayed >= this.#written ? replica.database : this.primary;
  }
}
