import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { matchNamed } from '../reports/names.js';
import { iso } from '../schemas/common.js';
import { PLOTS_MAX, type newPlotSchema, type PlotJson, type updatePlotSchema } from '../schemas/perf.js';
import type { ServiceContext } from '../services/context.js';
import type { DimensionKind, PlotRecord, ProjectRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import type { Direction } from '../storage/tables.js';
import type { PerfService } from './perf.js';
import { readProjectData } from '../access/project-data.js';

const KINDS = [
  ['branch', 'branch_ids', 'branches'],
  ['testbed', 'testbed_ids', 'testbeds'],
  ['benchmark', 'benchmark_ids', 'benchmarks'],
  ['measure', 'measure_ids', 'measures'],
] as const satisfies readonly (readonly [DimensionKind, keyof PlotRecord, keyof PlotJson])[];

export interface PlotListOptions {
  readonly sort: 'index' | 'title';
  readonly direction: Direction;
  readonly page: number;
  readonly perPage: number;
  readonly search?: string | undefined;
}

/** Perf plots pinned to a project's dashboard (at most 64), ordered by their index, and their images. */
export class PlotsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly perf: PerfService,
  ) {}

  async list(caller: Caller, projectRef: string, options: PlotListOptions) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const page = await r.plots.list(
        { project_id: project.id },
        { ...options, sort: options.sort === 'index' ? 'rank' : 'title' },
      );
      return { items: await plotJsons(r, project, page.items), total: page.total };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      return (await plotJsons(r, project, [await requirePlot(r, project, uuid)]))[0] as PlotJson;
    });
  }

  async create(caller: Caller, projectRef: string, input: z.output<typeof newPlotSchema>) {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'create');
      const existing = await tx.plots.all({ project_id: project.id });
      if (existing.length >= PLOTS_MAX) {
        throw new ConflictError(`a project has at most ${PLOTS_MAX} pinned plots; remove one first`);
      }
      const now = this.ctx.now();
      const ids: Record<string, number[]> = {};
      for (const [kind, column, field] of KINDS)
        ids[column] = await resolveIds(tx, project.id, kind, input[field]);
      const plot = await tx.plots.insert({
        uuid: randomUUID(),
        project_id: project.id,
        rank: existing.length,
        title: input.title ?? null,
        lower_value: input.lower_value,
        upper_value: input.upper_value,
        lower_boundary: input.lower_boundary,
        upper_boundary: input.upper_boundary,
        x_axis: input.x_axis,
        y_axis: input.y_axis,
        window_seconds: input.window,
        branch_ids: ids.branch_ids as number[],
        testbed_ids: ids.testbed_ids as number[],
        benchmark_ids: ids.benchmark_ids as number[],
        measure_ids: ids.measure_ids as number[],
        created: now,
        modified: now,
      });
      if (input.index !== undefined) await reorder(tx, project.id, plot.id, input.index, now);
      return (
        await plotJsons(tx, project, [(await tx.plots.find({ id: plot.id })) as PlotRecord])
      )[0] as PlotJson;
    });
  }

  async update(caller: Caller, projectRef: string, uuid: string, patch: z.output<typeof updatePlotSchema>) {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const plot = await requirePlot(tx, project, uuid);
      const now = this.ctx.now();
      const { index, window, ...fields } = patch;
      await tx.plots.update(
        { id: plot.id },
        { ...fields, ...(window !== undefined ? { window_seconds: window } : {}), modified: now },
      );
      if (index !== undefined) await reorder(tx, project.id, plot.id, index, now);
      return (
        await plotJsons(tx, project, [(await tx.plots.find({ id: plot.id })) as PlotRecord])
      )[0] as PlotJson;
    });
  }

  /** Unpins a plot; the others close the gap. Dashboard upkeep is an edit, so members may do it. */
  async delete(caller: Caller, projectRef: string, uuid: string): Promise<void> {
    await this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const plot = await requirePlot(tx, project, uuid);
      await tx.plots.delete({ id: plot.id });
      await reorder(tx, project.id, undefined, 0, this.ctx.now());
    });
  }

  /** The PNG of a pinned plot: its selection over its window up to now (rounded to the minute, for caching). */
  async image(caller: Caller, projectRef: string, uuid: string, ifNoneMatch?: string) {
    const plot = await this.get(caller, projectRef, uuid);
    const { start_time, end_time } = relativeWindow(plot.window, this.ctx.now());
    return this.perf.image(
      caller,
      projectRef,
      {
        branches: plot.branches,
        heads: [],
        testbeds: plot.testbeds,
        benchmarks: plot.benchmarks,
        measures: plot.measures.slice(0, 1),
        start_time,
        end_time,
      },
      {
        ...(plot.title ? { title: plot.title } : {}),
        x_axis: plot.x_axis,
        y_axis: plot.y_axis,
        boundaries: plot.lower_boundary || plot.upper_boundary,
      },
      ifNoneMatch,
    );
  }
}

