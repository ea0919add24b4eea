import type {
  RegressionFilter,
  RegressionRecord,
  RegressionStatus,
  RegressionsReader,
  RegressionWrites,
  TableReader,
} from '../../../kit/index.js';
import { likePattern, perDialect, type Db, type Dialect, type ListType, type Param } from './sql.js';
import { countByStatus, extended, page, table, tableSpec, type Shared } from './table.js';

/**
 * Statements that remove what refers to deleted rows (alerts, series, branches, testbeds), run after every
 * cascading delete. The regression tables are small, and every test is a lookup by key.
 */
export const REGRESSION_PRUNE: readonly string[] = [
  `DELETE FROM regression_alert WHERE NOT EXISTS (SELECT 1 FROM alert a WHERE a.id = regression_alert.alert_id)`,
  `DELETE FROM regression_series WHERE NOT EXISTS (SELECT 1 FROM series s WHERE s.id = regression_series.series_id)`,
  `DELETE FROM regression WHERE NOT EXISTS (SELECT 1 FROM branch b WHERE b.id = regression.branch_id)
     OR NOT EXISTS (SELECT 1 FROM testbed t WHERE t.id = regression.testbed_id)
     OR NOT EXISTS (SELECT 1 FROM regression_series s WHERE s.regression_id = regression.id)`,
  `DELETE FROM regression_series WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_series.regression_id)`,
  `DELETE FROM regression_alert WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_alert.regression_id)`,
  `DELETE FROM regression_event WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_event.regression_id)`,
];

/** Open regressions first (suspected and untriaged, then acknowledged), then the closed ones. */
const STATUS_RANK = `CASE r.status WHEN 'untriaged' THEN 0 WHEN 'suspected' THEN 1 WHEN 'acknowledged' THEN 2 ELSE 3 END`;

/** The WHERE clause of a regression filter (alias `r`) and its parameters. */
function regressionWhere(db: Db, filter: RegressionFilter): { sql: string; params: Record<string, Param> } {
  const where = ['r.project_id = $project::int'];
  const params: Record<string, Param> = { project: filter.project_id };
  if (filter.statuses) {
    where.push(db.dialect.inList('r.status', '$statuses', 'text'));
    params.statuses = [...filter.statuses];
  }
  for (const column of ['kind', 'branch_id', 'testbed_id'] as const) {
    if (filter[column] === undefined) continue;
    where.push(`r.${column} = $${column}::${column === 'kind' ? 'text' : 'int'}`);
    params[column] = filter[column];
  }
  if (filter.assignee_id === null) where.push('r.assignee_id IS NULL');
  else if (filter.assignee_id !== undefined) {
    where.push('r.assignee_id = $assignee::int');
    params.assignee = filter.assignee_id;
  }
  const series: string[] = [];
  if (filter.benchmark_id !== undefined) {
    series.push('s.benchmark_id = $benchmark::int');
    params.benchmark = filter.benchmark_id;
  }
  if (filter.measure_id !== undefined) {
    series.push('s.measure_id = $measure::int');
    params.measure = filter.measure_id;
  }
  if (series.length > 0)
    where.push(
      `EXISTS (SELECT 1 FROM regression_series s WHERE s.regression_id = r.id AND ${series.join(' AND ')})`,
    );
  if (filter.search) {
    params.search = likePattern(filter.search);
    const like = "ILIKE $search::text ESCAPE '\\'";
    where.push(`(r.uuid::text ${like} OR r.note ${like} OR r.issue_url ${like}
      OR EXISTS (SELECT 1 FROM regression_series s JOIN benchmark b ON b.id = s.benchmark_id
        WHERE s.regression_id = r.id AND b.name ${like}))`);
  }
  return { sql: where.join(' AND '), params };
}

const regressionReads = (db: Db): Omit<RegressionsReader, keyof TableReader<RegressionRecord>> => ({
  listFiltered(filter, options) {
    const where = regressionWhere(db, filter);
    const dir = options.direction === 'asc' ? 'ASC' : 'DESC';
    const order = {
      status: `${STATUS_RANK} ASC, r.created DESC, r.id DESC`,
      created: `r.created ${dir}, r.id ${dir}`,
      modified: `r.modified ${dir}, r.id ${dir}`,
      version: `v.number ${dir}, r.id ${dir}`,
    }[options.sort];
    return page<RegressionRecord>(
      db,
      'r.*',
      `FROM regression r JOIN version v ON v.id = r.first_bad_version_id WHERE ${where.sql}`,
      order,
      where.params,
      { page: options.page, perPage: Math.min(Math.max(options.perPage, 1), 255) },
    );
  },
  countByStatus(filter) {
    const where = regressionWhere(db, filter);
    return countByStatus<RegressionStatus>(db, 'r', `FROM regression r WHERE ${where.sql}`, where.params);
  },
});

