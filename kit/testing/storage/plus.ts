import { describe, expect, it } from 'vitest';
import {
  at,
  insertOrganization,
  insertProject,
  insertReport,
  insertUser,
  insertVersion,
  insertWorld,
  uuid,
} from './fixtures.js';
import type { Opener } from './harness.js';

/** Metrics counted per organization and day; server statistics counts and their daily snapshots. */
export function describePlus(open: Opener): void {
  describe('usage and stats', () => {
    it('counts metrics per organization and day, and sums them over ranges of days', async () => {
      const storage = await open();
      const { a, b } = await storage.transaction(async (tx) => {
        const a = await insertOrganization(tx);
        const b = await insertOrganization(tx);
        await tx.usage.recordMetrics(a.id, '2026-03-01', 5);
        await tx.usage.recordMetrics(a.id, '2026-03-01', 7);
        await tx.usage.recordMetrics(a.id, '2026-03-02', 1);
        await tx.usage.recordMetrics(b.id, '2026-03-01', 100);
        // a transaction sees its own counts
        expect(await tx.usage.metrics(a.id, '2026-03-01', '2026-03-01')).toBe(12);
        await tx.usage.recordMetrics(a.id, '2026-03-04', 2);
        return { a, b };
      });
      await storage.read(async (r) => {
        expect(await r.usage.metrics(a.id, '2026-03-01', '2026-03-01')).toBe(12);
        expect(await r.usage.metrics(a.id, '2026-03-01', '2026-03-04')).toBe(15);
        expect(await r.usage.metrics(a.id, '2026-03-02', '2026-03-03')).toBe(1);
        expect(await r.usage.metrics(b.id, '2026-03-02', '2026-03-31')).toBe(0);
        expect(await r.usage.metrics(null, '2026-03-01', '2026-03-31')).toBe(115);
        expect(await r.usage.daily('2026-03-01', '2026-03-03')).toEqual([
          { day: '2026-03-01', metrics: 112 },
          { day: '2026-03-02', metrics: 1 },
        ]);
      });
    });

    it('counts every one of many concurrent reports of one organization, and a rolled-back count is gone', async () => {
      const storage = await open();
      const organization = await storage.transaction((tx) => insertOrganization(tx));
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          storage.transaction((tx) => tx.usage.recordMetrics(organization.id, '2026-03-01', i + 1)),
        ),
      );
      await expect(
        storage.transaction(async (tx) => {
          await tx.usage.recordMetrics(organization.id, '2026-03-01', 1000);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await storage.read((r) => r.usage.metrics(organization.id, '2026-03-01', '2026-03-01'))).toBe(
        (40 * 41) / 2,
      );
    });

    it('keeps a quota exact among concurrent reports that check it, and a refused report counts nothing', async () => {
      const storage = await open();
      const organization = await storage.transaction((tx) => insertOrganization(tx));
      const quota = 50;
      // each report counts its 7 metrics, then reads the day's total and refuses itself over the quota, as
      // ingest does (core/plus/quota.ts)
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, () =>
          storage.transaction(async (tx) => {
            await tx.usage.recordMetrics(organization.id, '2026-03-01', 7);
            if ((await tx.usage.metrics(organization.id, '2026-03-01', '2026-03-01')) > quota)
              throw new Error('over the quota');
          }),
        ),
      );
      const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      expect(accepted).toBe(Math.floor(quota / 7));
      for (const outcome of outcomes)
        if (outcome.status === 'rejected') expect(String(outcome.reason)).toContain('over the quota');
      expect(await storage.read((r) => r.usage.metrics(organization.id, '2026-03-01', '2026-03-01'))).toBe(
        accepted * 7,
      );
    });

    it('counts rows created since an instant, and ranks projects by reports', async () => {
      const storage = await open();
      const { world, other } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        await insertUser(tx);
        const other = await insertProject(tx, world.organization.id);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        for (const minute of [10, 20, 30]) await insertReport(tx, world, { version, minute, points: [] });
        await tx.reports.insert({
          uuid: uuid(),
          project_id: other.id,
          user_id: null,
          branch_id: world.branch.id,
          head_id: world.head.id,
          version_id: version.id,
          testbed_id: world.testbed.id,
          adapter: 'json',
          idempotency_key: null,
          start_time: at(39),
          end_time: at(40),
          created: at(40),
        });
        return { world, other };
      });
      await storage.read(async (r) => {
        expect(await r.stats.created()).toEqual({ users: 2, organizations: 1, projects: 2, reports: 4 });
        expect(await r.stats.created(at(22))).toEqual({
          users: 0,
          organizations: 0,
          projects: 0,
          reports: 2,
        });
        expect(await r.stats.topProjects(at(0), 5)).toEqual([
          { project_id: world.project.id, reports: 3 },
          { project_id: other.id, reports: 1 },
        ]);
        expect(await r.stats.topProjects(at(35), 1)).toEqual([{ project_id: other.id, reports: 1 }]);
      });
    });

    it('lists the organizations that hold a license', async () => {
      const storage = await open();
      expect(await storage.read((r) => r.organizations.licensed())).toEqual([]);
      const licensed = await storage.transaction(async (tx) => {
        await insertOrganization(tx);
        const a = await insertOrganization(tx);
        const b = await insertOrganization(tx);
        await tx.organizations.update({ id: b.id }, { license: 'b.b.b' });
        await tx.organizations.update({ id: a.id }, { license: 'a.a.a' });
        return [
          { ...a, license: 'a.a.a' },
          { ...b, license: 'b.b.b' },
        ];
      });
      expect(await storage.read((r) => r.organizations.licensed())).toEqual(licensed);
    });

    it('keeps one snapshot per day, the first saved', async () => {
      const storage = await open();
      const saved = await storage.transaction(async (tx) => [
        await tx.stats.saveSnapshot('2026-03-02', '{"n":2}'),
        await tx.stats.saveSnapshot('2026-03-01', '{"n":1}'),
        await tx.stats.saveSnapshot('2026-03-02', '{"n":3}'),
      ]);
      expect(saved).toEqual([true, true, false]);
      expect(await storage.read((r) => r.stats.snapshots('2026-03-01'))).toEqual([
        { day: '2026-03-01', stats: '{"n":1}' },
        { day: '2026-03-02', stats: '{"n":2}' },
      ]);
      expect(await storage.read((r) => r.stats.snapshots('2026-03-02'))).toHaveLength(1);
    });
  });
}
