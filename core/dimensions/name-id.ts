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
