import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../../../kit/index.js';
import type { Database } from './database.js';

/** Rows are clustered by series, then time: a perf or history query for a few series reads a few row groups. */
const CLUSTER_ORDER = 'series_id, start_time, report_id, iteration, id';
/** The `server_meta` key holding the highest metric id the clustered part of the table covers. */
const CLUSTERED_THROUGH = 'metric.clustered_through';
/** Tables compaction builds and drops: not part of the data (replication leaves them out). */
export const SCRATCH_TABLES: readonly string[] = ['metric_compact'];
/** Below this many rows to cluster, a rewrite is not worth it (a DuckDB row group holds 122,880 rows). */
export const MIN_TAIL_ROWS = 250_000;
/**
 * The newest rows stay in insertion (time) order. Ingest reads the newest values of every series a report has,
 * bounded below by a start time; in time order they sit in the last row groups, and the clustered part, all
 * older than the bound, is skipped whole by its min-max index. Clustered, the same read would scan every series.
 */
export const KEEP_RECENT_ROWS = 250_000;
/** The tail may grow to this fraction of the clustered rows, so rewrites stay amortized O(1) per row. */
const TAIL_FRACTION = 0.25;

/**
 * Folds the usage entries (one per report) of days before `before` into one per organization and day, which keeps
 * the table about as long as organizations x days. The sums stay the same; today's entries stay as they are.
 */
export async function foldUsage(connection: DuckDBConnection, before: string): Promise<void> {
  const [last] = (await connection.runAndReadAll('SELECT max(id) FROM usage_entry')).getRows()[0] ?? [];
  if (last === null || last === undefined) return;
  const old = `id <= ${BigInt(last as bigint)} AND day < DATE '${before}'`;
  await connection.run(
    `INSERT INTO usage_entry (organization_id, day, metrics)
      SELECT organization_id, day, sum(metrics) FROM usage_entry WHERE ${old}
      GROUP BY organization_id, day HAVING count(*) > 1 ORDER BY day, organization_id`,
  );
  await connection.run(
    `DELETE FROM usage_entry u WHERE ${old} AND EXISTS (SELECT 1 FROM usage_entry f
      WHERE f.id > ${BigInt(last as bigint)} AND f.organization_id = u.organization_id AND f.day = u.day)`,
  );
}

export interface CompactionResult {
  readonly compacted: boolean;
  readonly rows: number;
  readonly tailRows: number;
  readonly ms: number;
}

/**
 * Keeps the metric fact table clustered by series, but for its newest rows. Ingest appends rows in time order, so
 * one series is spread over every row group and a query for 8 series scans the whole table. When the tail beyond
 * the newest 250,000 rows outgrows max(250,000 rows, a quarter of the clustered part), everything but the newest
 * 250,000 rows is rewritten in series order, and those follow in insertion order:
 *
 * 1. on a connection of its own, outside the writer queue, a sorted copy of a snapshot is built (ingest goes on);
 * 2. in one short write transaction, rows added since the snapshot are appended to the copy, rows deleted since
 *    are removed from it, and the copy replaces the table.
 *
 * Metric rows are never updated, only inserted and deleted, which is what makes step 2 exact. Step 2 also folds
 * the usage entries of past days (`foldUsage`).
 */
export class MetricCompactor {
  #clusteredRows: number | undefined;
  #tailRows = 0;
  #running: Promise<CompactionResult> | undefined;
  #connection: DuckDBConnection | undefined;
  #generation = 0;
  #stopped = false;

