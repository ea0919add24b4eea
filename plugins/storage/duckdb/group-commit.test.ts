import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/index.js';
import { Database } from './database.js';
import { query } from './sql.js';

const logger = createLogger({ name: 'test', log: { mode: 'stderr_terminal', level: 'error' } });
const root = mkdtempSync(join(tmpdir(), 'benchtrack-group-'));
let database: Database;
beforeAll(async () => {
  database = await Database.open({ file: join(root, 'group.db'), readers: 1 }, logger);
  await database.write((c) => c.run('CREATE TABLE t (k INTEGER PRIMARY KEY, seen INTEGER)'));
});
afterAll(async () => {
  await database.close();
  rmSync(root, { recursive: true, force: true });
});

const rows = () => database.read((c) => query<{ k: number; seen: number }>(c, 'SELECT * FROM t ORDER BY k'));
/** Inserts k with the number of rows it saw: each write sees exactly the writes queued before it. */
const insert = (k: number) => async (c: Parameters<Parameters<Database['write']>[0]>[0]) => {
  const seen = Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0]?.[0]);
  await c.run(`INSERT INTO t VALUES (${k}, ${seen})`);
  return k;
};

describe('group commit', () => {
  it('commits writes that queued together as if one after the other', async () => {
    const writes = [1, 2, 3, 4, 5].map((k) => database.write(insert(k)));
    expect(await Promise.all(writes)).toEqual([1, 2, 3, 4, 5]);
    expect(await rows()).toEqual([0, 1, 2, 3, 4].map((seen, i) => ({ k: i + 1, seen })));
  });

  it("keeps a failure its own: the others of its group commit, and see nothing of the failed one's writes", async () => {
    let runsOf12 = 0;
    const results = await Promise.allSettled([
      database.write(insert(10)),
      database.write(async (c) => {
        runsOf12++;
        return insert(12)(c);
      }),
      database.write(async (c) => {
        await c.run('INSERT INTO t VALUES (11, -1)');
        throw new Error('rejected report');
      }),
      database.write(insert(13)),
      database.write(insert(10)), // a duplicate key: fails on its own as well
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('rejected report'));
    expect(String((results[4] as PromiseRejectedResult).reason)).toMatch(/PRIMARY KEY|duplicate key/i);
    expect((await rows()).filter((r) => r.k >= 10)).toEqual([
      { k: 10, seen: 5 },
      { k: 12, seen: 6 },
      { k: 13, seen: 7 },
    ]);
    // The first write of the batch ran alone; the rest were grouped, rolled back, and ran again one by one.
    expect(runsOf12).toBe(2);
  });
});
