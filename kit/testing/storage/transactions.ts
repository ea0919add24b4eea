import { describe, expect, it } from 'vitest';
import type { ReadRepositories, WriteRepositories } from '../../../core/index.js';
import { at, insertOrganization, insertProject, insertTestbed, uuid } from './fixtures.js';
import type { Opener } from './harness.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/** Whole transactions, serialized writers, callbacks that run again, snapshot reads. */
export function describeTransactions(open: Opener): void {
  describe('transactions', () => {
    it('commits a transaction as a whole, and a transaction reads its own writes', async () => {
      const storage = await open();
      const result = await storage.transaction(async (tx) => {
        await tx.meta.set('a', '1');
        await tx.meta.set('b', '2');
        await tx.meta.set('a', '3');
        return [await tx.meta.get('a'), await tx.meta.get('b')];
      });
      expect(result).toEqual(['3', '2']);
      expect(await storage.read(async (r) => [await r.meta.get('a'), await r.meta.get('b')])).toEqual([
        '3',
        '2',
      ]);
    });

    it('rolls back everything a failing transaction wrote and rethrows its error', async () => {
      const storage = await open();
      await storage.transaction((tx) => tx.meta.set('kept', 'before'));
      const failure = new Error('boom');
      await expect(
        storage.transaction(async (tx) => {
          await tx.meta.set('kept', 'changed');
          await tx.meta.set('new', 'value');
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await storage.read(async (r) => [await r.meta.get('kept'), await r.meta.get('new')])).toEqual([
        'before',
        undefined,
      ]);
      await storage.transaction((tx) => tx.meta.set('after', 'ok'));
      expect(await storage.read((r) => r.meta.get('after'))).toBe('ok');
    });

    it('loses no update among concurrent writers', async () => {
      const storage = await open();
      const increments = Array.from({ length: 25 }, () =>
        storage.transaction(async (tx) => {
          const current = Number((await tx.meta.get('counter')) ?? '0');
          await tick();
          await tx.meta.set('counter', String(current + 1));
        }),
      );
      await Promise.all(increments);
      expect(await storage.read((r) => r.meta.get('counter'))).toBe('25');
    });

    it("loses no update among concurrent 'locked' writers that hold one key", async () => {
      const storage = await open();
      const increments = Array.from({ length: 25 }, () =>
        storage.transaction(
          async (tx) => {
            await tx.locks.hold({ kind: 'branch', id: 1 });
            const current = Number((await tx.meta.get('locked-counter')) ?? '0');
            await tick();
            await tx.meta.set('locked-counter', String(current + 1));
          },
          { isolation: 'locked' },
        ),
      );
      await Promise.all(increments);
      expect(await storage.read((r) => r.meta.get('locked-counter'))).toBe('25');
    });

    it('starts a transaction with an exclusive key after the writers holding it shared, seeing what they wrote', async () => {
      const storage = await open();
      const holding = signal();
      const release = signal();
      const writer = storage.transaction(
        async (tx) => {
          await tx.locks.hold({ kind: 'project', id: 7 }, { shared: true });
          await tx.meta.set('held', 'written');
          holding.fire();
          await release.promise;
        },
        { isolation: 'locked' },
      );
      await holding.promise;
      const reader = storage.transaction((tx) => tx.meta.get('held'), {
        exclusive: [{ kind: 'project', id: 7 }],
      });
      const waited = new Promise((resolve) => setTimeout(() => resolve('waiting'), 300));
      const early = await Promise.race([reader.then(() => 'finished'), waited]);
      release.fire();
      await writer;
      expect(early).toBe('waiting');
      expect(await reader).toBe('written');
    });

    it('gives a key to one transaction at a time with tryHold: the others answer false at once', async () => {
      const storage = await open();
      const key = { kind: 'maintenance', id: 1 } as const;
      const attempt = () => storage.transaction((tx) => tx.locks.tryHold(key), { isolation: 'locked' });
      expect(await attempt()).toBe(true);
      expect(await attempt()).toBe(true);
      // one writer at a time: no transaction can run beside the holder to find the key taken
      if (storage.capabilities.singleWriter) return;
      const holding = signal();
      const release = signal();
      const holder = storage.transaction(
        async (tx) => {
          const held = await tx.locks.tryHold(key);
          holding.fire();
          await release.promise;
          return held;
        },
        { isolation: 'locked' },
      );
      await holding.promise;
      const others = await Promise.all([attempt(), attempt(), attempt()]);
      release.fire();
      expect(await holder).toBe(true);
      expect(others).toEqual([false, false, false]);
      expect(await attempt()).toBe(true);
    });

    it('never overlaps two write transactions when it declares a single writer', async (context) => {
      const storage = await open();
      if (!storage.capabilities.singleWriter) context.skip();
      let active = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          storage.transaction(async (tx) => {
            most = Math.max(most, ++active);
            await tick();
            await tx.meta.set(`k${i}`, 'v');
            active--;
          }),
        ),
      );
      expect(most).toBe(1);
    });

    it('commits each of many concurrent transactions exactly once when one of them fails', async () => {
      const storage = await open();
      const failure = new Error('only mine');
      const calls = new Map<number, number>();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          storage.transaction(async (tx) => {
            calls.set(i, (calls.get(i) ?? 0) + 1);
            const runs = Number((await tx.meta.get('runs')) ?? '0');
            await tx.meta.set('runs', String(runs + 1));
            await tx.meta.set(`row-${i}`, String(runs));
            await tick();
            if (i === 5) throw failure;
            return i;
          }),
        ),
      );
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(
        Array.from({ length: 12 }, (_, i) => (i === 5 ? failure : i)),
      );
      for (let i = 0; i < 12; i++) expect(calls.get(i)).toBeGreaterThanOrEqual(1);
      const stored = await storage.read(async (r) => ({
        runs: await r.meta.get('runs'),
        rows: await Promise.all(Array.from({ length: 12 }, (_, i) => r.meta.get(`row-${i}`))),
      }));
      expect(stored.runs).toBe('11');
      expect(stored.rows[5]).toBeUndefined();
      // each committed callback saw the ones committed before it: 0..10, each once
      expect(stored.rows.filter((v) => v !== undefined).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 11 }, (_, k) => String(k)),
      );
    });

    it('runs a callback again on fresh state: rows it read before a failed group are not trusted', async () => {
      const storage = await open();
      const { project } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        return { project: await insertProject(tx, organization.id) };
      });
      const testbed = (name: string) => ({
        uuid: uuid(),
        project_id: project.id,
        name,
        slug: name,
        archived: false,
        created: at(0),
        modified: at(0),
      });
      // every callback names its testbed after the number of testbeds it sees; a stale read repeats a name
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          storage.transaction(async (tx) => {
            const seen = await tx.testbeds.count({ project_id: project.id });
            await tx.testbeds.find({ project_id: project.id, name: `tb-${seen}` });
            await tx.testbeds.insert(testbed(`tb-${seen}`));
            await tick();
            if (i === 3) throw new Error('fails');
          }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
      const names = (await storage.read((r) => r.testbeds.all({ project_id: project.id }))).map(
        (t) => t.name,
      );
      expect(names.sort()).toEqual(Array.from({ length: 9 }, (_, k) => `tb-${k}`).sort());
    });

    it('refuses repositories used after their transaction or read has ended', async () => {
      const storage = await open();
      let leakedTx: WriteRepositories | undefined;
      let leakedRead: ReadRepositories | undefined;
      await storage.transaction(async (tx) => {
        leakedTx = tx;
        await tx.meta.set('inside', 'yes');
      });
      await storage.read(async (r) => {
        leakedRead = r;
        return r.meta.get('inside');
      });
      await expect(leakedTx!.meta.set('outside', 'yes')).rejects.toThrow(/ended/);
      await expect(leakedTx!.users.count({})).rejects.toThrow(/ended/);
      await expect(leakedRead!.meta.get('inside')).rejects.toThrow(/ended/);
      expect(await storage.read((r) => r.meta.get('outside'))).toBeUndefined();
    });

    it('gives concurrent inserts distinct ids', async () => {
      const storage = await open();
      const users = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          storage.transaction((tx) =>
            tx.users.insert({
              uuid: globalThis.crypto.randomUUID(),
              name: `concurrent ${i}`,
              slug: `concurrent-${i}`,
              email: `concurrent-${i}@example.com`,
              admin: false,
              locked: false,
              created: new Date(0),
              modified: new Date(0),
            }),
          ),
        ),
      );
      expect(new Set(users.map((u) => u.id)).size).toBe(10);
      expect(await storage.read((r) => r.users.count({}))).toBe(10);
    });

    it("rethrows a read's error and keeps serving", async () => {
      const storage = await open();
      const failure = new Error('read failed');
      await expect(storage.read(() => Promise.reject(failure))).rejects.toBe(failure);
      expect(await storage.read((r) => r.meta.get('none'))).toBeUndefined();
    });

    it('reads never see uncommitted writes', async () => {
      const storage = await open();
      const paused = signal();
      const wrote = signal();
      const writing = storage.transaction(async (tx) => {
        await tx.meta.set('pending', 'yes');
        wrote.fire();
        await paused.promise;
      });
      await wrote.promise;
      expect(await storage.read((r) => r.meta.get('pending'))).toBeUndefined();
      paused.fire();
      await writing;
      expect(await storage.read((r) => r.meta.get('pending'))).toBe('yes');
    });

    it('keeps one snapshot for the whole of a read while writes commit', async () => {
      const storage = await open();
      await storage.transaction((tx) => tx.meta.set('value', 'old'));
      const started = signal();
      const committed = signal();
      const reading = storage.read(async (r) => {
        const first = await r.meta.get('value');
        started.fire();
        await committed.promise;
        return [first, await r.meta.get('value'), await r.meta.get('added')];
      });
      await started.promise;
      await storage.transaction(async (tx) => {
        await tx.meta.set('value', 'new');
        await tx.meta.set('added', 'yes');
      });
      committed.fire();
      expect(await reading).toEqual(['old', 'old', undefined]);
      expect(await storage.read((r) => r.meta.get('value'))).toBe('new');
    });

    it('keeps one snapshot of every table for the whole of a read', async () => {
      const storage = await open();
      const { project, testbed } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const project = await insertProject(tx, organization.id);
        return { project, testbed: await insertTestbed(tx, project.id) };
      });
      const started = signal();
      const committed = signal();
      const look = async (r: ReadRepositories) => [
        (await r.testbeds.find({ id: testbed.id }))?.name,
        await r.testbeds.count({ project_id: project.id }),
        (await r.projects.find({ id: project.id }))?.visibility,
      ];
      const reading = storage.read(async (r) => {
        const first = await look(r);
        started.fire();
        await committed.promise;
        return [first, await look(r)];
      });
      await started.promise;
      await storage.transaction(async (tx) => {
        await tx.testbeds.update({ id: testbed.id }, { name: 'renamed' });
        await insertTestbed(tx, project.id);
        await tx.projects.update({ id: project.id }, { visibility: 'private' });
      });
      committed.fire();
      const before = [testbed.name, 1, 'public'];
      expect(await reading).toEqual([before, before]);
      expect(await storage.read(look)).toEqual(['renamed', 2, 'private']);
    });

    it('runs reads concurrently with each other', async () => {
      const storage = await open();
      const first = signal();
      const second = signal();
      // each read waits for the other to have started: serialized reads would never finish
      const results = await Promise.all([
        storage.read(async (r) => {
          first.fire();
          await second.promise;
          return r.meta.get('none');
        }),
        storage.read(async (r) => {
          second.fire();
          await first.promise;
          return r.meta.get('none');
        }),
      ]);
      expect(results).toEqual([undefined, undefined]);
    });
  });
}
