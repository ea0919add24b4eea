import { randomUUID } from 'node:crypto';
import { UsageError } from '../errors.js';
import type { Collected } from './execute.js';
import type { RunOptions } from './options.js';

/** `_` in a threshold flag leaves that value unset for its group (reference). */
const UNSET = '_';

type ModelBody = Record<string, string | number>;

const NUMERIC: readonly [keyof RunOptions, string, string, boolean][] = [
  ['thresholdMinSampleSize', '--threshold-min-sample-size', 'min_sample_size', true],
  ['thresholdMaxSampleSize', '--threshold-max-sample-size', 'max_sample_size', true],
  ['thresholdWindow', '--threshold-window', 'window', true],
  ['thresholdLowerBoundary', '--threshold-lower-boundary', 'lower_boundary', false],
  ['thresholdUpperBoundary', '--threshold-upper-boundary', 'upper_boundary', false],
];

/**
 * The inline thresholds of a run: the i-th `--threshold-test`, `--threshold-min-sample-size`, ... belong to
 * the i-th `--threshold-measure`. Every list is as long as the measures' or absent; `_` leaves a value unset.
 */
export function reportThresholds(
  options: RunOptions,
): { models?: Record<string, ModelBody>; reset?: boolean } | undefined {
  const measures = options.thresholdMeasure ?? [];
  const tests = options.thresholdTest ?? [];
  if (tests.length !== measures.length) {
    throw new UsageError(
      `give one --threshold-test per --threshold-measure (got ${tests.length} tests for ${measures.length} measures)`,
    );
  }
  const models: Record<string, ModelBody> = {};
  for (const [key, flag] of NUMERIC) {
    const values = options[key] as string[] | undefined;
    if (values && values.length !== measures.length) {
      throw new UsageError(
        `give ${flag} once per --threshold-measure (${measures.length}), using _ for "unset", got ${values.length}`,
      );
    }
  }
  measures.forEach((measure, i) => {
    const model: ModelBody = { test: tests[i] as string };
    for (const [key, flag, field, integer] of NUMERIC) {
      const text = (options[key] as string[] | undefined)?.[i];
      if (text === undefined || text === UNSET) continue;
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
        throw new UsageError(`${flag} must be ${integer ? 'an integer' : 'a number'} or _, got "${text}"`);
      }
      model[field] = n;
    }
    if (Object.hasOwn(models, measure)) throw new UsageError(`--threshold-measure ${measure} is given twice`);
    models[measure] = model;
  });
  if (measures.length === 0 && !options.thresholdsReset) return undefined;
  return {
    ...(measures.length > 0 ? { models } : {}),
    ...(options.thresholdsReset ? { reset: true } : {}),
  };
}

/** The start point of the branch, from the `--start-point*` flags. */
export function startPoint(options: RunOptions): Record<string, unknown> | undefined {
  const point = {
    ...(options.startPoint ? { branch: options.startPoint } : {}),
    ...(options.startPointHash ? { hash: options.startPointHash } : {}),
    ...(options.startPointMaxVersions !== undefined ? { max_versions: options.startPointMaxVersions } : {}),
    ...(options.startPointCloneThresholds ? { clone_thresholds: true } : {}),
    ...(options.startPointReset ? { reset: true } : {}),
  };
  if (Object.keys(point).length > 0 && !point.branch && (point.hash || point.clone_thresholds)) {
    throw new UsageError('--start-point-hash and --start-point-clone-thresholds need --start-point <BRANCH>');
  }
  return Object.keys(point).length > 0 ? point : undefined;
}

/**
 * The body of `POST /v0/run`. A random idempotency key lets the client retry the POST safely. With
 * `--backdate` (epoch seconds) the run starts then and lasts as long as it really did.
 */
export function runBody(
  options: RunOptions,
  collected: Collected,
  context: Record<string, string>,
): Record<string, unknown> {
  const start = options.backdate !== undefined ? new Date(options.backdate * 1000) : collected.startTime;
  const end = new Date(start.getTime() + Math.round(collected.elapsedMs));
  const thresholds = reportThresholds(options);
  const point = startPoint(options);
  return {
    ...(options.project ? { project: options.project } : {}),
    ...(options.branch ? { branch: options.branch } : {}),
    ...(options.hash ? { hash: options.hash } : {}),
    ...(options.testbed ? { testbed: options.testbed } : {}),
    ...(point ? { start_point: point } : {}),
    ...(thresholds ? { thresholds } : {}),
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    results: collected.results,
    settings: {
      adapter: options.adapter,
      ...(options.average ? { average: options.average } : {}),
      ...(options.fold ? { fold: options.fold } : {}),
    },
    idempotency_key: randomUUID(),
    context,
  };
}
