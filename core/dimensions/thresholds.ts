import { randomUUID } from 'node:crypto';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { excludingIngest } from '../projects/ingest-order.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { DimensionRecord, ProjectRecord, ThresholdRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { Direction, TableReader } from '../storage/tables.js';
import { ensureDimension } from './dimensions.js';
import { modelJson, thresholdJson } from './json.js';
import { DIMENSION_TABLES, requireByNameId } from './name-id.js';
import { setModel, validateModel, type ModelInput } from './threshold-models.js';
import { readProjectData } from '../access/project-data.js';

export interface ThresholdListOptions {
  readonly branch?: string | undefined;
  readonly testbed?: string | undefined;
  readonly measure?: string | undefined;
  readonly archived: boolean;
  /** Case-insensitive substring of the threshold's UUID or of its branch's, testbed's or measure's name or slug. */
  readonly search?: string | undefined;
  /** Exact name of its branch, testbed or measure. */
  readonly name?: string | undefined;
  readonly sort: 'created' | 'modified';
  readonly direction: Direction;
  readonly page: number;
  readonly perPage: number;
}

/**
 * Thresholds: one per branch x testbed x measure, each with a current model validated by the model plugin, and
 * the history of its models (updates add a model and stamp the old one replaced).
 */
export class ThresholdsService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(caller: Caller, projectRef: string, options: ThresholdListOptions) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const where: Partial<ThresholdRecord> = { project_id: project.id };
      for (const kind of ['branch', 'testbed', 'measure'] as const) {
        const ref = options[kind];
        if (!ref) continue;
        const table = r[DIMENSION_TABLES[kind]] as TableReader<DimensionRecord>;
        Object.assign(where, { [`${kind}_id`]: (await requireByNameId(table, project.id, ref, kind)).id });
      }
      const search = options.search?.toLowerCase();
      const matching = [];
      for (const threshold of await r.thresholds.all(where)) {
        const dims = await dimensionsOf(r, threshold);
        if (dims.some((d) => d?.archived) !== options.archived) continue;
        if (options.name !== undefined && !dims.some((d) => d?.name === options.name)) continue;
        const texts = [threshold.uuid, ...dims.flatMap((d) => (d ? [d.name, d.slug] : []))];
        if (search !== undefined && !texts.some((t) => t.toLowerCase().includes(search))) continue;
        matching.push(threshold);
      }
      const sign = options.direction === 'desc' ? -1 : 1;
      matching.sort((a, b) => sign * (a[options.sort].getTime() - b[options.sort].getTime() || a.id - b.id));
      const start = (Math.max(options.page, 1) - 1) * options.perPage;
      const items = [];
      for (const threshold of matching.slice(start, start + options.perPage))
        items.push(await thresholdJson(r, project, threshold));
      return { items, total: matching.length };
    });
  }

  /** A threshold with its current model, or with a historical model (`model` UUID). */
  async get(caller: Caller, projectRef: string, uuid: string, modelUuid?: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      const threshold = await requireThreshold(r, project, uuid);
      if (!modelUuid) return thresholdJson(r, project, threshold);
      const model = await r.models.find({ uuid: modelUuid.toLowerCase(), threshold_id: threshold.id });
      if (!model) throw new NotFoundError(`model "${modelUuid}" of threshold "${uuid}" not found`);
      return thresholdJson(r, project, threshold, model);
    });
  }

  /** Every model the threshold has had, newest first by default, each with when it was created and replaced. */
  async models(
    caller: Caller,
    projectRef: string,
    uuid: string,
    options: { readonly direction: Direction; readonly page: number; readonly perPage: number },
  ) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      const threshold = await requireThreshold(r, project, uuid);
      const page = await r.models.list(
        { threshold_id: threshold.id },
        { sort: 'created', direction: options.direction, page: options.page, perPage: options.perPage },
      );
      return { items: page.items.map(modelJson), total: page.total };
    });
  }

  async create(
    caller: Caller,
    projectRef: string,
    input: ModelInput & { branch: string; testbed: string; measure: string },
  ) {
    const { branch: _b, testbed: _t, measure: _m, ...modelInput } = input;
    const model = validateModel(this.ctx.registry, modelInput);
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'create');
      const now = this.ctx.now();
      const branch = await requireByNameId(tx.branches, project.id, input.branch, 'branch');
      const testbed = await requireByNameId(tx.testbeds, project.id, input.testbed, 'testbed');
      const measure = await ensureDimension(tx, project.id, 'measure', input.measure, now);
      const key = { branch_id: branch.id, testbed_id: testbed.id, measure_id: measure.id };
      if (await tx.thresholds.find(key)) {
        throw new ConflictError(
          `a threshold for branch "${branch.slug}", testbed "${testbed.slug}" and measure "${measure.slug}" exists; change its model with PUT`,
        );
      }
      const threshold = await tx.thresholds.insert({
        uuid: randomUUID(),
        project_id: project.id,
        ...key,
        model_id: null,
        created: now,
        modified: now,
      });
      await setModel(tx, threshold, model, now);
      return thresholdJson(tx, project, (await tx.thresholds.find({ id: threshold.id })) as ThresholdRecord);
    });
  }

  /** Replaces the model (`test: null` removes it: the threshold then raises nothing). */
  async update(
    caller: Caller,
    projectRef: string,
    uuid: string,
    input: Omit<ModelInput, 'test'> & { test: string | null },
  ) {
    const model =
      input.test === null ? null : validateModel(this.ctx.registry, { ...input, test: input.test });
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const threshold = await requireThreshold(tx, project, uuid);
      await setModel(tx, threshold, model, this.ctx.now());
      return thresholdJson(tx, project, (await tx.thresholds.find({ id: threshold.id })) as ThresholdRecord);
    });
  }

  /** Deletes a threshold, its models and its alerts; metrics keep the limits they were tested against. */
  async delete(caller: Caller, projectRef: string, uuid: string): Promise<void> {
    // reports raise alerts on the threshold until it is gone
    await excludingIngest(this.ctx, caller, projectRef, 'delete', async (tx, { project }) => {
      const threshold = await requireThreshold(tx, project, uuid);
      await tx.alerts.delete({ threshold_id: threshold.id });
      await tx.models.delete({ threshold_id: threshold.id });
      await tx.thresholds.delete({ id: threshold.id });
    });
  }
}

async function requireThreshold(
  r: ReadRepositories,
  project: ProjectRecord,
  uuid: string,
): Promise<ThresholdRecord> {
  const threshold = await r.thresholds.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!threshold) throw new NotFoundError(`threshold "${uuid}" not found`);
  return threshold;
}

/** A threshold's branch, testbed and measure (it counts as archived when one of them is). */
async function dimensionsOf(r: ReadRepositories, threshold: ThresholdRecord) {
  return [
    await r.branches.find({ id: threshold.branch_id }),
    await r.testbeds.find({ id: threshold.testbed_id }),
    await r.measures.find({ id: threshold.measure_id }),
  ];
}
