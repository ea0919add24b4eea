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

/** The lists `write` takes, in the order it writes them: `column:type` (int when none; a float's NaN is NULL). */
const LISTS = {
  detached: 'regression_id series_id moved_to',
  series: `regression_id project_id series_id benchmark_id measure_id state:text before_value:float8
    after_value:float8 p_value:float8`,
  alerts: 'alert_id regression_id project_id series_id',
  events: 'regression_id project_id user_id status:text previous_status:text changes:text reason:text',
};
type List = keyof typeof LISTS;
const columns = (list: List) => LISTS[list].split(/\s+/).map((c) => c.split(':') as [string, ListType?]);
const rows = (d: Dialect, list: List) =>
  d.rows(
    'x',
    columns(list).map(([c, t]) => [c, `$${c}`, t ?? 'int']),
  );

/** `INSERT INTO table` the rows of `list`, with `$now` in the columns `times`. */
const insert = (d: Dialect, list: List, table: string, times: string[], tail = '') =>
  `INSERT INTO ${table} (${[...columns(list).map(([c]) => c), ...times].join(', ')})
    SELECT ${[...columns(list).map(([c, t]) => (t === 'float8' ? `nullif(x.${c}, 'NaN')` : `x.${c}`))]}
      ${times.map(() => `, $now::${d.timestamp}`).join('')} FROM ${rows(d, list)} ${tail}`;

/** The statements that write each list. */
const WRITE = perDialect((d): Record<List, string[]> => {
  const match = (t: string) => `x.regression_id = ${t}.regression_id AND x.series_id = ${t}.series_id`;
  return {
    detached: [
      `UPDATE regression_alert SET regression_id = x.moved_to FROM ${rows(d, 'detached')}
        WHERE ${match('regression_alert')} AND x.moved_to IS NOT NULL`,
      `DELETE FROM regression_alert WHERE EXISTS
        (SELECT 1 FROM ${rows(d, 'detached')} WHERE ${match('regression_alert')} AND x.moved_to IS NULL)`,
      `DELETE FROM regression_series WHERE EXISTS (SELECT 1 FROM ${rows(d, 'detached')} WHERE ${match('regression_series')})`,
    ],
    series: [insert(d, 'series', 'regression_series', ['created', 'modified'], UPSERT)],
    alerts: [insert(d, 'alerts', 'regression_alert', [])],
    events: [insert(d, 'events', 'regression_event', ['created'])],
  };
});
const UPSERT = `ON CONFLICT (regression_id, series_id) DO UPDATE SET state = excluded.state,
  before_value = excluded.before_value, after_value = excluded.after_value, p_value = excluded.p_value,
  modified = excluded.modified`;

/** The regression repositories. */
export const REGRESSIONS = {
  regressions: extended(tableSpec('regression', { search: ['uuid', 'note'] }), regressionReads, (db) => ({
    async write(writes: RegressionWrites) {
      for (const [list, statements] of Object.entries(WRITE(db.dialect)) as [List, string[]][]) {
        const values = (c: string) => writes[list].map((row) => (row as Record<string, unknown>)[c] ?? null);
        const params = Object.fromEntries(
          columns(list).map(([c, t]) => [
            c,
            t === 'float8' ? Float64Array.from(values(c), (v) => (v === null ? NaN : Number(v))) : values(c),
          ]),
        ) as Record<string, Param>;
        if (writes[list].length > 0)
          for (const statement of statements) await db.execute(statement, { ...params, now: writes.now });
      }
    },
  })),
  regressionSeries: table(tableSpec('regression_series', { key: ['regression_id', 'series_id'] })),
  regressionAlerts: table(tableSpec('regression_alert', { key: ['alert_id'] })),
  regressionEvents: table(tableSpec('regression_event')),
} satisfies Partial<Shared>;
