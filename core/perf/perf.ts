import { createHash } from 'node:crypto';
import type { Caller } from '../access/permissions.js';
import { branchJson, dimensionJson, measureJson } from '../dimensions/json.js';
import { DETECTION_DEFAULTS } from '../detection/params.js';
import { InputError } from '../errors.js';
import { packageInfo } from '../package-info.js';
import { ImageCache } from './image-cache.js';
import type { PlotImageInput } from './image-input.js';
import { thresholdModelJson } from '../reports/json.js';
import { projectJson } from '../schemas/accounts.js';
import { PERF_IMAGE_LINES_MAX, PERF_POINTS_MAX, type PerfQuery } from '../schemas/perf.js';
import type { ServiceContext } from '../services/context.js';
import type {
  PerfColumns,
  PerfLines,
  PerfRequest,
  ProjectRecord,
  RegressionKind,
  RegressionStatus,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import { resolvePerf, type PerfKeys, type Permutation } from './resolve.js';
import { fixedWidthColumns, type PerfShapeInput } from './shape.js';
import { readProjectData } from '../access/project-data.js';

export type PerfFormat = 'json' | 'csv' | 'arrow';

export interface PerfImageOptions {
  readonly title?: string | undefined;
  readonly x_axis: 'date_time' | 'version';
  readonly y_axis: 'auto' | 'linear' | 'log';
  readonly width?: number | undefined;
  readonly height?: number | undefined;
  /** Draw the threshold limits as a band (pinned plots may turn them off). */
  readonly boundaries?: boolean;
  /** Draw each series' change points (default detector settings). */
  readonly changes?: boolean;
  /** Mark each series' regressions at their first bad version. */
  readonly regressions?: boolean | undefined;
  /** Default light. */
  readonly theme?: 'light' | 'dark';
  /** Default png. */
  readonly format?: ImageFormat;
}

export type ImageFormat = 'png' | 'svg';

/** A perf answer (JSON, CSV or Arrow) and its ETag. */
export interface PerfAnswer {
  readonly etag: string;
  /** The answer; `undefined` when the caller already holds it (its If-None-Match matched). */
  readonly bytes: Uint8Array | undefined;
}

export interface PerfImage {
  readonly etag: string;
  readonly format: ImageFormat;
  /** The PNG or SVG file; `undefined` when the caller already holds this image (its If-None-Match matched). */
  readonly bytes: Uint8Array | undefined;
  readonly public: boolean;
}

/**
 * Bytes of rendered images kept, newest used first; an image is reused while its data is unchanged. A PNG of
 * the default size is 30-120 KB (an SVG about as much), so this holds some hundreds of them.
 */
export const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Perf queries: the history of many series at once, as JSON (built without an object per point), CSV or Arrow;
 * and PNG images of up to 8 series, cached by the content they show.
 */
export class PerfService {
  readonly #images = new ImageCache(IMAGE_CACHE_BYTES);

  constructor(private readonly ctx: ServiceContext) {}

  /**
   * A perf answer. Its ETag is a hash of everything the answer is made of (the points read, the series' and the
   * project's JSON, threshold models, the format and fields, the release), so an unchanged answer is known before
   * it is shaped: a caller whose If-None-Match matches gets no bytes (a 304), and the shaping, compression and
   * transfer are saved. It is computed from this request's own read, so it always matches the bytes served, whichever
   * process wrote them (several API processes on one PostgreSQL database included); read from a replica, an answer
   * may trail a write by the replica's lag, its ETag with it.
   */
  async query(
    caller: Caller,
    projectRef: string,
    query: PerfQuery,
    format: PerfFormat,
    ifNoneMatch?: string,
  ): Promise<PerfAnswer> {
    if (query.fields !== 'all' && format === 'csv') {
      throw new InputError(
        `fields=${query.fields} applies to JSON and Arrow answers only; CSV always carries every field`,
      );
    }
    const input = await readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const selection = await resolvePerf(r, project, query);
      const columns = await cappedPerf(r, { ...selection.request, metricUuids: query.fields === 'all' });
      return shapeInput(r, project, selection.permutations, columns, query, format);
    });
    const etag = perfEtag(input, format);
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return { etag, bytes: undefined };
    return { etag, bytes: await this.ctx.perfShaper(input, format) };
  }

  /**
   * A PNG or SVG of up to 8 series of one measure. The ETag covers the query and a fingerprint of the data, so a
   * repeated request for unchanged data is answered from the cache (or with 304) without rendering.
   */
  async image(
    caller: Caller,
    projectRef: string,
    keys: PerfKeys,
    options: PerfImageOptions,
    ifNoneMatch?: string,
  ): Promise<PerfImage> {
    const format = options.format ?? 'png';
    // The read gathers what to draw; rendering runs after it, so a slow render holds no reader connection.
    const found = await readProjectData(
      this.ctx.storage,
      caller,
      projectRef,
      async (r, { project }): Promise<PerfImage | ImageToRender> => {
        const selection = await resolvePerf(r, project, keys);
        if (selection.permutations.length > PERF_IMAGE_LINES_MAX) {
          throw new InputError(
            `a perf image draws at most ${PERF_IMAGE_LINES_MAX} lines; this selection has ${selection.permutations.length}: select fewer branches, testbeds or benchmarks`,
          );
        }
        const lines = await cappedLines(r, selection.request);
        const ranges = permutationRanges(lines, selection.permutations.length);
        const plain = imageInput(selection.permutations, lines, ranges, keys, options);
        const input = options.regressions
          ? await withRegressionMarks(r, project, selection.permutations, lines, ranges, plain)
          : plain;
        const key = JSON.stringify([
          project.id,
          selection.request.series,
          selection.request.heads,
          keys.start_time,
          keys.end_time,
          options,
        ]);
        const etag = imageEtag(input, options);
        const isPublic = project.visibility === 'public';
        if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag))
          return { etag, format, bytes: undefined, public: isPublic };
        const cached = this.#images.get(key);
        if (cached?.etag === etag) return { etag, format, bytes: cached.bytes, public: isPublic };
        return { etag, public: isPublic, key, input, values: lines.value, ranges };
      },
    );
    if (!('input' in found)) return found;
    const { input, values, ranges } = found;
    const changes = options.changes ? await this.#changes(values, ranges) : undefined;
    const bytes = await this.ctx.renderImage(
      changes ? { ...input, series: input.series.map((s, k) => ({ ...s, changes: changes[k] })) } : input,
    );
    this.#images.set(found.key, { etag: found.etag, bytes });
    return { etag: found.etag, format, bytes, public: found.public };
  }

  /** Each permutation's change points, detected in a worker with the default settings. */
  async #changes(value: Float64Array, ranges: readonly Range[]): Promise<ImageChange[][]> {
    const offsets = new Uint32Array(ranges.length + 1);
    ranges.forEach((r, k) => (offsets[k + 1] = (offsets[k] as number) + r.to - r.from));
    const values = new Float64Array(offsets[ranges.length] as number);
    ranges.forEach((r, k) => values.set(value.subarray(r.from, r.to), offsets[k] as number));
    const found = await this.ctx.changePoints({ offsets, values, params: DETECTION_DEFAULTS });
    return ranges.map((_, k) =>
      Array.from({ length: (found.offsets[k + 1] as number) - (found.offsets[k] as number) }, (_, j) => {
        const row = (found.offsets[k] as number) + j;
        return {
          index: found.index[row] as number,
          before: found.before[row] as number,
          after: found.after[row] as number,
        };
      }),
    );
  }
}

