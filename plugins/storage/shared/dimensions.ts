import type {
  DimensionKind,
  DimensionsReader,
  HeadRecord,
  HeadsReader,
  TableReader,
  VersionRecord,
  WriteRepositories,
} from '../../../kit/index.js';
import { deleteCascade } from './regressions.js';
import { count, perDialect, type Db, type Params } from './sql.js';
import { extended, table, tableSpec, tableWriter, withWrites, type Shared } from './table.js';

const SEARCH = ['name', 'slug', 'uuid'];

const HEAD_VERSIONS = 'FROM version v JOIN head_version hv ON hv.version_id = v.id WHERE hv.head_id = $head';

const headReads = (db: Db): Omit<HeadsReader, keyof TableReader<HeadRecord>> => {
  // the newest of the head's versions, of those `and` selects
  const newest = async (headId: number, and = '', params: Params = {}) => {
    const sql = `SELECT v.* ${HEAD_VERSIONS}${and} ORDER BY v.number DESC LIMIT 1`;
    return (await db.query<VersionRecord>(sql, { head: headId, ...params }))[0];
  };
  return {
    latestVersion: (headId) => newest(headId),
    versionByHash: (headId, hash) => newest(headId, ' AND v.hash = $hash', { hash }),
    async versionIds(headId, upTo, limit) {
      const rows = await db.query<{ id: number }>(
        `SELECT v.id ${HEAD_VERSIONS} AND v.number <= $upTo ORDER BY v.number DESC LIMIT $limit::bigint`,
        { head: headId, upTo, limit },
      );
      return rows.map((row) => row.id);
    },
  };
};

/** SQL selecting the series ids of a dimension `$id` (series are testbed x benchmark x measure). */
const seriesOf = (kind: Exclude<DimensionKind, 'branch'>) => `SELECT id FROM series WHERE ${kind}_id = $id`;

function dimensionsReader(db: Db): DimensionsReader {
  const rows = async (sql: string, id: number) =>
    count((await db.query<{ n: bigint }>(`SELECT count(*) AS n FROM ${sql}`, { id }))[0]?.n);
  return {
    async usage(kind, id) {
      const metrics =
        kind === 'branch'
          ? 'report_id IN (SELECT id FROM report WHERE branch_id = $id)'
          : `series_id IN (${seriesOf(kind)})`;
      return {
        reports:
          kind === 'branch' || kind === 'testbed' ? await rows(`report WHERE ${kind}_id = $id`, id) : 0,
        metrics: await rows(`metric WHERE ${metrics}`, id),
        thresholds: kind === 'benchmark' ? 0 : await rows(`threshold WHERE ${kind}_id = $id`, id),
      };
    },
  };
}

/** Statements that delete a dimension and everything referring to it, children first. */
const cascade = perDialect((d) => {
  const when = (condition: boolean, ...statements: string[]) => (condition ? statements : []);
  const of = (kind: DimensionKind): string[] => {
    const series = kind === 'branch' ? '' : seriesOf(kind);
    const reports = `SELECT id FROM report WHERE ${kind}_id = $id`;
    const thresholds = `SELECT id FROM threshold WHERE ${kind}_id = $id`;
    return [
      ...when(
        kind !== 'branch',
        `DELETE FROM alert WHERE metric_id IN (SELECT id FROM metric WHERE series_id IN (${series}))`,
        `DELETE FROM metric WHERE series_id IN (${series})`,
      ),
      ...when(
        kind === 'branch' || kind === 'testbed',
        `DELETE FROM alert WHERE report_id IN (${reports})`,
        `DELETE FROM metric WHERE report_id IN (${reports})`,
        `DELETE FROM report WHERE ${kind}_id = $id`,
      ),
      ...when(kind !== 'branch', `DELETE FROM series WHERE id IN (${series})`),
      ...when(
        kind !== 'benchmark',
        `DELETE FROM alert WHERE threshold_id IN (${thresholds})`,
        `DELETE FROM model WHERE threshold_id IN (${thresholds})`,
        `DELETE FROM threshold WHERE ${kind}_id = $id`,
      ),
      ...when(
        kind === 'branch',
        `DELETE FROM head_version WHERE head_id IN (SELECT id FROM head WHERE branch_id = $id)`,
        `DELETE FROM version v WHERE v.project_id = (SELECT project_id FROM branch WHERE id = $id)
           AND NOT EXISTS (SELECT 1 FROM head_version hv WHERE hv.version_id = v.id)`,
        `DELETE FROM head WHERE branch_id = $id`,
      ),
      `UPDATE plot SET ${kind}_ids = ${d.listWithout(`${kind}_ids`, '$id::int')} WHERE $id::int = ANY(${kind}_ids)`,
      `DELETE FROM ${kind} WHERE id = $id`,
    ];
  };
  return { branch: of('branch'), testbed: of('testbed'), benchmark: of('benchmark'), measure: of('measure') };
});

export const DIMENSIONS = {
  branches: table(tableSpec('branch', { search: SEARCH })),
  heads: extended(tableSpec('head'), headReads, () => ({})),
  versions: table(tableSpec('version')),
  testbeds: table(tableSpec('testbed', { search: SEARCH })),
  benchmarks: table(tableSpec('benchmark', { search: SEARCH })),
  measures: table(tableSpec('measure', { search: SEARCH })),
  series: table(tableSpec('series')),
  thresholds: table(tableSpec('threshold', { search: ['uuid'] })),
  models: table(tableSpec('model')),
  dimensions: withWrites(dimensionsReader, (db) => ({
    deleteWithData: (kind, id) => deleteCascade(db, cascade(db.dialect)[kind], { id }),
  })),
} satisfies Partial<Shared>;

/** The links of heads to versions (written only). */
export function headVersions(db: Db): WriteRepositories['headVersions'] {
  return {
    ...tableWriter(db, tableSpec('head_version', { key: ['head_id', 'version_id'] })),
    async link(headId, versionIds) {
      if (versionIds.length === 0) return;
      await db.execute(
        'INSERT INTO head_version SELECT $head::int, unnest($versions::int[]) ON CONFLICT DO NOTHING',
        { head: headId, versions: versionIds },
      );
    },
  };
}
