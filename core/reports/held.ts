import type { ReadRepositories } from '../storage/storage.js';
import type { Ingested } from './ingested.js';

/** A lookup of a record ingest does not hold: the answer is then rendered in a read transaction instead. */
export const NOT_HELD = Symbol('not held by ingest');

/** `find({ id })` answered from `records`; any other lookup is NOT_HELD. */
function byId<R extends { readonly id: number }>(records: readonly (R | undefined)[]) {
  return {
    find(where: Readonly<Record<string, unknown>>): Promise<R> {
      const keys = Object.keys(where);
      const found =
        keys.length === 1 && keys[0] === 'id' ? records.find((r) => r?.id === where.id) : undefined;
      return found ? Promise.resolve(found) : Promise.reject(NOT_HELD);
    },
  };
}

/** Every method of every repository not listed: NOT_HELD. */
const notHeld: unknown = new Proxy({}, { get: () => () => Promise.reject(NOT_HELD) });

/**
 * Read repositories over the records a report's ingest holds once it committed: its organization, branch, head,
 * testbed and measures, and the head's newest version when ingest created it. Ingest keeps them as it stored
 * them, so they answer what a read right after the commit would, and the answer to the report (thresholds of its
 * alerts included) is built without a second transaction that reads them again. Anything else (a start point,
 * the report of a change point's metric) is NOT_HELD.
 */
export function heldRepositories(data: Ingested): ReadRepositories {
  const latest = data.held?.latestVersion;
  const repositories = {
    organizations: byId([data.held?.organization]),
    branches: byId([data.branch]),
    heads: {
      ...byId([data.head]),
      latestVersion: (headId: number) =>
        headId === data.head.id && latest ? Promise.resolve(latest) : Promise.reject(NOT_HELD),
    },
    testbeds: byId([data.testbed]),
    measures: byId(data.metrics.map((m) => m.measure)),
  };
  return new Proxy(repositories, {
    get: (target, name) => (Reflect.get(target, name) as unknown) ?? notHeld,
  }) as unknown as ReadRepositories;
}
