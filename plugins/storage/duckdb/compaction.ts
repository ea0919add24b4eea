import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger, MaintenanceResult } from '../../../kit/index.js';
import type { Database } from './database.js';
import { inTransaction } from './sql.js';

/** Rows are clustered by series, then time: a perf or history query for a few series reads a few row groups. */
const CLUSTER_ORDER = 'series_id, start_time, report_id, iteration, id';
/** The `server_meta` key holding the highest metric id the clustered part of the table covers. */
export const CLUSTERED_THROUGH = 'metric.clustered_through';
/** The `server_meta` key holding the highest metric id of the sealed segments, which are never rewritten. */
export const SEALED_THROUGH = 'metric.sealed_through';
/** Below this many rows to cluster, a rewrite is not worth it (a DuckDB row group holds 122,880 rows). */
const MIN_TAIL_ROWS = 250_000;
/**
 * The newest rows stay in time order: ingest's history read, bounded below by a start time, then reads the last
 * row groups and skips the clustered part by its min-max index.
 */
const KEEP_RECENT_ROWS = 250_000;
/**
 * A clustered segment (a range of metric ids sorted by series and time) of this many rows is sealed: never
 * rewritten again, so compaction's cost follows the rows ingested since, not the history.
 */
export const SEGMENT_ROWS = 4_000_000;

/** Folds the usage entries (one per report) of days before `before` into one per organization and day. */
async function foldUsage(connection: DuckDBConnection, before: string): Promise<void> {
  const [last] = await firstRow(connection, 'SELECT max(id) FROM usage_entry');
  if (typeof last !== 'bigint') return;
  const old = `id <= ${last} AND day < DATE '${before}'`;
  await connection.run(
    `INSERT INTO usage_entry (organization_id, day, metrics)
      SELECT organization_id, day, sum(metrics) FROM usage_entry WHERE ${old}
      GROUP BY organization_id, day HAVING count(*) > 1 ORDER BY day, organization_id`,
  );
  await connection.run(
    `DELETE FROM usage_entry u WHERE ${old} AND EXISTS (SELECT 1 FROM usage_entry f
      WHERE f.id > ${last} AND f.organization_id = u.organization_id AND f.day = u.day)`,
  );
}

/**
 * Keeps the metric table clustered by series but for its newest rows (ingest appends in time order, which spreads
 * a series over every row group). When the tail beyond the newest rows outgrows max(MIN_TAIL_ROWS, the open
 * segment), the open segment and the tail are sorted into a new open segment:
 *
 * 1. on a connection of its own, a sorted copy of those rows is built from a snapshot while ingest goes on;
 * 2. in one write transaction, rows deleted since are removed from the copy, the rows it covers are deleted from
 *    the table and the copy appended in their place, and past days' usage entries are folded.
 *
 * Metric rows are only inserted and deleted, never updated, which makes step 2 exact.
 */
export class MetricCompactor {
  #openRows: number | undefined;
  #tailRows = 0;
  #running: Promise<MaintenanceResult> | undefined;
  #connection: DuckDBConnection | undefined;
  #stopped = false;