/** An image the cache did not hold: what to draw (read in the transaction, drawn after it), and where to keep it. */
interface ImageToRender {
  readonly etag: string;
  readonly public: boolean;
  readonly key: string;
  /** Everything but the change points, which come from the values after the read. */
  readonly input: PlotImageInput;
  readonly values: Float64Array;
  readonly ranges: readonly Range[];
}

/**
 * Refuses a capped read that answered no points when its selection is not empty: storage answers none for a
 * selection of more than {@link PERF_POINTS_MAX} points, having stopped its scan one past the cap without ordering
 * or joining it, and a count that stops at the first point tells that from an empty selection (same snapshot).
 */
async function refuseOversized(r: ReadRepositories, request: PerfRequest, count: number): Promise<void> {
  if (count === 0 && (await r.metrics.perfCount({ ...request, limit: 1 })) > 0) throw tooManyPoints();
}

/** The points of a perf request, refused when there are more than {@link PERF_POINTS_MAX}, in one read. */
async function cappedPerf(r: ReadRepositories, request: PerfRequest): Promise<PerfColumns> {
  const columns = await r.metrics.perf({ ...request, cap: PERF_POINTS_MAX });
  await refuseOversized(r, request, columns.count);
  return columns;
}

function tooManyPoints(): InputError {
  return new InputError(
    `this perf query matches more than ${PERF_POINTS_MAX} points, the most one answer holds; narrow it: a shorter time range (start_time and end_time, epoch milliseconds), or fewer branches, testbeds, benchmarks or measures, and ask for the rest in further queries`,
  );
}

