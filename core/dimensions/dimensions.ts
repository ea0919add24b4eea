import { randomUUID } from 'node:crypto';
import type { Caller } from '../access/permissions.js';
import { requireProject, type ProjectAccess } from '../access/resolve.js';
import { excludingIngest } from '../projects/ingest-order.js';
import { ConflictError, errorName, InputError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import { isSlug, isUuid, uniqueSlug } from '../slug.js';
import type {
  BranchRecord,
  DimensionKind,
  DimensionRecord,
  MeasureDirection,
  MeasureRecord,
  ProjectRecord,
} from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import type { ListOptions, TableReader, TableWriter } from '../storage/tables.js';
import { applyStartPoint, initializeBranch, type StartPointInput } from './heads.js';
import { branchJson, dimensionJson, measureJson } from './json.js';
import { measureFor } from './measures-catalogue.js';
import { DIMENSION_TABLES, findByNameId, requireByNameId } from './name-id.js';
import { readProjectData } from '../access/project-data.js';

type AnyRecord = DimensionRecord &
  Partial<Pick<MeasureRecord, 'units' | 'direction'>> &
  Partial<Pick<BranchRecord, 'head_id'>>;

/** Longest name per kind (spec: branch names at most 256; benchmark names up to 1024 as in the reference). */
const NAME_MAX: Record<DimensionKind, number> = { branch: 256, testbed: 64, benchmark: 1024, measure: 64 };

export interface DimensionInput {
  readonly name?: string | undefined;
  readonly slug?: string | undefined;
  readonly units?: string | undefined;
  /** Measures only. */
  readonly direction?: MeasureDirection | null | undefined;
  readonly archived?: boolean | undefined;
  readonly start_point?: StartPointInput | undefined;
}

function table(r: ReadRepositories, kind: DimensionKind): TableReader<AnyRecord> {
  return r[DIMENSION_TABLES[kind]] as unknown as TableReader<AnyRecord>;
}

function writer(tx: WriteRepositories, kind: DimensionKind): TableWriter<AnyRecord, Omit<AnyRecord, 'id'>> {
  return tx[DIMENSION_TABLES[kind]] as unknown as TableWriter<AnyRecord, Omit<AnyRecord, 'id'>>;
}

/** Wire JSON of any dimension. */
export async function dimensionOut(
  r: ReadRepositories,
  project: ProjectRecord,
  kind: DimensionKind,
  record: AnyRecord,
) {
  if (kind === 'branch') return branchJson(r, project, record as BranchRecord);
  if (kind === 'measure') return measureJson(project, record as MeasureRecord);
  return dimensionJson(project, record);
}

async function assertFree(
  r: ReadRepositories,
  projectId: number,
  kind: DimensionKind,
  input: DimensionInput,
  current?: AnyRecord,
) {
  const t = table(r, kind);
  if (
    input.name !== undefined &&
    input.name !== current?.name &&
    (await t.find({ project_id: projectId, name: input.name }))
  ) {
    throw new ConflictError(`a ${kind} named "${input.name}" already exists in this project`);
  }
  if (
    input.slug !== undefined &&
    input.slug !== current?.slug &&
    (await t.find({ project_id: projectId, slug: input.slug }))
  ) {
    throw new ConflictError(
      `${kind} slug "${input.slug}" is taken in this project; choose another or leave it out`,
    );
  }
}

/** The name rules of the wire schemas, for names that arrive as references (reports create what they name). */
function assertName(kind: DimensionKind, name: string): void {
  if (name.length > NAME_MAX[kind]) {
    throw new InputError(
      `${kind} name "${name.slice(0, 40)}..." is longer than ${NAME_MAX[kind]} characters`,
    );
  }
  // eslint-disable-next-line no-control-regex
  if (kind === 'branch' && /[\u0000-\u001f\u007f]/.test(name)) {
    throw new InputError(
      `branch name ${JSON.stringify(name.slice(0, 40))} must not contain control characters`,
    );
  }
}

/** Inserts a dimension (a branch gets its first head, from its start point when given). */
export async function createDimension(
  tx: WriteRepositories,
  projectId: number,
  kind: DimensionKind,
  input: DimensionInput & { name: string },
  now: Date,
): Promise<AnyRecord> {
  assertName(kind, input.name);
  await assertFree(tx, projectId, kind, input);
  const slug =
    input.slug ??
    (await uniqueSlug(
      input.name,
      async (s) => !!(await table(tx, kind).find({ project_id: projectId, slug: s })),
    ));
  const record = await writer(tx, kind).insert({
    uuid: randomUUID(),
    project_id: projectId,
    name: input.name,
    slug,
    archived: false,
    created: now,
    modified: now,
    ...(kind === 'measure' ? { units: input.units ?? 'units', direction: input.direction ?? null } : {}),
  });
  if (kind === 'branch') {
    const head = await initializeBranch(tx, record as BranchRecord, input.start_point, now);
    return { ...record, head_id: head.id };
  }
  return record;
}

/**
 * Get-or-create by NameId, as reports do: a UUID must exist (404); a slug or name that does not exist creates
 * the dimension (measures named after a built-in get its name and units); an archived one is unarchived.
 */
export async function ensureDimension(
  tx: WriteRepositories,
  projectId: number,
  kind: DimensionKind,
  nameId: string,
  now: Date,
): Promise<AnyRecord> {
  return createdMeanwhile(async () => {
    const found = await findByNameId(table(tx, kind), projectId, nameId);
    if (found) {
      if (!found.archived) return found;
      await writer(tx, kind).update({ id: found.id }, { archived: false, modified: now });
      return { ...found, archived: false, modified: now };
    }
    if (isUuid(nameId)) throw new NotFoundError(`${kind} "${nameId}" not found in this project`);
    if (kind === 'measure') {
      const known = measureFor(nameId);
      const slugFree = !(await table(tx, kind).find({ project_id: projectId, slug: known.slug }));
      return createDimension(
        tx,
        projectId,
        kind,
        { name: known.name, units: known.units, ...(slugFree ? { slug: known.slug } : {}) },
        now,
      );
    }
    const slugFree = isSlug(nameId) && !(await table(tx, kind).find({ project_id: projectId, slug: nameId }));
    return createDimension(tx, projectId, kind, { name: nameId, ...(slugFree ? { slug: nameId } : {}) }, now);
  });
}

/**
 * Runs a get-or-create once more when its creation found the name taken: on an engine with several writers at
 * READ COMMITTED (PostgreSQL), each statement sees what committed before it, so a report that created the same
 * dimension can commit between this one's lookup and its check that the name is free. The second run finds it.
 * (A collision the check does not see fails the INSERT on the unique key, and the transaction runs again.)
 */
export async function createdMeanwhile<T>(getOrCreate: () => Promise<T>): Promise<T> {
  try {
    return await getOrCreate();
  } catch (error) {
    if (errorName(error) !== 'ConflictError') throw error;
    return getOrCreate();
  }
}

/** Branches, testbeds, benchmarks and measures of a project: list, view, create, update, archive, delete. */
export class DimensionsService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(
    caller: Caller,
    projectRef: string,
    kind: DimensionKind,
    options: ListOptions<AnyRecord> & { name?: string; archived: boolean },
  ) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const where = {
        project_id: project.id,
        archived: options.archived,
        ...(options.name ? { name: options.name } : {}),
      };
      const page = await table(r, kind).list(where, options);
      const items = [];
      for (const record of page.items) items.push(await dimensionOut(r, project, kind, record));
      return { items, total: page.total };
    });
  }

  async get(caller: Caller, projectRef: string, kind: DimensionKind, ref: string, head?: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      const record = await requireByNameId(table(r, kind), project.id, ref, kind);
      if (kind === 'branch' && head) {
        const historical = await r.heads.find({ uuid: head.toLowerCase(), branch_id: record.id });
        if (!historical) throw new NotFoundError(`head "${head}" of branch "${record.slug}" not found`);
        return branchJson(r, project, record as BranchRecord, historical);
      }
      return dimensionOut(r, project, kind, record);
    });
  }

  async create(
    caller: Caller,
    projectRef: string,
    kind: DimensionKind,
    input: DimensionInput & { name: string },
  ) {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'create');
      const record = await createDimension(tx, project.id, kind, input, this.ctx.now());
      return dimensionOut(tx, project, kind, record);
    });
  }

  async update(caller: Caller, projectRef: string, kind: DimensionKind, ref: string, input: DimensionInput) {
    const write = async (tx: WriteRepositories, { project }: ProjectAccess) => {
      const record = await requireByNameId(table(tx, kind), project.id, ref, kind);
      await assertFree(tx, project.id, kind, input, record);
      const now = this.ctx.now();
      const { start_point: startPoint, ...patch } = input;
      await writer(tx, kind).update({ id: record.id }, { ...patch, modified: now });
      if (kind === 'branch' && startPoint) {
        await applyStartPoint(
          tx,
          (await tx.branches.find({ id: record.id })) as BranchRecord,
          startPoint,
          now,
        );
      }
      return dimensionOut(tx, project, kind, (await table(tx, kind).find({ id: record.id })) as AnyRecord);
    };
    // a new head replaces the one reports are writing to, and silences its alerts
    if (kind === 'branch' && input.start_point)
      return excludingIngest(this.ctx, caller, projectRef, 'edit', write);
    return this.ctx.storage.transaction(async (tx) =>
      write(tx, await requireProject(tx, caller, projectRef, 'edit')),
    );
  }

  /** Deletes a dimension; one that still has data is a 409 naming it, unless `cascade` deletes that data too. */
  async delete(
    caller: Caller,
    projectRef: string,
    kind: DimensionKind,
    ref: string,
    cascade: boolean,
  ): Promise<void> {
    await excludingIngest(this.ctx, caller, projectRef, 'delete', async (tx, { project }) => {
      const record = await requireByNameId(table(tx, kind), project.id, ref, kind);
      const usage = await tx.dimensions.usage(kind, record.id);
      const parts = [
        plural(usage.reports, 'report'),
        plural(usage.metrics, 'metric'),
        plural(usage.thresholds, 'threshold'),
      ].filter((part) => part !== '');
      if (parts.length > 0 && !cascade) {
        throw new ConflictError(
          `${kind} "${record.slug}" still has ${parts.join(', ')}; delete them first or repeat the request with ?cascade=true to delete everything that uses it`,
        );
      }
      await tx.dimensions.deleteWithData(kind, record.id);
    });
  }
}

function plural(n: number, noun: string): string {
  return n === 0 ? '' : `${n} ${noun}${n === 1 ? '' : 's'}`;
}