  readonly #minTailRows: number;
  readonly #keepRecentRows: number;
  readonly #segmentRows: number;
  readonly #beforeSwap: () => Promise<void>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    options: {
      readonly minTailRows?: number;
      readonly keepRecentRows?: number;
      readonly segmentRows?: number;
      /** Runs between the copy and the swap (tests use it to write while a compaction is under way). */
      readonly beforeSwap?: () => Promise<void>;
    } = {},
  ) {
    this.#minTailRows = options.minTailRows ?? MIN_TAIL_ROWS;
    this.#keepRecentRows = options.keepRecentRows ?? KEEP_RECENT_ROWS;
    this.#segmentRows = options.segmentRows ?? SEGMENT_ROWS;
    this.#beforeSwap = options.beforeSwap ?? (() => Promise.resolve());
  }

  /** Counts rows appended by a committed write, and starts a compaction when that makes one due. */
  appended(rows: number): void {
    this.#tailRows += rows;
    this.poke();
  }

  /** Starts a compaction in the background when the tail is due; never throws (failures are logged). */
  poke(): void {
    if (this.#running || this.#stopped) return;
    if (this.#openRows !== undefined && !this.#due()) return;
    void this.run(false).catch((error: unknown) => {
      if (!this.#stopped) this.logger.error({ err: error }, 'metric compaction failed; it is retried later');
    });
  }

  /**
   * Compacts now when due (or always with `force`); waits for a compaction already running, and with `force`
   * runs again when that one found nothing due.
   */
  run(force: boolean): Promise<MaintenanceResult> {
    const current = this.#running;
    if (current)
      return force ? current.then((result) => (result.compacted ? result : this.run(true))) : current;
    const running = this.#run(force).finally(() => (this.#running = undefined));
    this.#running = running;
    return running;
  }

  /** Interrupts a running compaction (its copy is dropped) and waits for it to end. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#connection?.interrupt();
    await this.#running?.catch(() => undefined);
  }

  /** Stopping interrupts the running statement; between statements, this ends the compaction. */
  #checkStopped(): void {
    if (this.#stopped) throw new Error('metric compaction interrupted: the storage is closing');
  }

  /** Due once the tail is as large as the open segment, which therefore doubles: O(log) rewrites a row. */
  #due(): boolean {
    const toCluster = this.#tailRows - this.#keepRecentRows;
    return toCluster >= Math.max(this.#minTailRows, this.#openRows ?? 0);
  }

  /** One compaction on a connection of its own (one kept across runs would die with a reopened database). */
  async #run(force: boolean): Promise<MaintenanceResult> {
    const connection = (this.#connection = await this.database.connect());
    try {
      return await this.#compact(connection, force);
    } finally {
      this.#connection = undefined;
      this.database.disconnect(connection);
    }
  }

  async #compact(connection: DuckDBConnection, force: boolean): Promise<MaintenanceResult> {
    const started = performance.now();
    const snapshot = await inTransaction(connection, () => this.#snapshot(connection));
    // A full open segment is sealed as it is: the next rewrite starts after it.
    const sealed = snapshot.open >= this.#segmentRows ? snapshot.through : snapshot.sealed;
    this.#openRows = sealed === snapshot.sealed ? snapshot.open : 0;
    this.#tailRows = snapshot.tail;
    const answer = (compacted: boolean, rows: number, rewrittenRows: number) => ({
      compacted,
      rows,
      tailRows: snapshot.tail,
      rewrittenRows,
      ms: performance.now() - started,
    });
    if (!force && !this.#due()) return answer(false, snapshot.rows, 0);
    // the highest id to cluster: the newest past the clustered part that is not one of the newest keepRecentRows
    // (ids grow, with gaps); the min-max index on id skips the clustered segments
    const [through] = await firstRow(
      connection,
      `SELECT id FROM metric WHERE id > ${snapshot.through} ORDER BY id DESC LIMIT 1 OFFSET ${this.#keepRecentRows}`,
    );
    if (typeof through !== 'bigint') return answer(false, snapshot.rows, 0);

    this.#checkStopped();
    const range = `id > ${sealed} AND id <= ${through}`;
    await connection.run('DROP TABLE IF EXISTS metric_compact');
    await connection.run(
      `CREATE TABLE metric_compact AS SELECT * FROM metric WHERE ${range} ORDER BY ${CLUSTER_ORDER}`,
    );

    let counts: { rewritten: number; total: number };
    try {
      await this.#beforeSwap();
      this.#checkStopped();
      counts = await this.database.write(async (writer) => {
        // Rows deleted since the copy: equal counts mean none were (ids are never reused).
        const [live, copied] = await firstRow(
          writer,
          `SELECT (SELECT count(*) FROM metric WHERE ${range})::BIGINT, (SELECT count(*) FROM metric_compact)::BIGINT`,
        );
        if (live !== copied)
          await writer.run(
            `DELETE FROM metric_compact WHERE id NOT IN (SELECT id FROM metric WHERE ${range})`,
          );
        await writer.run(`DELETE FROM metric WHERE ${range}`);
        await writer.run('INSERT INTO metric SELECT * FROM metric_compact');
        await writer.run('DROP TABLE metric_compact');
        await writer.run(
          `INSERT INTO server_meta VALUES ('${CLUSTERED_THROUGH}', '${through}'), ('${SEALED_THROUGH}', '${sealed}')
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
        await foldUsage(writer, new Date().toISOString().slice(0, 10));
        const [rows] = await firstRow(writer, 'SELECT count(*)::BIGINT FROM metric');
        return { rewritten: Number(live), total: Number(rows) };
      });
    } catch (error) {
      await connection.run('DROP TABLE IF EXISTS metric_compact').catch(() => undefined);
      throw error;
    }
    // The tail lost the rows just clustered; rows appended meanwhile were counted by `appended`.
    this.#tailRows = Math.max(0, this.#tailRows - (counts.rewritten - this.#openRows));
    this.#openRows = counts.rewritten;
    const result = answer(true, counts.total, counts.rewritten);
    this.logger.info(
      { rows: result.rows, rewritten_rows: result.rewrittenRows, ms: Math.round(result.ms) },
      'metric table clustered by series',
    );
    return result;
  }

  /**
   * Where the segments end (`server_meta`), the rows of the open segment, of the tail and of the table. Counts only
   * the open segment and the tail: the sealed segments are skipped by their min-max index on id.
   */
  async #snapshot(connection: DuckDBConnection) {
    const meta = await connection.runAndReadAll(
      `SELECT key, value FROM server_meta WHERE key IN ('${CLUSTERED_THROUGH}', '${SEALED_THROUGH}')`,
    );
    const keys = new Map(meta.getRows().map(([key, value]) => [key as string, BigInt(value as string)]));
    const through = keys.get(CLUSTERED_THROUGH) ?? 0n;
    const sealed = keys.get(SEALED_THROUGH) ?? 0n;
    const [open, tail, rows] = await firstRow(
      connection,
      `SELECT count(*) FILTER (WHERE id <= ${through})::BIGINT, count(*) FILTER (WHERE id > ${through})::BIGINT,
              (SELECT count(*) FROM metric)::BIGINT
       FROM metric WHERE id > ${sealed}`,
    );
    return { sealed, through, open: Number(open), tail: Number(tail), rows: Number(rows) };
  }
}

/**
 * The tables of the data (every table of the database but compaction's scratch copy), in name order, each with
 * whether it has an integer id.
 */
export async function dataTables(connection: DuckDBConnection): Promise<Map<string, boolean>> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name, EXISTS (SELECT 1 FROM duckdb_columns() c WHERE c.table_oid = t.table_oid
         AND c.column_name = 'id' AND c.data_type IN ('INTEGER', 'BIGINT'))
     FROM duckdb_tables() t
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
       AND table_name <> 'metric_compact'
     ORDER BY table_name`,
  );
  return new Map(reader.getRows().map(([name, withId]) => [String(name), withId === true]));
}

async function firstRow(connection: DuckDBConnection, sql: string): Promise<unknown[]> {
  return (await connection.runAndReadAll(sql)).getRows()[0] ?? [];
}