/** Columns of the lists `write` inserts, `name` or `name:type` (int by default); floats' NaN is NULL. */
const LISTS = {
  regression_series: `regression_id project_id series_id benchmark_id measure_id state:text before_value:float8
    after_value:float8 p_value:float8`,
  regression_alert: 'alert_id regression_id project_id series_id',
  regression_event:
    'regression_id project_id user_id status:text previous_status:text changes:text reason:text',
} as const;
const listColumns = (table: keyof typeof LISTS) =>
  LISTS[table].split(/\s+/).map((c) => c.split(':') as [string, ListType?]);

/** `INSERT INTO table` the rows of its list parameters (one per column), `$now` in its columns `times`. */
const insertLists = (d: Dialect, table: keyof typeof LISTS, times: readonly string[], tail = '') => {
  const columns = listColumns(table);
  const values = columns.map(([c, type]) => (type === 'float8' ? `nullif(x.${c}, 'NaN')` : `x.${c}`));
  return `INSERT INTO ${table} (${[...columns.map(([c]) => c), ...times].join(', ')})
    SELECT ${[...values, ...times.map(() => `$now::${d.timestamp}`)].join(', ')}
    FROM ${d.rows(
      'x',
      columns.map(([c, type]) => [c, `$${c}`, type ?? 'int']),
    )} ${tail}`;
};

/** The list parameters of `rows` for {@link insertLists}. */
function lists(table: keyof typeof LISTS, rows: readonly object[], now: Date): Record<string, Param> {
  const value = (row: object, column: string) => (row as Record<string, unknown>)[column];
  return Object.fromEntries([
    ['now', now],
    ...listColumns(table).map(([c, type]) => [
      c,
      type === 'float8'
        ? Float64Array.from(rows, (row) => (value(row, c) as number | null) ?? Number.NaN)
        : (rows.map((row) => value(row, c)) as Param),
    ]),
  ]);
}

const WRITE = perDialect((d) => {
  const detached = d.rows('d', [
    ['regression', '$regression', 'int'],
    ['series', '$series', 'int'],
    ['into', '$into', 'int'],
  ]);
  const of = (t: string) => `d.regression = ${t}.regression_id AND d.series = ${t}.series_id`;
  return {
    detach: [
      `UPDATE regression_alert SET regression_id = d.into FROM ${detached}
        WHERE ${of('regression_alert')} AND d.into IS NOT NULL`,
      `DELETE FROM regression_alert
        WHERE EXISTS (SELECT 1 FROM ${detached} WHERE ${of('regression_alert')} AND d.into IS NULL)`,
      `DELETE FROM regression_series WHERE EXISTS (SELECT 1 FROM ${detached} WHERE ${of('regression_series')})`,
    ],
    series: insertLists(
      d,
      'regression_series',
      ['created', 'modified'],
      `ON CONFLICT (regression_id, series_id) DO UPDATE SET state = excluded.state,
        before_value = excluded.before_value, after_value = excluded.after_value, p_value = excluded.p_value,
        modified = excluded.modified`,
    ),
    alerts: insertLists(d, 'regression_alert', []),
    events: insertLists(d, 'regression_event', ['created']),
  };
});

/** The regression repositories. */
export const REGRESSIONS = {
  regressions: extended(tableSpec('regression', { search: ['uuid', 'note'] }), regressionReads, (db) => ({
    async write({ now, detached, series, alerts, events }: RegressionWrites) {
      const sql = WRITE(db.dialect);
      if (detached.length > 0) {
        const params = {
          regression: detached.map((x) => x.regression_id),
          series: detached.map((x) => x.series_id),
          into: detached.map((x) => x.into),
        } as Record<string, Param>;
        for (const statement of sql.detach) await db.execute(statement, params);
      }
      if (series.length > 0) await db.execute(sql.series, lists('regression_series', series, now));
      if (alerts.length > 0) await db.execute(sql.alerts, lists('regression_alert', alerts, now));
      if (events.length > 0) await db.execute(sql.events, lists('regression_event', events, now));
    },
  })),
  regressionSeries: table(tableSpec('regression_series', { key: ['regression_id', 'series_id'] })),
  regressionAlerts: table(tableSpec('regression_alert', { key: ['alert_id'] })),
  regressionEvents: table(tableSpec('regression_event')),
} satisfies Partial<Shared>;
