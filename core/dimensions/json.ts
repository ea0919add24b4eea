import { measureDirection } from '../regressions/direction.js';
import { iso } from '../schemas/common.js';
import type {
  BranchJson,
  DimensionJson,
  MeasureJson,
  ModelJson,
  ThresholdJson,
} from '../schemas/dimensions.js';
import type {
  BranchRecord,
  DimensionRecord,
  HeadRecord,
  MeasureRecord,
  ModelRecord,
  ThresholdRecord,
  VersionRecord,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';

interface ProjectRef {
  readonly uuid: string;
}

export function versionJson(version: VersionRecord | undefined | null) {
  return version ? { number: version.number, hash: version.hash } : null;
}

export async function headJson(
  r: ReadRepositories,
  head: HeadRecord,
  version?: VersionRecord,
): Promise<BranchJson['head']> {
  let startPoint: BranchJson['head']['start_point'] = null;
  if (head.start_point_branch_id !== null && head.start_point_head_id !== null) {
    const branch = await r.branches.find({ id: head.start_point_branch_id });
    const fromHead = await r.heads.find({ id: head.start_point_head_id });
    const fromVersion =
      head.start_point_version_id !== null
        ? await r.versions.find({ id: head.start_point_version_id })
        : undefined;
    if (branch && fromHead)
      startPoint = { branch: branch.uuid, head: fromHead.uuid, version: versionJson(fromVersion) };
  }
  return {
    uuid: head.uuid,
    start_point: startPoint,
    version: versionJson(version ?? (await r.heads.latestVersion(head.id))),
    created: iso(head.created),
    replaced: head.replaced ? iso(head.replaced) : null,
  };
}

/** A branch with its current head, or with `head` when given (a historical head, or a report's head). */
export async function branchJson(
  r: ReadRepositories,
  project: ProjectRef,
  branch: BranchRecord,
  head?: HeadRecord,
  version?: VersionRecord,
): Promise<BranchJson> {
  const shown = head ?? (branch.head_id !== null ? await r.heads.find({ id: branch.head_id }) : undefined);
  if (!shown) throw new Error(`branch ${branch.uuid} has no head`);
  return {
    uuid: branch.uuid,
    project: project.uuid,
    name: branch.name,
    slug: branch.slug,
    head: await headJson(r, shown, version),
    archived: branch.archived,
    created: iso(branch.created),
    modified: iso(branch.modified),
  };
}

export function dimensionJson(project: ProjectRef, record: DimensionRecord): DimensionJson {
  return {
    uuid: record.uuid,
    project: project.uuid,
    name: record.name,
    slug: record.slug,
    archived: record.archived,
    created: iso(record.created),
    modified: iso(record.modified),
  };
}

export function measureJson(project: ProjectRef, record: MeasureRecord): MeasureJson {
  return { ...dimensionJson(project, record), units: record.units, direction: measureDirection(record) };
}

export function modelJson(model: ModelRecord): ModelJson {
  return {
    uuid: model.uuid,
    test: model.test,
    min_sample_size: model.min_sample_size,
    max_sample_size: model.max_sample_size,
    window: model.window_seconds === null ? null : Number(model.window_seconds),
    lower_boundary: model.lower_boundary,
    upper_boundary: model.upper_boundary,
    created: iso(model.created),
    replaced: model.replaced ? iso(model.replaced) : null,
  };
}

/** A threshold with its dimensions and a model: the current one, or `model` when given (history). */
export async function thresholdJson(
  r: ReadRepositories,
  project: ProjectRef,
  threshold: ThresholdRecord,
  model?: ModelRecord | null,
): Promise<ThresholdJson> {
  const [branch, testbed, measure] = [
    await r.branches.find({ id: threshold.branch_id }),
    await r.testbeds.find({ id: threshold.testbed_id }),
    await r.measures.find({ id: threshold.measure_id }),
  ];
  if (!branch || !testbed || !measure)
    throw new Error(`threshold ${threshold.uuid} refers to a missing dimension`);
  const current =
    model !== undefined
      ? model
      : threshold.model_id !== null
        ? await r.models.find({ id: threshold.model_id })
        : null;
  return {
    uuid: threshold.uuid,
    project: project.uuid,
    branch: await branchJson(r, project, branch),
    testbed: dimensionJson(project, testbed),
    measure: measureJson(project, measure),
    model: current ? modelJson(current) : null,
    created: iso(threshold.created),
    modified: iso(threshold.modified),
  };
}
