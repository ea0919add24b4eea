import type { SharedCounters } from '../../../kit/index.js';
import type { Database } from './database.js';

/**
 * The table of the shared counters: UNLOGGED (ephemeral counts cost no WAL), created at open outside the
 * migrations (it holds no data; transfers leave it out).
 */
export const COUNTERS_TABLE = 'shared_counter';

/** Ended windows are deleted at most this often, by whichever process counts next. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counters shared by every API process: one row per key, one upsert outside the SERIALIZABLE transactions (at
 * READ COMMITTED, hits of one key queue on its row lock: exact counts, no conflicts).
 */
export async function postgresCounters(database: Database): Promise<SharedCounters> {
  await database.run(async (sql) => {
    try {
      await sql.unsafe(
        `CREATE UNLOGGED TABLE IF NOT EXISTS ${COUNTERS_TABLE} (
          key TEXT PRIMARY KEY, start TIMESTAMPTZ NOT NULL, count INTEGER NOT NULL)`,
      );
    } catch (error) {
      // two processes opening at once: the other created it (its row type or relation "already exists", or
      // pg_type's unique index)
      if (!['42710', '42P07', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
  });
  let swept = 0;
  return {
    async hit(key, now, windowMs) {
      const ended = new Date(now.getTime() - windowMs);
      const [row] = await database.run((sql) =>
        sql.unsafe<{ count: number; start: Date }[]>(
          `INSERT INTO ${COUNTERS_TABLE} AS c (key, start, count) VALUES ($1, $2, 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN c.start <= $3 THEN 1 ELSE c.count + 1 END,
             start = CASE WHEN c.start <= $3 THEN excluded.start ELSE c.start END
           RETURNING count, start`,
          [key, now, ended],
        ),
      );
      if (now.getTime() - swept >= SWEEP_EVERY_MS) {
        swept = now.getTime();
        await database.run((sql) => sql.unsafe(`DELETE FROM ${COUNTERS_TABLE} WHERE start <= $1`, [ended]));
      }
      return { count: Number(row?.count), start: new Date(row?.start as Date) };
    },
  };
}
