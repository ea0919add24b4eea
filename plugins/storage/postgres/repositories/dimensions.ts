import type {
  DimensionKind,
  DimensionsReader,
  DimensionsWriter,
  HeadRecord,
  HeadsReader,
  ReadRepositories,
  VersionRecord,
  WriteRepositories,
} from '../../../../kit/index.js';
import { execute, query, type Connection } from '../sql.js';
import { REGRESSION_PRUNE } from '../../shared/regressions.js';
import { alertsReader, alertsWriter } from './alerts.js';
import { tableReader, tableWriter, type TableSpec } from '../table.js';

const TIMES = ['created', 'modified'] as const;
const NAMED = ['id', 'uuid', 'project_id', 'name', 'slug', 'archived', ...TIMES] as const;
const SEARCH = ['name', 'slug', 'uuid'] as const;

export const branches: TableSpec = { name: 'branch', columns: [...NAMED, 'head_id'], search: SEARCH };
export const heads: TableSpec = {
  name: 'head',
  columns: [
    'id',
    'uuid',
    'branch_id',
    'start_point_branch_id',
    'start_point_head_id',
    'start_point_version_id',
    'max_versions',
    'created',
    'replaced',
  ],
};
export const versions: TableSpec = {
  name: 'version',
  columns: ['id', 'uuid', 'project_id', 'number', 'hash', 'created'],
};
export const headVersions: TableSpec = {
  name: 'head_version',
  columns: ['head_id', 'version_id'],
  key: ['head_id', 'version_id'],
};
export const testbeds: TableSpec = { name: 'testbed', columns: NAMED, search: SEARCH };
export const benchmarks: TableSpec = { name: 'benchmark', columns: NAMED, search: SEARCH };
export const measures: TableSpec = {
  name: 'measure',
  columns: [...NAMED, 'units', 'direction'],
  search: SEARCH,
};
export const series: TableSpec = {
  name: 'series',
  columns: ['id', 'project_id', 'testbed_id', 'benchmark_id', 'measure_id'],
};
export const thresholds: TableSpec = {
  name: 'threshold',
  columns: ['id', 'uuid', 'project_id', 'branch_id', 'testbed_id', 'measure_id', 'model_id', ...TIMES],
  search: ['uuid'],
};
export const models: TableSpec = {
  name: 'model',
  columns: [
    'id',
    'uuid',
    'threshold_id',
    'test',
    'min_sample_size',
    'max_sample_size',
    'window_seconds',
    'lower_boundary',
    'upper_boundary',
    'created',
    'replaced',
  ],
};

const HEAD_VERSIONS = `FROM version v JOIN head_version hv ON hv.version_id = v.id WHERE hv.head_id = $head`;

function headsReader(connection: Connection): HeadsReader {
  return {
    ...tableReader<HeadRecord>(connection, heads),
    async latestVersion(headId) {
      const [row] = await query<VersionRecord>(
        connection,
        `SELECT v.* ${HEAD_VERSIONS} ORDER BY v.number DESC LIMIT 1`,
        {
          head: headId,
        },
      );
      return row;
    },
    async versionByHash(headId, hash) {
      const [row] = await query<VersionRecord>(
        connection,
        `SELECT v.* ${HEAD_VERSIONS} AND v.hash = $hash ORDER BY v.number DESC LIMIT 1`,
        { head: headId, hash },
      );
      return row;
    },
    async versionIds(headId, upTo, limit) {
      const rows = await query<{ id: number }>(
        connection,
        `SELECT v.id ${HEAD_VERSIONS} AND v.number <= $upTo ORDER BY v.number DESC LIMIT $limit`,
        { head: headId, upTo, limit },
      );
      return rows.map((row) => row.id);
    },
  };
}

/** SQL selecting the series ids of a dimension (series are testbed x benchmark x measure). */
const SERIES_OF: Record<Exclude<DimensionKind, 'branch'>, string> = {
  testbed: 'SELECT id FROM series WHERE testbed_id = $id',
  benchmark: 'SELECT id FROM series WHERE benchmark_id = $id',
  measure: 'SELECT id FROM series WHERE measure_id = $id',
};

function dimensionsReader(connection: Connection): DimensionsReader {
  const count = async (sql: string, id: number) =>
    Number((await query<{ n: bigint }>(connection, `SELECT count(*) AS n FROM ${sql}`, { id }))[0]?.n ?? 0);
  return {
    async usage(kind, id) {
      if (kind === 'branch') {
        return {
          reports: await count('report WHERE branch_id = $id', id),
          metrics: await count('metric WHERE report_id IN (SELECT id FROM report WHERE branch_id = $id)', id),
          thresholds: await count('threshold WHERE branch_id = $id', id),
        };
      }
      return {
        reports: kind === 'testbed' ? await count('report WHERE testbed_id = $id', id) : 0,
        metrics: await count(`metric WHERE series_id IN (${SERIES_OF[kind]})`, id),
        thresholds: kind === 'benchmark' ? 0 : await count(`threshold WHERE ${kind}_id = $id`, id),
      };
    },
  };
}

