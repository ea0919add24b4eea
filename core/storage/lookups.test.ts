import { describe, expect, it } from 'vitest';
import { withLookupsOnce } from './lookups.js';
import type { ReadRepositories } from './storage.js';

describe('withLookupsOnce', () => {
  it('answers find, byIds and latestVersion once per arguments, and passes every other call through', async () => {
    const calls: string[] = [];
    const repositories = {
      branches: {
        prefix: 'b',
        async find(where: object) {
          calls.push(`find ${JSON.stringify(where)}`);
          return { ...where, name: this.prefix };
        },
        async all() {
          calls.push('all');
          return [];
        },
      },
      heads: {
        async latestVersion(headId: number) {
          calls.push(`latestVersion ${headId}`);
          return { number: headId };
        },
      },
      metrics: {
        async byIds(ids: readonly bigint[]) {
          calls.push(`byIds ${ids.join(',')}`);
          return ids.map((id) => ({ id }));
        },
      },
    };
    const r = withLookupsOnce(repositories as unknown as ReadRepositories) as unknown as typeof repositories;
    const first = await r.branches.find({ id: 1 });
    expect(first).toEqual({ id: 1, name: 'b' });
    expect(await r.branches.find({ id: 1 })).toBe(first);
    await r.branches.find({ id: 2 });
    await r.branches.all();
    await r.branches.all();
    await r.metrics.byIds([1n, 2n]);
    await r.metrics.byIds([1n, 2n]);
    await r.metrics.byIds([2n]);
    await r.heads.latestVersion(7);
    await r.heads.latestVersion(7);
    expect(calls).toEqual([
      'find {"id":1}',
      'find {"id":2}',
      'all',
      'all',
      'byIds 1,2',
      'byIds 2',
      'latestVersion 7',
    ]);
    // a second wrapper answers afresh: answers live as long as the read they were made for
    await withLookupsOnce(repositories as unknown as ReadRepositories).branches.find({ id: 1 });
    expect(calls.at(-1)).toBe('find {"id":1}');
  });
});
