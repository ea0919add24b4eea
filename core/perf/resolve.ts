import { NotFoundError, InputError } from '../errors.js';
import { findByNameId } from '../dimensions/name-id.js';
import { matchNamed } from '../reports/names.js';
import { PERF_PERMUTATIONS_MAX } from '../schemas/perf.js';
import { isUuid } from '../slug.js';
import type {
  BranchRecord,
  DimensionKind,
  DimensionRecord,
  HeadRecord,
  MeasureRecord,
  PerfRequest,
  ProjectRecord,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';

export interface Permutation {
  readonly branch: BranchRecord;
  readonly head: HeadRecord;
  readonly testbed: DimensionRecord;
  readonly benchmark: DimensionRecord;
  readonly measure: MeasureRecord;
}

export interface PerfSelection {
  /** Permutations that have a series (a testbed x benchmark x measure with data), in request order. */
  readonly permutations: readonly Permutation[];
  readonly request: PerfRequest;
}

export interface PerfKeys {
  readonly branches: readonly string[];
  readonly heads: readonly string[];
  readonly testbeds: readonly string[];
  readonly benchmarks: readonly string[];
  readonly measures: readonly string[];
  readonly start_time?: number | undefined;
  readonly end_time?: number | undefined;
}

async function resolveMany(
  r: ReadRepositories,
  kind: DimensionKind,
  projectId: number,
  keys: readonly string[],
) {
  const { found, missing } = matchNamed(kind, keys, await r.named.findMany(kind, projectId, keys));
  if (missing.length > 0) {
    throw new NotFoundError(
      `${kind}${missing.length > 1 ? 'es' : ''} not found in this project: ${missing.map((k) => `"${k}"`).join(', ')}`,
    );
  }
  return keys.map((key) => found.get(key) as DimensionRecord);
}

async function resolveHeads(
  r: ReadRepositories,
  branches: readonly BranchRecord[],
  heads: readonly string[],
) {
  const out: HeadRecord[] = [];
  for (const [i, branch] of branches.entries()) {
    const ref = heads[i];
    const head = ref
      ? isUuid(ref)
        ? await r.heads.find({ uuid: ref.toLowerCase(), branch_id: branch.id })
        : undefined
      : await r.heads.find({ id: branch.head_id as number });
    if (!head) throw new NotFoundError(`head "${ref}" of branch "${branch.slug}" not found`);
    out.push(head);
  }
  return out;
}

/** Records in first-seen order without repeats (one benchmark named by slug and by UUID is one benchmark). */
function distinct<R extends { id: number }>(records: readonly R[]): R[] {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}

/**
 * Repeated keys name nothing new: `benchmarks=a,a,...,a` is one benchmark. Branches keep their head (an empty
 * head means the current one), so `main` with two different heads stays two lines.
 */
function distinctKeys(keys: PerfKeys): PerfKeys {
  const branches = new Map<string, string>();
  keys.branches.forEach((branch, i) => {
    const head = keys.heads[i] ?? '';
    branches.set(`${branch}\u0000${head}`, head);
  });
  const unique = (list: readonly string[]) => [...new Set(list)];
  return {
    ...keys,
    branches: [...branches.keys()].map((key) => key.slice(0, key.indexOf('\u0000'))),
    heads: [...branches.values()],
    testbeds: unique(keys.testbeds),
    benchmarks: unique(keys.benchmarks),
    measures: unique(keys.measures),
  };
}

/**
 * Resolves a perf query: branches (and heads), testbeds, benchmarks and measures by UUID, slug or name, the
 * cartesian product in request order (branch, testbed, benchmark, measure), capped at 255 permutations, and the
 * series behind each (permutations without a series have no data and are left out).
 */
export async function resolvePerf(
  r: ReadRepositories,
  project: ProjectRecord,
  requested: PerfKeys,
): Promise<PerfSelection> {
  const keys = distinctKeys(requested);
  const total = keys.branches.length * keys.testbeds.length * keys.benchmarks.length * keys.measures.length;
  if (total > PERF_PERMUTATIONS_MAX) {
    throw new InputError(
      `a perf query covers at most ${PERF_PERMUTATIONS_MAX} permutations of branches x testbeds x benchmarks x measures; this one has ${total} (${keys.branches.length} x ${keys.testbeds.length} x ${keys.benchmarks.length} x ${keys.measures.length}): select fewer`,
    );
  }
  const branches: BranchRecord[] = [];
  for (const key of keys.branches) {
    const branch = await findByNameId(r.branches, project.id, key);
    if (!branch) throw new NotFoundError(`branch "${key}" not found in this project`);
    branches.push(branch);
  }
  const resolvedHeads = await resolveHeads(r, branches, keys.heads);
  // the same branch head named twice (by slug and by UUID, say) is one line, like any other repeated key
  const seen = new Set<number>();
  const lines = branches
    .map((branch, i) => ({ branch, head: resolvedHeads[i] as HeadRecord }))
    .filter(({ head }) => !seen.has(head.id) && seen.add(head.id));
  const testbeds = distinct(await resolveMany(r, 'testbed', project.id, keys.testbeds));
  const benchmarks = distinct(await resolveMany(r, 'benchmark', project.id, keys.benchmarks));
  const measures = distinct(await resolveMany(r, 'measure', project.id, keys.measures)) as MeasureRecord[];
  const series = await r.series.all({
    testbed_id: testbeds.map((t) => t.id),
    benchmark_id: benchmarks.map((b) => b.id),
    measure_id: measures.map((m) => m.id),
  });
  const seriesId = new Map(series.map((s) => [`${s.testbed_id}:${s.benchmark_id}:${s.measure_id}`, s.id]));
  const permutations: Permutation[] = [];
  const ids: number[] = [];
  const headIds: number[] = [];
  for (const { branch, head } of lines) {
    for (const testbed of testbeds) {
      for (const benchmark of benchmarks) {
        for (const measure of measures) {
          const id = seriesId.get(`${testbed.id}:${benchmark.id}:${measure.id}`);
          if (id === undefined) continue;
          permutations.push({ branch, head, testbed, benchmark, measure });
          ids.push(id);
          headIds.push(head.id);
        }
      }
    }
  }
  return {
    permutations,
    request: {
      series: Int32Array.from(ids),
      heads: Int32Array.from(headIds),
      start: keys.start_time,
      end: keys.end_time,
    },
  };
}
