import type { LockKey, LocksWriter } from '../../../kit/index.js';
import { query, type Connection } from './sql.js';

/**
 * The first key of PostgreSQL's two-key advisory locks, by kind: the (int, int) key space is apart from the
 * single bigint key of the migration lock, and from any other application's locks only by convention.
 */
export const LOCK_KINDS: Readonly<Record<LockKey['kind'], number>> = {
  project: 16_001,
  branch: 16_002,
  version: 16_003,
  organization: 16_004,
  maintenance: 16_005,
};

/** Transaction-level advisory locks: released by COMMIT or ROLLBACK, never by hand. */
export function locksWriter(connection: Connection): LocksWriter {
  const keyParams = (key: LockKey) => ({ kind: LOCK_KINDS[key.kind], id: key.id });
  return {
    async hold(key, options) {
      const fn = options?.shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
      await query(connection, `SELECT ${fn}($kind::int, $id::int)`, keyParams(key));
    },
    async tryHold(key) {
      const [row] = await query<{ held: boolean }>(
        connection,
        'SELECT pg_try_advisory_xact_lock($kind::int, $id::int) AS held',
        keyParams(key),
      );
      return row?.held === true;
    },
  };
}
