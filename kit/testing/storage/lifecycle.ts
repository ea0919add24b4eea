import { describe, expect, it } from 'vitest';
import type { Opener } from './harness.js';

/** Migrations, health, and close. */
export function describeLifecycle(open: Opener): void {
  describe('lifecycle', () => {
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

    it('declares its capabilities as booleans', async () => {
      const storage = await open();
      expect(typeof storage.capabilities.singleWriter).toBe('boolean');
      expect(typeof storage.capabilities.columnarReads).toBe('boolean');
      expect(typeof storage.capabilities.exclusive).toBe('boolean');
    });

    it('reports ok health when open and closed health after close', async () => {
      const storage = await open();
      // counts of the engine's own (a PostgreSQL pool's retried) may be beside them
      expect(storage.health()).toMatchObject({ status: 'ok', reopened: 0 });
      await storage.close();
      expect(storage.health().status).toBe('closed');
    });

    it('finishes running work on close, then refuses new work; close is idempotent', async () => {
      const storage = await open();
      const running = storage.transaction(async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.meta.set('late', 'committed');
      });
      // more reads than an engine is likely to run at once: the waiting ones finish too
      const reading = Array.from({ length: 12 }, () =>
        storage.read(async (r) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return r.meta.get('late');
        }),
      );
      await storage.close();
      await running;
      // a read that waited for its turn may start after the commit: either snapshot is right, failing is not
      for (const value of await Promise.all(reading)) expect([undefined, 'committed']).toContain(value);
      await storage.close();
      await expect(storage.read((r) => r.meta.get('late'))).rejects.toThrow(/closed/);
      await expect(storage.transaction((tx) => tx.meta.set('x', 'y'))).rejects.toThrow(/closed/);
      await expect(storage.schemaVersion()).rejects.toThrow(/closed/);
      const again = await open(true);
      expect(await again.read((r) => r.meta.get('late'))).toBe('committed');
    });
  });
}
