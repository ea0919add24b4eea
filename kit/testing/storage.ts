import { afterEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../core/index.js';

export interface StorageHarness {
  /** Opens the storage on a fresh, empty database. */
  open(): Promise<Storage>;
  /** Opens the same database again (after the previous storage was closed). */
  reopen(): Promise<Storage>;
  cleanup(): Promise<void>;
}

/**
 * The contract every storage plugin passes: migrations, whole transactions, serialized writes, snapshot reads,
 * clean close. Later issues extend it with the repositories.
 */
export function describeStorageContract(name: string, createHarness: () => StorageHarness): void {
  describe(`storage contract: ${name}`, () => {
    let harness: StorageHarness;
    const opened: Storage[] = [];
    const open = async (again = false) => {
      const storage = again ? await harness.reopen() : await (harness = createHarness()).open();
      opened.push(storage);
      return storage;
    };
    afterEach(async () => {
      for (const storage of opened.splice(0)) await storage.close();
      await harness.cleanup();
    });

    it('migrates a new database and records every migration', async () => {
      const storage = await open();
      expect(storage.appliedMigrations.length).toBeGreaterThan(0);
      expect(storage.appliedMigrations.map((m) => m.version)).toEqual(
        [...storage.appliedMigrations.map((m) => m.version)].sort((a, b) => a - b),
      );
      expect(await storage.schemaVersion()).toBe(storage.appliedMigrations.at(-1)?.version);
    });

    it('applies nothing when reopened, and keeps committed data', async () => {
      const first = await open();
      const version = await first.schemaVersion();
      await first.transaction((tx) => tx.meta.set('server.id', 'abc'));
      await first.close();
      const second = await open(true);
      expect(second.appliedMigrations).toEqual([]);
      expect(await second.schemaVersion()).toBe(version);
      expect(await second.read((r) => r.meta.get('server.id'))).toBe('abc');
    });

    it('commits a transaction as a whole', async () => {
      const storage = await open();
      const result = await storage.transaction(async (tx) => {
        await tx.meta.set('a', '1');
        await tx.meta.set('b', '2');
        return 'done';
      });
      expect(result).toBe('done');
      expect(await storage.read(async (r) => [await r.meta.get('a'), await r.meta.get('b')])).toEqual([
        '1',
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

    it('serializes write transactions (no lost updates)', async () => {
      const storage = await open();
      const increments = Array.from({ length: 25 }, () =>
        storage.transaction(async (tx) => {
          const current = Number((await tx.meta.get('counter')) ?? '0');
          await new Promise((resolve) => setImmediate(resolve));
          await tx.meta.set('counter', String(current + 1));
        }),
      );
      await Promise.all(increments);
      expect(await storage.read((r) => r.meta.get('counter'))).toBe('25');
    });

    it('reads never see uncommitted writes', async () => {
      const storage = await open();
      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const writing = storage.transaction(async (tx) => {
        await tx.meta.set('pending', 'yes');
        written();
        await paused;
      });
      await wrote;
      expect(await storage.read((r) => r.meta.get('pending'))).toBeUndefined();
      release();
      await writing;
      expect(await storage.read((r) => r.meta.get('pending'))).toBe('yes');
    });

    it('finishes running work on close, then refuses new work; close is idempotent', async () => {
      const storage = await open();
      const running = storage.transaction(async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.meta.set('late', 'committed');
      });
      await storage.close();
      await running;
      await storage.close();
      await expect(storage.read((r) => r.meta.get('late'))).rejects.toThrow(/closed/);
      await expect(storage.transaction((tx) => tx.meta.set('x', 'y'))).rejects.toThrow(/closed/);
      const again = await open(true);
      expect(await again.read((r) => r.meta.get('late'))).toBe('committed');
    });
  });
}
