import { describe, expect, it } from 'vitest';
import type { ReadRepositories } from '../storage/storage.js';
import { heldRepositories, NOT_HELD } from './held.js';
import type { Ingested } from './ingested.js';

const benchmark = (id: number) => ({ id, name: `b${id}` });
const measure = { id: 9, name: 'latency' };
const data = {
  branch: { id: 1, name: 'main' },
  head: { id: 2 },
  version: { id: 3, number: 4 },
  testbed: { id: 5, name: 'linux' },
  metrics: [
    { benchmark: benchmark(11), measure },
    { benchmark: benchmark(12), measure },
  ],
  alerts: [{ alert: { id: 21 } }],
  held: { organization: { id: 6 }, latestVersion: undefined },
} as unknown as Ingested;

describe('heldRepositories', () => {
  it('answers lookups by id from what ingest holds and reads only the rest', async () => {
    const calls: string[] = [];
    const stored = {
      alerts: {
        async all(where: object) {
          calls.push(`alerts.all ${JSON.stringify(where)}`);
          return [{ id: 22 }];
        },
        async find(where: object) {
          calls.push(`alerts.find ${JSON.stringify(where)}`);
          return undefined;
        },
      },
      named: {
        async byIds(kind: string, ids: number[]) {
          calls.push(`named.byIds ${kind} ${ids.join(',')}`);
          return ids.map(benchmark);
        },
      },
      heads: {
        async latestVersion(head: number) {
          calls.push(`heads.latestVersion ${head}`);
          return { id: 3 };
        },
      },
      regressionSeries: {
        async all() {
          calls.push('regressionSeries.all');
          return [];
        },
      },
    } as unknown as ReadRepositories;
    const r = heldRepositories(data, stored);
    expect(await r.branches.find({ id: 1 })).toBe(data.branch);
    expect(await r.alerts.all({ id: [21] })).toEqual([{ id: 21 }]);
    expect(await r.alerts.all({ id: [21, 22, 21] })).toEqual([{ id: 21 }, { id: 22 }]);
    await r.alerts.find({ uuid: 'x' });
    // every benchmark once, however many metrics hold it
    expect(await r.named.byIds('measure', [9, 9])).toEqual([measure]);
    expect(await r.named.byIds('benchmark', [12, 13])).toEqual([benchmark(12), benchmark(13)]);
    await r.heads.latestVersion(2);
    await r.regressionSeries.all({ regression_id: [1] });
    expect(calls).toEqual([
      'alerts.all {"id":[22]}',
      'alerts.find {"uuid":"x"}',
      'named.byIds benchmark 13',
      'heads.latestVersion 2',
      'regressionSeries.all',
    ]);
  });

  it('is NOT_HELD for anything else when there is no read transaction', async () => {
    const r = heldRepositories(data);
    expect(await r.testbeds.find({ id: 5 })).toBe(data.testbed);
    expect(await r.organizations.find({ id: 6 })).toEqual({ id: 6 });
    await expect(r.testbeds.find({ id: 7 })).rejects.toBe(NOT_HELD);
    await expect(r.alerts.all({ id: [21, 22] })).rejects.toBe(NOT_HELD);
    await expect(r.heads.latestVersion(2)).rejects.toBe(NOT_HELD);
    await expect(r.regressionSeries.all({ regression_id: [1] })).rejects.toBe(NOT_HELD);
    await expect(r.named.byIds('benchmark', [11, 12])).resolves.toHaveLength(2);
  });
});
