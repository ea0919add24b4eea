import type {
  Page,
  ReadRepositories,
  RegressionFilter,
  RegressionRecord,
  RegressionStatus,
  RegressionsReader,
  TableReader,
  TableWriter,
  WriteRepositories,
} from '../../../kit/index.js';

/** Runs one statement with `$name` parameters and answers its rows (each engine's `query`). */
export type Run = <T>(sql: string, params: Record<string, unknown>) => Promise<T[]>;

/** What the regression statements need to know of an engine's SQL. */
export interface Dialect {
  /** `$name` as an integer (PostgreSQL types a parameter from its statement, DuckDB from its value). */
  readonly int: (name: string) => string;
  readonly text: (name: string) => string;
  /** A test that `expression` is one of the texts of the array parameter `$name`. */
  readonly inTexts: (expression: string, name: string) => string;
}

const REGRESSION_COLUMNS = [
  'id',
  'uuid',
  'project_id',
  'branch_id',
  'head_id',
  'testbed_id',
  'kind',
  'status',
  'last_good_version_id',
  'first_bad_version_id',
  'fixed_version_id',
  'note',
  'issue_url',
  'assignee_id',
  'reason',
  'created',
  'modified',
];

/** The regression tables as each engine's generic table helpers take them. */
export const REGRESSION_TABLES = {
  regressions: { name: 'regression', columns: REGRESSION_COLUMNS, search: ['uuid', 'note'] },
  regressionSeries: {
    name: 'regression_series',
    columns: [
      'regression_id',
      'project_id',
      'series_id',
      'benchmark_id',
      'measure_id',
      'state',
      'before_value',
      'after_value',
      'p_value',
      'created',
      'modified',
    ],
    key: ['regression_id', 'series_id'],
  },
  regressionAlerts: {
    name: 'regression_alert',
    columns: ['alert_id', 'regression_id', 'project_id', 'series_id'],
    key: ['alert_id'],
  },
  regressionEvents: {
    name: 'regression_event',
    columns: [
      'id',
      'regression_id',
      'project_id',
      'user_id',
      'status',
      'previous_status',
      'changes',
      'reason',
      'created',
    ],
  },
} as const;

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

/** `%text%` for ILIKE, with the pattern characters of `text` escaped. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause of a regression filter and its parameters, in SQL both engines run. */
function regressionWhere(
  filter: RegressionFilter,
  d: Dialect,
): { sql: string; params: Record<string, unknown> } {
  const where = [`r.project_id = ${d.int('project')}`];
  const params: Record<string, unknown> = { project: filter.project_id };
  if (filter.statuses) {
    where.push(d.inTexts('r.status', 'statuses'));
    params.statuses = [...filter.statuses];
  }
  for (const column of ['kind', 'branch_id', 'testbed_id'] as const) {
    if (filter[column] === undefined) continue;
    where.push(`r.${column} = ${column === 'kind' ? d.text(column) : d.int(column)}`);
    params[column] = filter[column];
  }
  if (filter.assignee_id === null) where.push('r.assignee_id IS NULL');
  else if (filter.assignee_id !== undefined) {
    where.push(`r.assignee_id = ${d.int('assignee')}`);
    params.assignee = filter.assignee_id;
  }
  const series: string[] = [];
  if (filter.benchmark_id !== undefined) {
    series.push(`s.benchmark_id = ${d.int('benchmark')}`);
    params.benchmark = filter.benchmark_id;
  }
  if (filter.measure_id !== undefined) {
    series.push(`s.measure_id = ${d.int('measure')}`);
    params.measure = filter.measure_id;
  }
  if (series.length > 0)
    where.push(
      `EXISTS (SELECT 1 FROM regression_series s WHERE s.regression_id = r.id AND ${series.join(' AND ')})`,
    );
  if (filter.search) {
    params.search = contains(filter.search);
    const like = `ILIKE ${d.text('search')} ESCAPE '\\'`;
    where.push(`(CAST(r.uuid AS VARCHAR) ${like} OR r.note ${like} OR r.issue_url ${like}
        OR EXISTS (SELECT 1 FROM regression_series s JOIN benchmark b ON b.id = s.benchmark_id
          WHERE s.regression_id = r.id AND b.name ${like}))`);
  }
  return { sql: where.join(' AND '), params };
}

/** `listFiltered` of the regressions reader, in SQL both engines run. */
export function listRegressions(run: Run, d: Dialect): RegressionsReader['listFiltered'] {
  return async (filter: RegressionFilter, options): Promise<Page<RegressionRecord>> => {
    const { sql: filterSql, params } = regressionWhere(filter, d);
    const dir = options.direction === 'asc' ? 'ASC' : 'DESC';
    const order = {
      status: `${STATUS_RANK} ASC, r.created DESC, r.id DESC`,
      created: `r.created ${dir}, r.id ${dir}`,
      modified: `r.modified ${dir}, r.id ${dir}`,
      version: `v.number ${dir}, r.id ${dir}`,
    }[options.sort];
    const [count] = await run<{ total: bigint | number | string }>(
      `SELECT count(*) AS total FROM regression r WHERE ${filterSql}`,
      params,
    );
    const perPage = Math.min(Math.max(options.perPage, 1), 255);
    const items = await run<RegressionRecord>(
      `SELECT r.* FROM regression r JOIN version v ON v.id = r.first_bad_version_id
        WHERE ${filterSql} ORDER BY ${order}
        LIMIT ${d.int('limit')} OFFSET ${d.int('offset')}`,
      { ...params, limit: perPage, offset: (Math.max(options.page, 1) - 1) * perPage },
    );
    return { items, total: Number(count?.total ?? 0) };
  };
}

/** `countByStatus` of the regressions reader: one grouped count. */
export function countRegressions(run: Run, d: Dialect): RegressionsReader['countByStatus'] {
  return async (filter) => {
    const { sql, params } = regressionWhere(filter, d);
    const rows = await run<{ status: RegressionStatus; total: bigint | number | string }>(
      `SELECT r.status, count(*) AS total FROM regression r WHERE ${sql} GROUP BY r.status`,
      params,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.total)]));
  };
}

/** A table as each engine's generic table helpers take it. */
export type RegressionTable = (typeof REGRESSION_TABLES)[keyof typeof REGRESSION_TABLES];

/** What an engine lends the regression repositories: its generic table helpers, statements and dialect. */
export interface EngineTables {
  readonly reader: (table: RegressionTable) => TableReader<never>;
  readonly writer: (table: RegressionTable) => TableWriter<never, never>;
  readonly run: Run;
  readonly dialect: Dialect;
}

type Names = keyof typeof REGRESSION_TABLES;

export function regressionReaders(engine: EngineTables): Pick<ReadRepositories, Names> {
  const t = REGRESSION_TABLES;
  return {
    regressions: {
      ...engine.reader(t.regressions),
      listFiltered: listRegressions(engine.run, engine.dialect),
      countByStatus: countRegressions(engine.run, engine.dialect),
    },
    regressionSeries: engine.reader(t.regressionSeries),
    regressionAlerts: engine.reader(t.regressionAlerts),
    regressionEvents: engine.reader(t.regressionEvents),
  };
}

export function regressionWriters(engine: EngineTables): Pick<WriteRepositories, Names> {
  const t = REGRESSION_TABLES;
  return {
    regressions: { ...engine.writer(t.regressions), ...regressionReaders(engine).regressions },
    regressionSeries: engine.writer(t.regressionSeries),
    regressionAlerts: engine.writer(t.regressionAlerts),
    regressionEvents: engine.writer(t.regressionEvents),
  };
}
