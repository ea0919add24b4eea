import { randomUUID } from 'node:crypto';
import { InputError } from '../errors.js';
import { parseModelParams } from '../boundaries/params.js';
import type { ModelParams } from '../plugins/contracts.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { BranchRecord, ModelRecord, ThresholdRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';

/** A model as requested: a model id (or alias) and its parameters. */
export interface ModelInput {
  readonly test: string;
  readonly min_sample_size?: number | null | undefined;
  readonly max_sample_size?: number | null | undefined;
  readonly window?: number | null | undefined;
  readonly lower_boundary?: number | null | undefined;
  readonly upper_boundary?: number | null | undefined;
}

/** A model validated by its plugin: the canonical id and normalized parameters. */
export interface ValidModel {
  readonly test: string;
  readonly params: ModelParams;
}

/** Validates a model with the plugin's own parameter schema (messages name the model, parameter and rule). */
export function validateModel(registry: PluginRegistry, input: ModelInput): ValidModel {
  const entry = registry.find('model', input.test);
  if (!entry) {
    const known = registry.list('model').map((e) => e.plugin.id);
    throw new InputError(`unknown threshold model "${input.test}"; use one of ${known.join(', ')}`);
  }
  const { test: _test, ...params } = input;
  return { test: entry.plugin.id, params: parseModelParams(entry.plugin, params) };
}

/** True when a stored model has this test and exactly these parameters. */
export function sameModel(record: ModelRecord, model: ValidModel): boolean {
  const p = model.params;
  return (
    record.test === model.test &&
    record.min_sample_size === (p.min_sample_size ?? null) &&
    record.max_sample_size === (p.max_sample_size ?? null) &&
    (record.window_seconds === null ? null : Number(record.window_seconds)) === (p.window ?? null) &&
    record.lower_boundary === (p.lower_boundary ?? null) &&
    record.upper_boundary === (p.upper_boundary ?? null)
  );
}

/**
 * Gives a threshold a new model (or none). Models are immutable history: the current one is stamped
 * `replaced` and stays viewable; an identical model changes nothing.
 */
export async function setModel(
  tx: WriteRepositories,
  threshold: ThresholdRecord,
  model: ValidModel | null,
  now: Date,
): Promise<ModelRecord | null> {
  const current = threshold.model_id !== null ? await tx.models.find({ id: threshold.model_id }) : undefined;
  if (current && model && sameModel(current, model)) return current;
  if (!current && !model) return null;
  if (current) await tx.models.update({ id: current.id }, { replaced: now });
  const created = model
    ? await tx.models.insert({
        uuid: randomUUID(),
        threshold_id: threshold.id,
        test: model.test,
        min_sample_size: model.params.min_sample_size ?? null,
        max_sample_size: model.params.max_sample_size ?? null,
        window_seconds: model.params.window ?? null,
        lower_boundary: model.params.lower_boundary ?? null,
        upper_boundary: model.params.upper_boundary ?? null,
        created: now,
        replaced: null,
      })
    : null;
  await tx.thresholds.update({ id: threshold.id }, { model_id: created?.id ?? null, modified: now });
  return created;
}

/** The threshold of branch x testbed x measure with this model, created when missing. */
export async function upsertThreshold(
  tx: WriteRepositories,
  key: { project_id: number; branch_id: number; testbed_id: number; measure_id: number },
  model: ValidModel | null,
  now: Date,
): Promise<ThresholdRecord> {
  let threshold = await tx.thresholds.find({
    branch_id: key.branch_id,
    testbed_id: key.testbed_id,
    measure_id: key.measure_id,
  });
  if (!threshold) {
    threshold = await tx.thresholds.insert({
      uuid: randomUUID(),
      ...key,
      model_id: null,
      created: now,
      modified: now,
    });
  }
  await setModel(tx, threshold, model, now);
  return (await tx.thresholds.find({ id: threshold.id })) as ThresholdRecord;
}

/** The parameters a stored model was created with. */
export function modelParamsOf(model: ModelRecord): ModelParams {
  const params: Record<string, number> = {};
  if (model.min_sample_size !== null) params.min_sample_size = model.min_sample_size;
  if (model.max_sample_size !== null) params.max_sample_size = model.max_sample_size;
  if (model.window_seconds !== null) params.window = Number(model.window_seconds);
  if (model.lower_boundary !== null) params.lower_boundary = model.lower_boundary;
  if (model.upper_boundary !== null) params.upper_boundary = model.upper_boundary;
  return params;
}

/**
 * Copies the start branch's thresholds (with their current models) onto a branch; thresholds of the branch
 * without a counterpart lose their model (reference section 3.3).
 */
export async function cloneThresholds(
  tx: WriteRepositories,
  from: BranchRecord,
  to: BranchRecord,
  now: Date,
): Promise<void> {
  const source = await tx.thresholds.all({ branch_id: from.id });
  const copied = new Set<string>();
  for (const threshold of source) {
    const model = threshold.model_id !== null ? await tx.models.find({ id: threshold.model_id }) : undefined;
    await upsertThreshold(
      tx,
      {
        project_id: to.project_id,
        branch_id: to.id,
        testbed_id: threshold.testbed_id,
        measure_id: threshold.measure_id,
      },
      model ? { test: model.test, params: modelParamsOf(model) } : null,
      now,
    );
    copied.add(`${threshold.testbed_id}:${threshold.measure_id}`);
  }
  for (const threshold of await tx.thresholds.all({ branch_id: to.id })) {
    if (!copied.has(`${threshold.testbed_id}:${threshold.measure_id}`))
      await setModel(tx, threshold, null, now);
  }
}