/** Statements that delete a dimension and everything referring to it, children first. */
function cascade(kind: DimensionKind): string[] {
  const thresholdsOf = kind === 'benchmark' ? [] : thresholdStatements(`${kind}_id = $id`);
  const plots = `UPDATE plot SET ${kind}_ids = array_remove(${kind}_ids, $id::int) WHERE $id::int = ANY(${kind}_ids)`;
  if (kind === 'branch') {
    const reports = 'SELECT id FROM report WHERE branch_id = $id';
    return [
      `DELETE FROM alert WHERE report_id IN (${reports})`,
      `DELETE FROM metric WHERE report_id IN (${reports})`,
      `DELETE FROM report WHERE branch_id = $id`,
      ...thresholdsOf,
      `DELETE FROM head_version WHERE head_id IN (SELECT id FROM head WHERE branch_id = $id)`,
      `DELETE FROM version v WHERE v.project_id = (SELECT project_id FROM branch WHERE id = $id)
         AND NOT EXISTS (SELECT 1 FROM head_version hv WHERE hv.version_id = v.id)`,
      `DELETE FROM head WHERE branch_id = $id`,
      plots,
      `DELETE FROM branch WHERE id = $id`,
    ];
  }
  const metrics = `SELECT id FROM metric WHERE series_id IN (${SERIES_OF[kind]})`;
  const reports = kind === 'testbed' ? 'SELECT id FROM report WHERE testbed_id = $id' : undefined;
  return [
    `DELETE FROM alert WHERE metric_id IN (${metrics})`,
    `DELETE FROM metric WHERE series_id IN (${SERIES_OF[kind]})`,
    ...(reports
      ? [
          `DELETE FROM alert WHERE report_id IN (${reports})`,
          `DELETE FROM metric WHERE report_id IN (${reports})`,
          `DELETE FROM report WHERE testbed_id = $id`,
        ]
      : []),
    `DELETE FROM series WHERE id IN (${SERIES_OF[kind]})`,
    ...thresholdsOf,
    plots,
    `DELETE FROM ${kind} WHERE id = $id`,
  ];
}

function thresholdStatements(where: string): string[] {
  return [
    `DELETE FROM alert WHERE threshold_id IN (SELECT id FROM threshold WHERE ${where})`,
    `DELETE FROM model WHERE threshold_id IN (SELECT id FROM threshold WHERE ${where})`,
    `DELETE FROM threshold WHERE ${where}`,
  ];
}

function dimensionsWriter(connection: Connection): DimensionsWriter {
  return {
    ...dimensionsReader(connection),
    async deleteWithData(kind, id) {
      for (const statement of cascade(kind)) await execute(connection, statement, { id });
      for (const statement of REGRESSION_PRUNE) await execute(connection, statement);
    },
  };
}

export function dimensionReaders(
  connection: Connection,
): Pick<
  ReadRepositories,
  | 'branches'
  | 'heads'
  | 'versions'
  | 'testbeds'
  | 'benchmarks'
  | 'measures'
  | 'series'
  | 'thresholds'
  | 'models'
  | 'alerts'
  | 'dimensions'
> {
  return {
    branches: tableReader(connection, branches),
    heads: headsReader(connection),
    versions: tableReader(connection, versions),
    testbeds: tableReader(connection, testbeds),
    benchmarks: tableReader(connection, benchmarks),
    measures: tableReader(connection, measures),
    series: tableReader(connection, series),
    thresholds: tableReader(connection, thresholds),
    models: tableReader(connection, models),
    alerts: alertsReader(connection),
    dimensions: dimensionsReader(connection),
  };
}

export function dimensionWriters(
  connection: Connection,
): Pick<
  WriteRepositories,
  | 'branches'
  | 'heads'
  | 'headVersions'
  | 'versions'
  | 'testbeds'
  | 'benchmarks'
  | 'measures'
  | 'series'
  | 'thresholds'
  | 'models'
  | 'alerts'
  | 'dimensions'
> {
  return {
    branches: tableWriter(connection, branches),
    heads: { ...tableWriter(connection, heads), ...headsReader(connection) },
    headVersions: {
      ...tableWriter(connection, headVersions),
      async link(headId, versionIds) {
        if (versionIds.length === 0) return;
        await execute(
          connection,
          'INSERT INTO head_version SELECT $head::int, unnest($versions::int[]) ON CONFLICT DO NOTHING',
          { head: headId, versions: versionIds },
        );
      },
    },
    versions: tableWriter(connection, versions),
    testbeds: tableWriter(connection, testbeds),
    benchmarks: tableWriter(connection, benchmarks),
    measures: tableWriter(connection, measures),
    series: tableWriter(connection, series),
    thresholds: tableWriter(connection, thresholds),
    models: tableWriter(connection, models),
    alerts: alertsWriter(connection),
    dimensions: dimensionsWriter(connection),
  };
}
