import { describe, expect, it } from 'vitest';
import { SchemaProbe } from './schema-probe.js';
import type { Storage } from './storage.js';

describe('SchemaProbe', () => {
  it('reads the database at most once per 5 s, however often it is asked', async () => {
    let reads = 0;
    let failing = false;
    const storage: Pick<Storage, 'read'> = {
      read: async () => {
        reads += 1;
        if (failing) throw new Error('Catalog Error: Table with name alert does not exist!');
        return undefined as never;
      },
    };
    let now = 0;
    const probe = new SchemaProbe(storage, () => now);
    expect(await Promise.all([probe.ok(), probe.ok(), probe.ok()])).toEqual([true, true, true]);
    failing = true;
    now = 4_999;
    expect(await probe.ok()).toBe(true);
    expect(reads).toBe(1);
    now = 5_000;
    expect(await probe.ok()).toBe(false);
    expect(reads).toBe(2);
  });
});
