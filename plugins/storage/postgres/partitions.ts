import type { Logger } from '../../../kit/index.js';
import type { Database } from './database.js';

/** Months after the current one that always have their metric partition (migration 8). */
export const MONTHS_AHEAD = 3;
const DAY_MS = 86_400_000;

/**
 * Keeps the metric table's partitions created ahead of time: now, when the storage opens, and then once a day
 * while it stays open, each process of a database doing it (the database function serializes them). A failure is
 * logged and tried again the next day; meanwhile metrics of a month with no partition land in the default one.
 */
export async function keepPartitionsAhead(database: Database, logger: Logger): Promise<() => void> {
  const ahead = async () => {
    const [row] = await database.sql.unsafe<{ created: number }[]>(
      `SELECT metric_partitions_ahead(${MONTHS_AHEAD}) AS created`,
    );
    if (row && row.created > 0) logger.info({ created: row.created }, 'metric partitions created ahead');
  };
  await ahead();
  const timer = setInterval(() => {
    ahead().catch((error: unknown) =>
      logger.error({ err: error }, 'creating metric partitions ahead failed; tried again tomorrow'),
    );
  }, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
