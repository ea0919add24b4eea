import type {
  DimensionRecord,
  MetricRecord,
  NamedBatchReader,
  NamedBatchWriter,
  ReportRecord,
  ReportsReader,
  ReportSummary,
  TableReader,
} from '../../../kit/index.js';
import { deleteCascade } from './regressions.js';
import { count, ident, isUuid, perDialect, type Db } from './sql.js';
import { extended, page, table, tableSpec, withWrites, type Shared } from './table.js';

const reports = tableSpec('report', { search: ['uuid'] });

const SUMMARIES = perDialect((d) => ({
  iterations: `SELECT m.report_id, m.iteration, count(DISTINCT s.benchmark_id) AS benchmarks, count(*) AS measures
    FROM metric m JOIN series s ON s.id = m.series_id WHERE ${d.inList('m.report_id', '$ids', 'int')}
    GROUP BY m.report_id, m.iteration`,
  alerts: `SELECT report_id, count(*) FILTER (WHERE status = 'active') AS active, count(*) AS total
    FROM alert WHERE ${d.inList('report_id', '$ids', 'int')} GROUP BY report_id`,
}));

/**
 * Report ids a statement reads the metrics of, at most. DuckDB prunes the metric table's row groups by the values a
 * join takes from the list only while they are at most 50 (its `dynamic_or_filter_threshold`), and past that by
 * their minimum and maximum alone: a page of reports far apart in id (a backfilled report, one posted with a late
 * start time) would read every row group between them, the whole history. In batches, the reads follow the page.
 */
const REPORTS_A_STATEMENT = 50;

/**
 * `read` for each batch of at most REPORTS_A_STATEMENT of `ids`, in ascending order, so rows each batch orders by
 * report come ordered by report in all.
 */
async function inBatches<R>(ids: readonly number[], read: (batch: number[]) => Promise<R[]>): Promise<R[]> {
  const sorted = [...ids].sort((a, b) => a - b);
  const rows: R[] = [];
  for (let i = 0; i < sorted.length; i += REPORTS_A_STATEMENT)
    rows.push(...(await read(sorted.slice(i, i + REPORTS_A_STATEMENT))));
  return rows;
}

const reportReads = (db: Db): Omit<ReportsReader, keyof TableReader<ReportRecord>> => ({
  listFiltered(filter, options) {
    const where = [
      'r.project_id = $project_id',
      ...(filter.branch_id !== undefined ? ['r.branch_id = $branch_id'] : []),
      ...(filter.testbed_id !== undefined ? ['r.testbed_id = $testbed_id'] : []),
      ...(filter.from ? ['r.start_time >= $from'] : []),
      ...(filter.to ? ['r.end_time <= $to'] : []),
      '(b.archived OR t.archived) = $archived::boolean',
    ].join(' AND ');
    const direction = options.direction === 'asc' ? 'ASC' : 'DESC';
    return page<ReportRecord>(
      db,
      'r.*',
      `FROM report r JOIN branch b ON b.id = r.branch_id JOIN testbed t ON t.id = r.testbed_id WHERE ${where}`,
      `r.start_time ${direction}, r.id ${direction}`,
      { ...filter },
      options,
    );
  },
  async summaries(reportIds) {
    const out = new Map<number, ReportSummary>();
    if (reportIds.length === 0) return out;
    const sql = SUMMARIES(db.dialect);
    const iterations = new Map(reportIds.map((id) => [id, [] as ReportSummary['iterations'][number][]]));
    const rows = await inBatches(reportIds, (batch) =>
      db.query<{ report_id: number; iteration: number; benchmarks: bigint; measures: bigint }>(
        sql.iterations,
        { ids: batch },
      ),
    );
    for (const row of rows) {
      iterations.get(row.report_id)![row.iteration] = {
        benchmarks: count(row.benchmarks),
        measures: count(row.measures),
      };
    }
    const alerts = new Map(
      (
        await db.query<{ report_id: number; active: bigint; total: bigint }>(sql.alerts, { ids: reportIds })
      ).map((row) => [row.report_id, { active: count(row.active), total: count(row.total) }]),
    );
    for (const [id, counts] of iterations) {
      out.set(id, {
        report_id: id,
        iterations: Array.from(counts, (i) => i ?? { benchmarks: 0, measures: 0 }),
        alerts: alerts.get(id) ?? { active: 0, total: 0 },
      });
    }
    return out;
  },
});

const SELECT_METRICS = `SELECT m.id, m.uuid, m.report_id, m.iteration, m.series_id, s.benchmark_id, s.measure_id,
  m.value, m.lower_value, m.upper_value, m.threshold_id, m.model_id, m.baseline, m.lower_limit, m.upper_limit
  FROM metric m JOIN series s ON s.id = m.series_id`;

const METRICS = perDialect((d) => ({
  byReports: `${SELECT_METRICS} WHERE ${d.inList('m.report_id', '$reports', 'int')}
    ORDER BY m.report_id, m.iteration, s.benchmark_id, s.measure_id`,
  byIds: `${SELECT_METRICS} WHERE ${d.inList('m.id', '$ids', 'bigint')}`,
}));

