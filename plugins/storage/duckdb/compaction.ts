import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../../../core/index.js';
import type { Database } from './database.js';

/** Rows are clustered by series, then time: a perf or history query for a few series reads a few row groups. */
const CLUSTER_ORDER = 'series_id, start_time, report_id, iteration, id';
/** The `server_meta` key holding the highest metric id the clustered part of the table covers. */
const CLUSTERED_THROUGH = 'metric.clustered_through';
/** Below this many unclustered rows a scan is cheap anyway (a DuckDB row group holds 122,880 rows). */
export const MIN_TAIL_ROWS = 250_000;
/** The tail may grow to this fraction of the clustered rows, so rewrites stay amortized O(1) per row. */
const TAIL_FRACTION = 0.25;

export interface CompactionResult {
  readonly compacted: boolean;
  readonly rows: number;
  readonly tailRows: number;
  readonly ms: number;
}

/**
 * Keeps the metric fact table clustered by series. Ingest appends rows in time order, so one series is spread
 * over every row group and a query for 8 series scans the whole table. When the unclustered tail outgrows
 * max(250,000 rows, a quarter of the clustered part), the table is rewritten in series order:
 *
 * 1. on a connection of its own, outside the writer queue, a sorted copy of a snapshot is built (ingest goes on);
 * 2. in one short write transaction, rows added since the snapshot are appended to the copy, rows deleted since
 *    are removed from it, and the copy replaces the table.
 *
 * Metric rows are never updated, only inserted and deleted, which is what makes step 2 exact.
 */
export class MetricCompactor {
  #clusteredRows: number | undefined;
  #tailRows = 0;
  #running: Promise<CompactionResult> | undefined;
  #connection: DuckDBConnection | undefined;
  #stopped = false;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly minTailRows = MIN_TAIL_ROWS,
  ) {}

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
    this.#connection?.interrupt();
    await this.#running?.catch(() => undefined);
    this.#connection?.closeSync();
    this.#connection = undefined;
  }

  #due(): boolean {
    return this.#tailRows >= Math.max(this.minTailRows, (this.#clusteredRows ?? 0) * TAIL_FRACTION);
  }

  async #run(force: boolean): Promise<CompactionResult> {
    const started = performance.now();
    const connection = (this.#connection ??= await this.database.connect());
    await connection.run('BEGIN TRANSACTION');
    let snapshot: { through: bigint; clustered: number; tail: number; total: number };
    try {
      snapshot = await this.#snapshot(connection);
    } finally {
      await connection.run('COMMIT');
    }
    this.#clusteredRows = snapshot.clustered;
    this.#tailRows = snapshot.tail;
    if (!force && !this.#due())
      return {
        compacted: false,
        rows: snapshot.total,
        tailRows: snapshot.tail,
        ms: performance.now() - started,
      };

    const ddl = await tableDdl(connection);
    await connection.run('DROP TABLE IF EXISTS metric_compact');
    await connection.run('BEGIN TRANSACTION');
    let through: bigint;
    try {
      through = BigInt(
        (
          await connection.runAndReadAll('SELECT coalesce(max(id), 0)::BIGINT FROM metric')
        ).getRows()[0]?.[0] as bigint,
      );
      await connection.run(ddl.replace(/^CREATE TABLE metric\b/i, 'CREATE TABLE metric_compact'));
      await connection.run(
        `INSERT INTO metric_compact SELECT * FROM metric WHERE id <= ${through} ORDER BY ${CLUSTER_ORDER}`,
      );
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }

    let rows = 0;
    try {
      rows = await this.database.write(async (writer) => {
        // Rows deleted since the snapshot: equal counts up to `through` mean none were (ids are never reused).
        const counts = await writer.runAndReadAll(
          `SELECT (SELECT count(*) FROM metric WHERE id <= ${through})::BIGINT,
                  (SELECT count(*) FROM metric_compact)::BIGINT`,
        );
        const [live, copied] = counts.getRows()[0] as [bigint, bigint];
        if (live !== copied)
          await writer.run(
            `DELETE FROM metric_compact WHERE id NOT IN (SELECT id FROM metric WHERE id <= ${through})`,
          );
        await writer.run(
          `INSERT INTO metric_compact SELECT * FROM metric WHERE id > ${through} ORDER BY ${CLUSTER_ORDER}`,
        );
        const newest = await writer.runAndReadAll(
          'SELECT coalesce(max(id), 0)::BIGINT, count(*)::BIGINT FROM metric_compact',
        );
        const [max, total] = newest.getRows()[0] as [bigint, bigint];
        await writer.run('DROP TABLE metric');
        await writer.run('ALTER TABLE metric_compact RENAME TO metric');
        await writer.run(
          `INSERT INTO server_meta VALUES ('${CLUSTERED_THROUGH}', '${max}')
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
        return Number(total);
      });
    } catch (error) {
      await connection.run('DROP TABLE IF EXISTS metric_compact').catch(() => undefined);
      throw error;
    }
    this.#clusteredRows = rows;
    this.#tailRows = 0;
    const ms = performance.now() - started;
    this.logger.info(
      { rows, tail_rows: snapshot.tail, ms: Math.round(ms) },
      'metric table clustered by series',
    );
    return { compacted: true, rows, tailRows: snapshot.tail, ms };
  }

  async #snapshot(connection: DuckDBConnection) {
    const meta = await connection.runAndReadAll(
      `SELECT value FROM server_meta WHERE key = '${CLUSTERED_THROUGH}'`,
    );
    const through = BigInt((meta.getRows()[0]?.[0] as string | undefined) ?? '0');
    const reader = await connection.runAndReadAll(
      `SELECT count(*) FILTER (WHERE id <= ${through})::BIGINT, count(*) FILTER (WHERE id > ${through})::BIGINT
       FROM metric`,
    );
    const [clustered, tail] = (reader.getRows()[0] as [bigint, bigint]).map(Number) as [number, number];
    return { through, clustered, tail, total: clustered + tail };
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
