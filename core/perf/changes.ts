import { createHash } from 'node:crypto';
import type { Caller } from '../access/permissions.js';
import type { ChangePointColumns } from '../detection/columns.js';
import type { DetectionParams } from '../detection/detect.js';
import { relativeChange } from '../detection/series-input.js';
import { branchJson, dimensionJson, measureJson } from '../dimensions/json.js';
import { projectJson } from '../schemas/accounts.js';
import type { PerfChangesJson, PerfChangesQuery } from '../schemas/changes.js';
import type { ServiceContext } from '../services/context.js';
import type { PerfColumns } from '../storage/records.js';
import { resolvePerf } from './resolve.js';
import { uuidAt } from './shape.js';
import { readProjectData } from '../access/project-data.js';

/** Series whose change points are remembered (the least recently used are forgotten first). */
const CACHE_SIZE = 4096;

type Found = Pick<ChangePointColumns, 'index' | 'before' | 'after' | 'pValue'>;

/**
 * Change points of the series a perf query selects. Detection runs in worker threads; each series' answer is
 * cached under its identity, time window and settings, and reused while a fingerprint of its points (every
 * value and metric UUID) is unchanged, so only series with new or deleted data are detected again.
 */
export class PerfChangesService {
  readonly #cache = new Map<string, { fingerprint: string; found: Found }>();

  constructor(private readonly ctx: ServiceContext) {}

  async changes(caller: Caller, projectRef: string, query: PerfChangesQuery): Promise<PerfChangesJson> {
    const { window_len, max_pvalue, min_magnitude } = query;
    const params: DetectionParams = { window_len, max_pvalue, min_magnitude };
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const selection = await resolvePerf(r, project, query);
      const c = await r.metrics.perf(selection.request);
      const ranges = seriesRanges(c, selection.permutations.length);
      const keys = selection.permutations.map((p) =>
        JSON.stringify([
          project.id,
          p.branch.id,
          p.head.id,
          p.testbed.id,
          p.benchmark.id,
          p.measure.id,
          query.start_time,
          query.end_time,
          params,
        ]),
      );
      const found = await this.#detect(c, ranges, keys, params);
      const organization = await r.organizations.find({ id: project.organization_id });
      const results = [];
      for (const [k, p] of selection.permutations.entries()) {
        const { from, to } = ranges[k] as Range;
        if (to === from) continue;
        results.push({
          branch: await branchJson(r, project, p.branch, p.head),
          testbed: dimensionJson(project, p.testbed),
          benchmark: dimensionJson(project, p.benchmark),
          measure: measureJson(project, p.measure),
          points: to - from,
          change_points: changePointsJson(c, from, found[k] as Found),
        });
      }
      const time = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
      return {
        project: projectJson(project, organization ?? { uuid: '' }),
        start_time: time(query.start_time),
        end_time: time(query.end_time),
        results,
      } as PerfChangesJson;
    });
  }

  /** Each series' change points: from the cache when its points are unchanged, the rest in one worker job. */
  async #detect(c: PerfColumns, ranges: Range[], keys: string[], params: DetectionParams): Promise<Found[]> {
    const found: (Found | undefined)[] = [];
    const fingerprints = ranges.map(({ from, to }) => fingerprint(c, from, to));
    const missing: number[] = [];
    ranges.forEach((_, k) => {
      const cached = this.#cache.get(keys[k] as string);
      if (cached !== undefined && cached.fingerprint === fingerprints[k]) {
        this.#cache.delete(keys[k] as string);
        this.#cache.set(keys[k] as string, cached);
        found[k] = cached.found;
      } else missing.push(k);
    });
    if (missing.length > 0) {
      const offsets = new Uint32Array(missing.length + 1);
      missing.forEach((k, j) => (offsets[j + 1] = (offsets[j] as number) + ranges[k]!.to - ranges[k]!.from));
      const values = new Float64Array(offsets[missing.length] as number);
      missing.forEach((k, j) => values.set(c.value.subarray(ranges[k]!.from, ranges[k]!.to), offsets[j]));
      const columns = await this.ctx.changePoints({ offsets, values, params });
      missing.forEach((k, j) => {
        const [start, end] = [columns.offsets[j] as number, columns.offsets[j + 1] as number];
        const one: Found = {
          index: columns.index.slice(start, end),
          before: columns.before.slice(start, end),
          after: columns.after.slice(start, end),
          pValue: columns.pValue.slice(start, end),
        };
        found[k] = one;
        this.#remember(keys[k] as string, { fingerprint: fingerprints[k] as string, found: one });
      });
    }
    return found as Found[];
  }

  #remember(key: string, entry: { fingerprint: string; found: Found }): void {
    this.#cache.delete(key);
    this.#cache.set(key, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string);
  }
}

interface Range {
  readonly from: number;
  readonly to: number;
}

/** Rows [from, to) of each permutation; the perf query returns them grouped by permutation, oldest first. */
function seriesRanges(c: PerfColumns, permutations: number): Range[] {
  const ranges = Array.from({ length: permutations }, () => ({ from: 0, to: 0 }));
  for (let i = 0; i < c.count; i++) {
    const range = ranges[c.permutation[i] as number] as { from: number; to: number };
    if (range.to === 0) range.from = i;
    range.to = i + 1;
  }
  return ranges;
}

/** A hash of a series' values and metric UUIDs: any added, deleted or changed point changes it. */
function fingerprint(c: PerfColumns, from: number, to: number): string {
  const hash = createHash('sha1');
  const values = c.value.subarray(from, to);
  hash.update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  for (let k = 0; k < 4; k++) {
    const words = c.uuid.subarray(k * c.count + from, k * c.count + to);
    hash.update(new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  }
  return hash.digest('base64url');
}

function changePointsJson(c: PerfColumns, from: number, found: Found) {
  return Array.from(found.index, (index, j) => {
    const i = from + index;
    const before = found.before[j] as number;
    const after = found.after[j] as number;
    return {
      index,
      report: uuidAt(c.report, c.count, i),
      iteration: c.iteration[i] as number,
      start_time: new Date(c.start[i] as number).toISOString(),
      version: { number: c.version[i] as number, hash: c.hash[i] ?? null },
      metric: {
        uuid: uuidAt(c.uuid, c.count, i),
        value: c.value[i] as number,
        lower_value: nullable(c.lower[i] as number),
        upper_value: nullable(c.upper[i] as number),
      },
      before,
      after,
      change: relativeChange(before, after),
      p_value: found.pValue[j] as number,
    };
  });
}

const nullable = (value: number) => (Number.isFinite(value) ? value : null);
