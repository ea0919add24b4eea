import type { Migration } from '../../shared/schema.js';

/**
 * The metric table, partitioned by month of `start_time`: ingest writes into the newest month, whose indexes stay
 * small enough to be cached however long the history grows, and a perf query's time window skips the months outside
 * it. `metric_partitions_ahead` creates the months ahead (partitions.ts) and those of backfilled reports.
 *
 * The existing rows are copied into the new table in one transaction, in time proportional to the table (not
 * measured at scale: plan the upgrade of a large database). The primary key gains `start_time` (PostgreSQL requires
 * the partition key in every unique index); the ids still come from one sequence, so they stay unique.
 */
export const partitionedMetrics: Migration = {
  version: 8,
  name: 'partitioned metrics',
  statements: [
    `ALTER TABLE metric RENAME TO metric_unpartitioned`,
    `ALTER INDEX metric_pkey RENAME TO metric_unpartitioned_pkey`,
    `ALTER INDEX metric_series_time RENAME TO metric_unpartitioned_series_time`,
    `ALTER INDEX metric_report RENAME TO metric_unpartitioned_report`,
    `ALTER INDEX metric_project_uuid RENAME TO metric_unpartitioned_project_uuid`,
    `CREATE TABLE metric (LIKE metric_unpartitioned INCLUDING DEFAULTS, PRIMARY KEY (id, start_time))
      PARTITION BY RANGE (start_time)`,
    `CREATE INDEX metric_series_time ON metric (series_id, start_time, report_id, iteration)`,
    `CREATE INDEX metric_report ON metric (report_id)`,
    `CREATE INDEX metric_project_uuid ON metric (project_id, uuid)`,
    `CREATE TABLE metric_default PARTITION OF metric DEFAULT`,
    // One month's partition, created detached, filled with the rows the default partition holds for that month,
    // then attached; a month that has its partition already is left alone. Callers serialize (advisory lock).
    `CREATE FUNCTION metric_partition(month TIMESTAMPTZ) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
    DECLARE
      lo TIMESTAMPTZ := date_trunc('month', month, 'UTC');
      hi TIMESTAMPTZ := (date_trunc('month', month, 'UTC') AT TIME ZONE 'UTC' + INTERVAL '1 month') AT TIME ZONE 'UTC';
      name TEXT := 'metric_' || to_char(lo AT TIME ZONE 'UTC', 'YYYY_MM');
    BEGIN
      IF to_regclass(name) IS NOT NULL THEN
        RETURN false;
      END IF;
      EXECUTE format('CREATE TABLE %I (LIKE metric INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
      EXECUTE format('WITH moved AS (DELETE FROM metric_default WHERE start_time >= $1 AND start_time < $2
        RETURNING *) INSERT INTO %I SELECT * FROM moved', name) USING lo, hi;
      EXECUTE format('ALTER TABLE metric ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
      RETURN true;
    END $$`,
    // The partitions of this month and the next `ahead` ones, and of every month the default partition holds
    // rows of (backfilled reports), under a transaction-level advisory lock, so API processes starting together
    // create each month once.
    `CREATE FUNCTION metric_partitions_ahead(ahead INTEGER) RETURNS INTEGER LANGUAGE plpgsql AS $$
    DECLARE
      created INTEGER := 0;
      month TIMESTAMPTZ;
    BEGIN
      PERFORM pg_advisory_xact_lock(1835365481); -- 'metr'
      FOR month IN SELECT now() + make_interval(months => m) FROM generate_series(0, ahead) m
        UNION SELECT DISTINCT date_trunc('month', start_time, 'UTC') FROM metric_default LOOP
        IF metric_partition(month) THEN
          created := created + 1;
        END IF;
      END LOOP;
      RETURN created;
    END $$`,
    `SELECT metric_partition(month) FROM (SELECT DISTINCT date_trunc('month', start_time, 'UTC') AS month
      FROM metric_unpartitioned) months ORDER BY month`,
    `SELECT metric_partitions_ahead(3)`,
    `INSERT INTO metric SELECT * FROM metric_unpartitioned`,
    `DROP TABLE metric_unpartitioned`,
  ],
};