/** The metrics' reads by report, id and UUID (history is the engines' own, perf is in perf.ts). */
export function metricRows(db: Db) {
  return {
    byReports(reportIds: readonly number[]): Promise<MetricRecord[]> {
      return inBatches(reportIds, (batch) =>
        db.query<MetricRecord>(METRICS(db.dialect).byReports, { reports: batch }),
      );
    },
    byIds(ids: readonly bigint[]): Promise<MetricRecord[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.query<MetricRecord>(METRICS(db.dialect).byIds, { ids: [...ids] });
    },
    async byUuid(projectId: number, uuid: string): Promise<MetricRecord | undefined> {
      if (!isUuid(uuid)) return undefined;
      const [row] = await db.query<MetricRecord>(
        `${SELECT_METRICS} WHERE m.project_id = $project AND m.uuid = $uuid::uuid`,
        { project: projectId, uuid },
      );
      return row;
    },
  };
}

/** Deletes a report's metrics and alerts. */
export function deleteReport(db: Db, reportId: number): Promise<void> {
  const data = ['DELETE FROM alert WHERE report_id = $id', 'DELETE FROM metric WHERE report_id = $id'];
  return deleteCascade(db, data, { id: reportId });
}

/** Dimensions of every kind by batch; a kind is the name of its table. */
function namedReader(db: Db): NamedBatchReader {
  const d = db.dialect;
  return {
    byIds(kind, ids) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.query<DimensionRecord>(
        `SELECT * FROM ${ident(kind)} WHERE ${d.inList('id', '$ids', 'int')}`,
        { ids: [...ids] },
      );
    },
    findMany(kind, projectId, keys) {
      if (keys.length === 0) return Promise.resolve([]);
      const uuids = keys.filter(isUuid);
      return db.query<DimensionRecord>(
        `SELECT * FROM ${ident(kind)} WHERE project_id = $project AND (${d.inList('name', '$keys', 'text')}
           OR ${d.inList('slug', '$keys', 'text')}${uuids.length > 0 ? ` OR ${d.inList('uuid', '$uuids', 'uuid')}` : ''})`,
        { keys: [...keys], uuids, project: projectId },
      );
    },
  };
}

type Series = { id: number; benchmark_id: number; measure_id: number };

/** A testbed's series of the pairs of benchmark `$b` and measure `$m`: those there are, those made. */
const SERIES = perDialect((d) => {
  const pairs = d.rows('w', [
    ['b', '$b', 'int'],
    ['m', '$m', 'int'],
  ]);
  return {
    find: `SELECT s.id, s.benchmark_id, s.measure_id FROM series s
      JOIN ${pairs} ON s.benchmark_id = w.b AND s.measure_id = w.m WHERE s.testbed_id = $testbed::int`,
    insert: `INSERT INTO series (project_id, testbed_id, benchmark_id, measure_id)
      SELECT $project::int, $testbed::int, w.b, w.m FROM ${pairs}
      ON CONFLICT (testbed_id, benchmark_id, measure_id) DO NOTHING RETURNING id, benchmark_id, measure_id`,
  };
});

const namedWrites = (db: Db): Omit<NamedBatchWriter, keyof NamedBatchReader> => {
  const d = db.dialect;
  return {
    insertMany(kind, projectId, rows, now) {
      if (rows.length === 0) return Promise.resolve([]);
      const units = kind === 'measure';
      return db.query<DimensionRecord>(
        `INSERT INTO ${ident(kind)} (uuid, project_id, name, slug, archived, created, modified${units ? ', units' : ''})
         SELECT gen_random_uuid(), $project::int, r.name, r.slug, false, $now::${d.timestamp}, $now::${d.timestamp}${units ? ', r.units' : ''}
         FROM ${d.rows('r', [
           ['name', '$names', 'text'],
           ['slug', '$slugs', 'text'],
           ['units', '$units', 'text'],
         ])}
         RETURNING *`,
        {
          project: projectId,
          names: rows.map((r) => r.name),
          slugs: rows.map((r) => r.slug),
          units: rows.map((r) => r.units ?? 'units'),
          now,
        },
      );
    },
    async ensureSeries(projectId, testbedId, wanted) {
      if (wanted.length === 0) return new Int32Array(0);
      const sql = SERIES(d);
      const key = (b: number, m: number) => `${b}:${m}`;
      const ids = new Map<string, number>();
      const run = async (statement: string, pairs: readonly (readonly [number, number])[]) => {
        const b = pairs.map((p) => p[0]);
        const m = pairs.map((p) => p[1]);
        const rows = await db.query<Series>(statement, { project: projectId, testbed: testbedId, b, m });
        for (const s of rows) ids.set(key(s.benchmark_id, s.measure_id), s.id);
      };
      // the wanted pairs with no series yet, each once
      const missing = () => [
        ...new Map(wanted.filter(([b, m]) => !ids.has(key(b, m))).map((p) => [key(p[0], p[1]), p])).values(),
      ];
      await run(sql.find, wanted);
      const absent = missing();
      if (absent.length > 0) {
        // a concurrent writer (another process) creating the same series meets the unique key: this one then
        // reads the row the other made (or runs again, when that row is newer than its snapshot)
        await run(sql.insert, absent);
        const taken = missing();
        if (taken.length > 0) await run(sql.find, taken);
      }
      return Int32Array.from(wanted, ([b, m]) => ids.get(key(b, m)) as number);
    },
  };
};

/** Reports, the named dimensions of ingest, and plots. */
export const REPORTS = {
  reports: extended(reports, reportReads, () => ({})),
  named: withWrites(namedReader, namedWrites),
  plots: table(tableSpec('plot', { search: ['title', 'uuid'], key: ['rank', 'id'] })),
} satisfies Partial<Shared>;