/**
 * The `seconds` of history up to now, in epoch milliseconds. The end is the next whole minute, so an image of a
 * relative window is the same (and cached) for a minute, and rolls forward after.
 */
export function relativeWindow(seconds: number, now: Date): { start_time: number; end_time: number } {
  const end = Math.floor(now.getTime() / 60_000) * 60_000 + 60_000;
  return { start_time: end - seconds * 1000, end_time: end };
}

async function requirePlot(r: ReadRepositories, project: ProjectRecord, uuid: string): Promise<PlotRecord> {
  const plot = await r.plots.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!plot) throw new NotFoundError(`plot "${uuid}" not found`);
  return plot;
}

async function resolveIds(
  r: ReadRepositories,
  projectId: number,
  kind: DimensionKind,
  keys: readonly string[],
) {
  const { found, missing } = matchNamed(kind, keys, await r.named.findMany(kind, projectId, keys));
  if (missing.length > 0) throw new NotFoundError(`${kind} "${missing[0]}" not found in this project`);
  return keys.map((key) => found.get(key)?.id as number);
}

/** Puts `plotId` at `index` (or just closes gaps) and renumbers the dashboard 0..n-1. */
async function reorder(
  tx: WriteRepositories,
  projectId: number,
  plotId: number | undefined,
  index: number,
  now: Date,
) {
  const plots = (await tx.plots.all({ project_id: projectId })).sort(
    (a, b) => a.rank - b.rank || a.id - b.id,
  );
  const order = plots.filter((p) => p.id !== plotId);
  const moved = plots.find((p) => p.id === plotId);
  if (moved) order.splice(Math.min(index, order.length), 0, moved);
  for (const [rank, plot] of order.entries()) {
    if (plot.rank !== rank) await tx.plots.update({ id: plot.id }, { rank, modified: now });
  }
}

async function plotJsons(
  r: ReadRepositories,
  project: ProjectRecord,
  plots: readonly PlotRecord[],
): Promise<PlotJson[]> {
  const uuids = new Map<string, string>();
  for (const [kind, column] of KINDS) {
    const ids = [...new Set(plots.flatMap((p) => p[column] as readonly number[]))];
    for (const row of await r.named.byIds(kind, ids)) uuids.set(`${kind}:${row.id}`, row.uuid);
  }
  const list = (kind: DimensionKind, ids: readonly number[]) =>
    ids.map((id) => uuids.get(`${kind}:${id}`)).filter((uuid): uuid is string => uuid !== undefined);
  return plots.map((plot) => ({
    uuid: plot.uuid,
    project: project.uuid,
    index: plot.rank,
    title: plot.title,
    lower_value: plot.lower_value,
    upper_value: plot.upper_value,
    lower_boundary: plot.lower_boundary,
    upper_boundary: plot.upper_boundary,
    x_axis: plot.x_axis,
    y_axis: plot.y_axis,
    window: Number(plot.window_seconds),
    branches: list('branch', plot.branch_ids),
    testbeds: list('testbed', plot.testbed_ids),
    benchmarks: list('benchmark', plot.benchmark_ids),
    measures: list('measure', plot.measure_ids),
    created: iso(plot.created),
    modified: iso(plot.modified),
  }));
}