/** What a perf image draws, refused like {@link cappedPerf}. */
async function cappedLines(r: ReadRepositories, request: PerfRequest): Promise<PerfLines> {
  const lines = await r.metrics.perfLines({ ...request, cap: PERF_POINTS_MAX });
  await refuseOversized(r, request, lines.count);
  return lines;
}

/**
 * The ETag of a perf answer: SHA-256 of its shaper's whole input and the format, which is everything its bytes
 * are made of, and of the release (a new version may shape the same input otherwise). Hashing costs a fraction of
 * the shaping, compression and transfer a match saves (docs/performance.md has the figures).
 */
function perfEtag(input: PerfShapeInput, format: PerfFormat): string {
  const { columns: c } = input;
  const hash = createHash('sha256').update(
    JSON.stringify([
      packageInfo().version,
      format,
      input.fields ?? 'all',
      input.head,
      input.prefixes,
      input.names,
      input.thresholds,
      c.count,
      c.hash,
      c.alert,
      c.alertLimit,
      c.alertStatus,
    ]),
  );
  for (const column of fixedWidthColumns(c)) {
    hash.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
    hash.update('|');
  }
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names `etag` (a list, weak validators and `*` included, RFC 9110 13.1.2). */
function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * The ETag of an image: a hash of everything it draws (labels, measure, every point's x, value, limits and alert
 * flag) and how (the options), so any change to what it shows gives a new one, and nothing else does.
 */
function imageEtag(input: PlotImageInput, options: PerfImageOptions): string {
  const hash = createHash('sha256').update(JSON.stringify([options, input.measure, input.xRange]));
  for (const s of input.series) {
    hash.update(JSON.stringify([s.label, s.regressions ?? null, s.change ?? null]));
    for (const column of [s.x, s.y, s.lower, s.upper, s.alert]) {
      if (column) hash.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
      hash.update('|');
    }
  }
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/** Everything the shaper needs besides the points: per permutation its dimensions' JSON, threshold models' JSON. */
async function shapeInput(
  r: ReadRepositories,
  project: ProjectRecord,
  permutations: readonly Permutation[],
  columns: PerfColumns,
  query: PerfQuery,
  format: PerfFormat,
): Promise<PerfShapeInput> {
  const branches = new Map<string, string>();
  const prefixes: string[] = [];
  for (const p of permutations) {
    const key = `${p.branch.id}:${p.head.id}`;
    let branch = branches.get(key);
    if (!branch) branches.set(key, (branch = JSON.stringify(await branchJson(r, project, p.branch, p.head))));
    prefixes.push(
      `{"branch":${branch},"testbed":${JSON.stringify(dimensionJson(project, p.testbed))},"benchmark":${JSON.stringify(dimensionJson(project, p.benchmark))},"measure":${JSON.stringify(measureJson(project, p.measure))},`,
    );
  }
  // only JSON carries threshold models: CSV and Arrow never read them, so their points are not scanned for them
  const thresholds: Record<string, string> | null = query.threshold_models && format === 'json' ? {} : null;
  for (let i = 0; thresholds && i < columns.count; i++) {
    // most points have no threshold, or the one before them: no key text for those
    if (!columns.threshold[i]) continue;
    if (
      i > 0 &&
      columns.threshold[i] === columns.threshold[i - 1] &&
      columns.model[i] === columns.model[i - 1]
    )
      continue;
    const key = `${columns.threshold[i]}:${columns.model[i]}`;
    if (key in thresholds) continue;
    const threshold = await r.thresholds.find({ id: columns.threshold[i] as number });
    const model = await r.models.find({ id: columns.model[i] as number });
    thresholds[key] =
      threshold && model ? JSON.stringify(thresholdModelJson(project, { threshold, model })) : 'null';
  }
  const organization = await r.organizations.find({ id: project.organization_id });
  const time = (ms: number | undefined) => (ms === undefined ? 'null' : `"${new Date(ms).toISOString()}"`);
  return {
    columns,
    prefixes,
    names: permutations.map(
      (p) => [p.branch.name, p.testbed.name, p.benchmark.name, p.measure.name] as const,
    ),
    thresholds,
    fields: query.fields,
    head: `{"project":${JSON.stringify(projectJson(project, organization ?? { uuid: '' }))},"start_time":${time(query.start_time)},"end_time":${time(query.end_time)},"results":[`,
  };
}

interface Range {
  from: number;
  to: number;
}
type ImageChange = NonNullable<PlotImageInput['series'][number]['changes']>[number];

/** Each permutation's rows in the perf columns (consecutive, oldest first); empty ones are 0..0. */
function permutationRanges(c: Pick<PerfLines, 'count' | 'permutation'>, count: number): Range[] {
  const ranges = Array.from({ length: count }, () => ({ from: 0, to: 0 }));
  for (let i = 0; i < c.count; i++) {
    const range = ranges[c.permutation[i] as number] as Range;
    if (range.to === 0) range.from = i;
    range.to = i + 1;
  }
  return ranges;
}

/** The statuses whose regressions an image marks: real changes, whatever their triage. */
const MARKED: readonly RegressionStatus[] = ['untriaged', 'acknowledged', 'fixed', 'expected'];

/**
 * The image's series with the regressions that hold them, each at the series' first point at or after its first
 * bad version: one listing per line (an image has at most eight), one after the other on the read's connection.
 */
async function withRegressionMarks(
  r: ReadRepositories,
  project: ProjectRecord,
  permutations: readonly Permutation[],
  c: PerfLines,
  ranges: readonly Range[],
  input: PlotImageInput,
): Promise<PlotImageInput> {
  const series: PlotImageInput['series'] = [];
  for (const [k, s] of input.series.entries()) {
    const regressions = await regressionMarks(
      r,
      project,
      permutations[k] as Permutation,
      c,
      ranges[k] as Range,
    );
    series.push(regressions.length === 0 ? s : { ...s, regressions });
  }
  return { ...input, series };
}

async function regressionMarks(
  r: ReadRepositories,
  project: ProjectRecord,
  p: Permutation,
  c: PerfLines,
  { from, to }: Range,
): Promise<{ index: number; kind: RegressionKind }[]> {
  const found = await r.regressions.listFiltered(
    {
      project_id: project.id,
      statuses: MARKED,
      branch_id: p.branch.id,
      testbed_id: p.testbed.id,
      benchmark_id: p.benchmark.id,
      measure_id: p.measure.id,
    },
    { page: 1, perPage: 255, sort: 'version', direction: 'asc' },
  );
  if (found.items.length === 0) return [];
  const versions = await r.versions.all({ id: found.items.map((x) => x.first_bad_version_id) });
  const numbers = new Map(versions.map((v) => [v.id, v.number]));
  return found.items.flatMap((x) => {
    const number = numbers.get(x.first_bad_version_id);
    if (number === undefined) return [];
    for (let i = from; i < to; i++)
      if ((c.version[i] as number) >= number) return [{ index: i - from, kind: x.kind }];
    return [];
  });
}

/** The renderer's input: theme and format, one line per permutation, x by time or version, limits, alert markers. */
function imageInput(
  permutations: readonly Permutation[],
  c: PerfLines,
  ranges: readonly Range[],
  keys: PerfKeys,
  options: PerfImageOptions,
): PlotImageInput {
  const measure = permutations[0]?.measure;
  return {
    ...(options.title ? { title: options.title } : {}),
    ...(options.width ? { width: options.width } : {}),
    ...(options.height ? { height: options.height } : {}),
    xAxis: options.x_axis,
    yAxis: options.y_axis,
    theme: options.theme ?? 'light',
    format: options.format ?? 'png',
    measure: { name: measure?.name ?? 'Measure', units: measure?.units ?? '' },
    ...(options.x_axis === 'date_time' && (keys.start_time !== undefined || keys.end_time !== undefined)
      ? {
          xRange: {
            ...(keys.start_time !== undefined ? { start: keys.start_time } : {}),
            ...(keys.end_time !== undefined ? { end: keys.end_time } : {}),
          },
        }
      : {}),
    series: permutations.map((p, k) => {
      const { from, to } = ranges[k] as Range;
      const x =
        options.x_axis === 'version'
          ? Float64Array.from(c.version.subarray(from, to))
          : c.start.slice(from, to);
      return {
        label: `${p.branch.name} / ${p.testbed.name} / ${p.benchmark.name}`,
        x,
        y: c.value.slice(from, to),
        ...(options.boundaries === false
          ? {}
          : { lower: c.lowerLimit.slice(from, to), upper: c.upperLimit.slice(from, to) }),
        alert: c.alert.slice(from, to),
        ...changeFromBaseline(c, to - 1, from),
      };
    }),
  };
}

/** The change from the baseline of a series' newest point (index `last`), when it has a baseline to differ from. */
function changeFromBaseline(c: PerfLines, last: number, first: number): { change?: number } {
  if (last < first) return {};
  const value = c.value[last] as number;
  const baseline = c.baseline[last] as number;
  const change = ((value - baseline) / Math.abs(baseline)) * 100;
  return Number.isFinite(change) ? { change } : {};
}
