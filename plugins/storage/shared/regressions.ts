import type {
  RegressionFilter,
  RegressionRecord,
  RegressionStatus,
  RegressionsReader,
  TableReader,
} from '../../../kit/index.js';
import { insertLists, listParams } from './alerts.js';
import { likePattern, perDialect, type Db, type Param, type Params } from './sql.js';
import { countByStatus, extended, page, table, tableSpec, type Shared } from './table.js';

/**
 * Statements that remove what refers to deleted rows (alerts, series, branches, testbeds). The regression tables are
 * small, and every test is a lookup by key.
 */
const REGRESSION_PRUNE: readonly string[] = [
  `DELETE FROM regression_alert WHERE NOT EXISTS (SELECT 1 FROM alert a WHERE a.id = regression_alert.alert_id)`,
  `DELETE FROM regression_series WHERE NOT EXISTS (SELECT 1 FROM series s WHERE s.id = regression_series.series_id)`,
  `DELETE FROM regression WHERE NOT EXISTS (SELECT 1 FROM branch b WHERE b.id = regression.branch_id)
     OR NOT EXISTS (SELECT 1 FROM testbed t WHERE t.id = regression.testbed_id)
     OR NOT EXISTS (SELECT 1 FROM regression_series s WHERE s.regression_id = regression.id)`,
  `DELETE FROM regression_series WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_series.regression_id)`,
  `DELETE FROM regression_alert WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_alert.regression_id)`,
  `DELETE FROM regression_event WHERE NOT EXISTS (SELECT 1 FROM regression r WHERE r.id = regression_event.regression_id)`,
];

/** Runs a cascading delete's `statements` with `params`, then REGRESSION_PRUNE. */
export async function deleteCascade(db: Db, statements: readonly string[], params: Params): Promise<void> {
  for (const statement of [...statements, ...REGRESSION_PRUNE]) await db.execute(statement, params);
}

/** Open regressions first (suspected and untriaged, then acknowledged), then the closed ones. */
const STATUS_RANK = `CASE r.status WHEN 'untriaged' THEN 0 WHEN 'suspected' THEN 1 WHEN 'acknowledged' THEN 2 ELSE 3 END`;

/** The WHERE clause of a regression filter (alias `r`) and its parameters. */
function regressionWhere(db: Db, filter: RegressionFilter): { sql: string; params: Record<string, Param> } {
  const where = ['r.project_id = $project_id::int'];
  const params: Record<string, Param> = { ...filter };
  if (filter.statuses) where.push(db.dialect.inList('r.status', '$statuses', 'text'));
  for (const column of ['kind', 'branch_id', 'testbed_id', 'assignee_id'] as const) {
    if (filter[column] === undefined) continue;
    where.push(
      `r.${column} ${filter[column] === null ? 'IS NULL' : `= $${column}::${column === 'kind' ? 'text' : 'int'}`}`,
    );
  }
  const series = (['benchmark_id', 'measure_id'] as const).filter((column) => filter[column] !== undefined);
  if (series.length > 0)
    where.push(`EXISTS (SELECT 1 FROM regression_series s
      WHERE s.regression_id = r.id AND ${series.map((c) => `s.${c} = $${c}::int`).join(' AND ')})`);
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
    const from = `FROM regression r JOIN version v ON v.id = r.first_bad_version_id WHERE ${where.sql}`;
    return page<RegressionRecord>(db, 'r.*', from, order, where.params, options);
  },
  countByStatus(filter) {
    const where = regressionWhere(db, filter);
    return countByStatus<RegressionStatus>(db, 'r', `FROM regression r WHERE ${where.sql}`, where.params);
  },
});

/** The columns of the lists `write` inserts ({@link insertLists}). */
const SERIES = `regression_id project_id series_id benchmark_id measure_id state:text before_value:float8
  after_value:float8 p_value:float8`;
const ALERTS = 'alert_id regression_id project_id series_id';
const EVENTS = 'regression_id project_id user_id status:text previous_status:text changes:text reason:text';
/** A series the regression holds already is updated, and keeps its creation time. */
const UPSERT = `ON CONFLICT (regression_id, series_id) DO UPDATE SET state = excluded.state,
  before_value = excluded.before_value, after_value = excluded.after_value, p_value = excluded.p_value,
  modified = excluded.modified`;
const WRITE = perDialect((d, now = `$now::${d.timestamp}`) => ({
  series: insertLists(d, 'regression_series', SERIES, { created: now, modified: now }, UPSERT),
  alerts: insertLists(d, 'regression_alert', ALERTS),
  events: insertLists(d, 'regression_event', EVENTS, { created: now }),
}));

export const REGRESSIONS = {
  regressions: extended(tableSpec('regression', { search: ['uuid', 'note'] }), regressionReads, (db) => ({
    async write({ now, series, alerts, events }) {
      const sql = WRITE(db.dialect);
      if (series.length > 0) await db.execute(sql.series, { ...listParams(SERIES, series), now });
      if (alerts.length > 0) await db.execute(sql.alerts, listParams(ALERTS, alerts));
      if (events.length > 0) await db.execute(sql.events, { ...listParams(EVENTS, events), now });
    },
  })),
  regressionSeries: table(tableSpec('regression_series', { key: ['regression_id', 'series_id'] })),
  regressionAlerts: table(tableSpec('regression_alert', { key: ['alert_id'] })),
  regressionEvents: table(tableSpec('regression_event')),
} satisfies Partial<Shared>;