  readonly #minTailRows: number;
  readonly #keepRecentRows: number;
  readonly #beforeSwap: () => Promise<void>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    options: {
      readonly minTailRows?: number;
      readonly keepRecentRows?: number;
      /** Runs between the copy and the swap (tests use it to write while a compaction is under way). */
      readonly beforeSwap?: () => Promise<void>;
    } = {},
  ) {
    this.#minTailRows = options.minTailRows ?? MIN_TAIL_ROWS;
    this.#keepRecentRows = options.keepRecentRows ?? KEEP_RECENT_ROWS;
    this.#beforeSwap = options.beforeSwap ?? (() => Promise.resolve());
  }

  /** Counts rows appended by a committed write. */
  appended(rows: number): void {
    this.#tailRows += rows;
  }

  /** Starts a compaction in the background when the tail is due; never throws (failures are logged). */
  poke(): void {
    if (this.#running || this.#stopped) return;
    if (this.#clusteredRows !== undefined && !this.#due()) return;
    void this.run(false).catch((error: unknown) => {
      if (!this.#stopped) this.logger.error({ err: error }, 'metric compaction failed; it is retried later');
    });
  }

  /** Compacts now when due (or always with `force`); waits for a compaction already running. */
  run(force: boolean): Promise<CompactionResult> {
    if (this.#running) return this.#running;
    const running = this.#run(force).finally(() => (this.#running = undefined));
    this.#running = running;
    return running;
  }

  /** Interrupts a running compaction (its copy is dropped) and waits for it to end. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const current = this.#generation === this.database.generation ? this.#connection : undefined;
    current?.interrupt();
    await this.#running?.catch(() => undefined);
    current?.closeSync();
    this.#connection = undefined;
  }

  /** The compactor's own connection, opened again after the database was reopened (the old one is dead). */
  async #connect(): Promise<DuckDBConnection> {
    if (this.#connection && this.#generation === this.database.generation) return this.#connection;
    this.#connection = await this.database.connect();
    this.#generation = this.database.generation;
    return this.#connection;
  }

  /** Stopping interrupts the running statement; between statements, this ends the compaction. */
  #checkStopped(): void {
    if (this.#stopped) throw new Error('metric compaction interrupted: the storage is closing');
  }

  #due(): boolean {
    const toCluster = this.#tailRows - this.#keepRecentRows;
    return toCluster >= Math.max(this.#minTailRows, (this.#clusteredRows ?? 0) * TAIL_FRACTION);
  }

  async #run(force: boolean): Promise<CompactionResult> {
    const started = performance.now();
    const connection = await this.#connect();
    await connection.run('BEGIN TRANSACTION');
    let snapshot: Awaited<ReturnType<MetricCompactor['snapshot']>>;
    try {
      snapshot = await this.snapshot(connection);
    } finally {
      await connection.run('COMMIT');
    }
    this.#clusteredRows = snapshot.clustered;
    this.#tailRows = snapshot.tail;
    const skipped = () => ({
      compacted: false,
      rows: snapshot.total,
      tailRows: snapshot.tail,
      ms: performance.now() - started,
    });
    if (!force && !this.#due()) return skipped();
    const through = await this.#clusterThrough(connection);
    if (through === undefined || through <= snapshot.through) return skipped();

    this.#checkStopped();
    const ddl = await tableDdl(connection);
    await connection.run('DROP TABLE IF EXISTS metric_compact');
    await connection.run('BEGIN TRANSACTION');
    try {
      await connection.run(ddl.replace(/^CREATE TABLE metric\b/i, 'CREATE TABLE metric_compact'));
      await connection.run(
        `INSERT INTO metric_compact SELECT * FROM metric WHERE id <= ${through} ORDER BY ${CLUSTER_ORDER}`,
      );
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }

    let counts: { total: number; clustered: number };
    try {
      await this.#beforeSwap();
      this.#checkStopped();
      counts = await this.database.write(async (writer) => {
        // Rows deleted since the copy: equal counts up to `through` mean none were (ids are never reused).
        const [live, copied] = (
          await writer.runAndReadAll(
            `SELECT (SELECT count(*) FROM metric WHERE id <= ${through})::BIGINT,
                    (SELECT count(*) FROM metric_compact)::BIGINT`,
          )
        ).getRows()[0] as [bigint, bigint];
        if (live !== copied)
          await writer.run(
            `DELETE FROM metric_compact WHERE id NOT IN (SELECT id FROM metric WHERE id <= ${through})`,
          );
        await writer.run(`INSERT INTO metric_compact SELECT * FROM metric WHERE id > ${through} ORDER BY id`);
        const total = (
          await writer.runAndReadAll('SELECT count(*)::BIGINT FROM metric_compact')
        ).getRows()[0]?.[0] as bigint;
        await writer.run('DROP TABLE metric');
        await writer.run('ALTER TABLE metric_compact RENAME TO metric');
        await writer.run(
          `INSERT INTO server_meta VALUES ('${CLUSTERED_THROUGH}', '${through}')
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
        await foldUsage(writer, new Date().toISOString().slice(0, 10));
        return { total: Number(total), clustered: Number(live) };
      });
    } catch (error) {
      await connection.run('DROP TABLE IF EXISTS metric_compact').catch(() => undefined);
      throw error;
    }
    this.#clusteredRows = counts.clustered;
    this.#tailRows = counts.total - counts.clustered;
    const ms = performance.now() - started;
    this.logger.info(
      { rows: counts.total, clustered_rows: counts.clustered, ms: Math.round(ms) },
      'metric table clustered by series',
    );
    return { compacted: true, rows: counts.total, tailRows: snapshot.tail, ms };
  }

  /** The id after which the newest `keepRecentRows` rows start (ids grow, with gaps); none when fewer rows. */
  async #clusterThrough(connection: DuckDBConnection): Promise<bigint | undefined> {
    const sql =
      this.#keepRecentRows === 0
        ? 'SELECT max(id)::BIGINT FROM metric'
        : `SELECT CASE WHEN count(*) = ${this.#keepRecentRows} THEN min(id) - 1 END::BIGINT
           FROM (SELECT id FROM metric ORDER BY id DESC LIMIT ${this.#keepRecentRows})`;
    const value = (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
    return typeof value === 'bigint' ? value : undefined;
  }

  private async snapshot(connection: DuckDBConnection) {
    const meta = await connection.runAndReadAll(
      `SELECT value FROM server_meta WHERE key = '${CLUSTERED_THROUGH}'`,
    );
    const through = BigInt((meta.getRows()[0]?.[0] as string | undefined) ?? '0');
    const reader = await connection.runAndReadAll(
      `SELECT count(*) FILTER (WHERE id <= ${through})::BIGINT, count(*) FILTER (WHERE id > ${through})::BIGINT
       FROM metric`,
    );
    const [clustered, tail] = reader.getRows()[0] as [bigint, bigint];
    return {
      through,
      clustered: Number(clustered),
      tail: Number(tail),
      total: Number(clustered + tail),
    };
  }
}

/** The metric table's own DDL, so the copy keeps every column type and constraint of the current schema. */
async function tableDdl(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll(
    `SELECT sql FROM duckdb_tables() WHERE table_name = 'metric' AND schema_name = 'main'`,
  );
  const sql = reader.getRows()[0]?.[0];
  if (typeof sql !== 'string') throw new Error('metric table DDL not found');
  return sql.replace(/;\s*$/, '');
}
