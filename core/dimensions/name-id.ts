import { NotFoundError } from '../errors.js';
import { isSlug, isUuid } from '../slug.js';
import type { DimensionKind } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { TableReader } from '../storage/tables.js';

export const DIMENSION_TABLES = {
  branch: 'branches',
  testbed: 'testbeds',
  benchmark: 'benchmarks',
  measure: 'measures',
} as const satisfies Record<DimensionKind, keyof ReadRepositories>;

interface Named {
  readonly project_id: number;
  readonly uuid: string;
  readonly slug: string;
  readonly name: string;
}

/**
 * Finds a dimension of a project by "NameId": a UUID, else a slug, else an exact name (reference: UUID, then
 * valid slug, then name).
 */
export async function findByNameId<R extends Named>(
  table: TableReader<R>,
  projectId: number,
  nameId: string,
): Promise<R | undefined> {
  const where = (extra: Partial<Named>) => ({ project_id: projectId, ...extra }) as Partial<R>;
  if (isUuid(nameId)) return table.find(where({ uuid: nameId.toLowerCase() }));
  if (isSlug(nameId)) {
    const bySlug = await table.find(where({ slug: nameId }));
    if (bySlug) return bySlug;
  }
  return table.find(where({ name: nameId }));
}

export async function requireByNameId<R extends Named>(
  table: TableReader<R>,
  projectId: number,
  nameId: string,
  kind: DimensionKind,
): Promise<R> {
  const found = await findByNameId(table, projectId, nameId);
  if (!found) throw new NotFoundError(`${kind} "${nameId}" not found in this project`);
  return found;
}

/** Dimension references of a list query (UUID, slug or name each, all optional). */
export type DimensionRefs = Partial<Record<DimensionKind, string | undefined>>;

/**
 * The ids of a list query's branch, testbed, benchmark and measure (undefined where none is given); a reference
 * that names none of the project's is a NotFoundError naming its kind.
 */
export async function dimensionIds(
  r: ReadRepositories,
  projectId: number,
  refs: DimensionRefs,
): Promise<{
  branch_id: number | undefined;
  testbed_id: number | undefined;
  benchmark_id: number | undefined;
  measure_id: number | undefined;
}> {
  const id = async (kind: DimensionKind) => {
    const ref = refs[kind];
    if (ref === undefined) return undefined;
    const table = r[DIMENSION_TABLES[kind]] as TableReader<Named & { id: number }>;
    return (await requireByNameId(table, projectId, ref, kind)).id;
  };
  return {
    branch_id: await id('branch'),
    testbed_id: await id('testbed'),
    benchmark_id: await id('benchmark'),
    measure_id: await id('measure'),
  };
}
