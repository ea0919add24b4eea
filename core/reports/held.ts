import type { DimensionKind, DimensionRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { Ingested } from './ingested.js';

/** A lookup of a record ingest does not hold, made with no read transaction to answer it. */
export const NOT_HELD = Symbol('not held by ingest');

type Records<R = { readonly id: number }> = ReadonlyMap<unknown, R>;

/** `repository[method](...args)`, or NOT_HELD without a repository. */
function pass<T>(repository: object | undefined, method: PropertyKey, ...args: unknown[]): Promise<T> {
  const call =
    repository && (Reflect.get(repository, method) as ((...a: unknown[]) => Promise<T>) | undefined);
  return call ? call.apply(repository, args) : Promise.reject(NOT_HELD);
}

/** The ids a `where` of `find` or `all` asks for, when it filters on the id alone. */
function idsOf(where: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const keys = Object.keys(where);
  if (keys.length !== 1 || keys[0] !== 'id') return undefined;
  return Array.isArray(where.id) ? [...new Set(where.id)] : [where.id];
}

/** Records by id, each once. */
function held<R extends { readonly id: number }>(records: readonly (R | undefined)[]): Records<R> {
  return new Map(records.flatMap((r) => (r ? [[r.id, r] as const] : [])));
}

/** The records with these ids: those held, and the others as `read(missing)` finds them. */
async function byIds<R>(
  records: Records<R>,
  ids: readonly unknown[],
  read: (missing: unknown[]) => Promise<R[]>,
): Promise<R[]> {
  const found = ids.flatMap((id) => records.get(id) ?? []);
  const missing = ids.filter((id) => !records.has(id));
  return missing.length === 0 ? found : [...found, ...(await read(missing))];
}

/**
 * `repository` with `find` and `all` by id answered from `records` first, and `more` in place of its methods; its
 * other calls pass through.
 */
function table<R extends object>(records: Records, repository: R | undefined, more: Partial<R> = {}): R {
  const own: Record<PropertyKey, unknown> = {
    find: async (where: Readonly<Record<string, unknown>>) => {
      const ids = idsOf(where);
      const found = ids?.length === 1 ? records.get(ids[0]) : undefined;
      return found ?? pass(repository, 'find', where);
    },
    all: async (where: Readonly<Record<string, unknown>>) => {
      const ids = idsOf(where);
      if (!ids) return pass(repository, 'all', where);
      return byIds(records, ids, (missing) => pass(repository, 'all', { id: missing }));
    },
    ...more,
  };
  return new Proxy(own, {
    get: (target, method) => target[method] ?? ((...args: unknown[]) => pass(repository, method, ...args)),
  }) as R;
}

/**
 * Read repositories over the records a report's ingest holds once it committed: its organization, branch, head,
 * version, testbed, benchmarks, measures and alerts, and the head's newest version when ingest created it. Ingest
 * keeps them as it stored them, so they answer what a read right after the commit would. Lookups by id of held
 * records are answered from them; every other call goes to `stored` (a read transaction), or is NOT_HELD without
 * one: the answer to a report is built without a transaction when ingest holds every record it shows.
 */
export function heldRepositories(data: Ingested, stored?: ReadRepositories): ReadRepositories {
  const latest = data.held?.latestVersion;
  const named: Record<DimensionKind, Records<DimensionRecord>> = {
    branch: held([data.branch]),
    testbed: held([data.testbed]),
    benchmark: held(data.metrics.map((m) => m.benchmark)),
    measure: held(data.metrics.map((m) => m.measure)),
  };
  const repositories: Partial<ReadRepositories> = {
    organizations: table(held([data.held?.organization]), stored?.organizations),
    branches: table(named.branch, stored?.branches),
    heads: table(held([data.head]), stored?.heads, {
      latestVersion: (headId) =>
        headId === data.head.id && latest
          ? Promise.resolve(latest)
          : pass(stored?.heads, 'latestVersion', headId),
    }),
    versions: table(held([data.version]), stored?.versions),
    testbeds: table(named.testbed, stored?.testbeds),
    benchmarks: table(named.benchmark, stored?.benchmarks),
    measures: table(named.measure, stored?.measures),
    alerts: table(held(data.alerts.map((a) => a.alert)), stored?.alerts),
    named: table(new Map(), stored?.named, {
      byIds: (kind, ids) =>
        byIds(named[kind], [...new Set(ids)], (missing) => pass(stored?.named, 'byIds', kind, missing)),
    }),
  };
  return new Proxy(repositories, {
    get: (target, name: keyof ReadRepositories) =>
      target[name] ?? stored?.[name] ?? table(new Map(), undefined),
  }) as ReadRepositories;
}
