import { describe, expect, it } from 'vitest';
import { at, insertBranch, insertTestbed, insertVersion, insertWorld, uuid } from './fixtures.js';
import type { Opener } from './harness.js';

/** Heads and versions, batch lookups by name, series creation. */
export function describeDimensions(open: Opener): void {
  describe('dimensions', () => {
    it("answers a head's versions: latest, by hash, and ids up to a number, newest first", async () => {
      const storage = await open();
      const { world, versions, other } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const versions = [];
        for (let n = 1; n <= 5; n++)
          versions.push(
            await insertVersion(tx, world.project.id, world.head.id, n, n === 5 ? null : `hash${n % 3}`),
          );
        const other = await insertBranch(tx, world.project.id);
        await insertVersion(tx, world.project.id, other.head.id, 9, 'hash1');
        return { world, versions, other };
      });
      const ids = versions.map((v) => v.id);
      await storage.read(async (r) => {
        expect(await r.heads.latestVersion(world.head.id)).toEqual(versions[4]);
        expect(await r.heads.versionByHash(world.head.id, 'hash1')).toEqual(versions[3]);
        expect(await r.heads.versionByHash(world.head.id, 'hash2')).toEqual(versions[1]);
        expect(await r.heads.versionByHash(world.head.id, 'nothing')).toBeUndefined();
        expect(await r.heads.versionIds(world.head.id, 4, 10)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
        expect(await r.heads.versionIds(world.head.id, 5, 2)).toEqual([ids[4], ids[3]]);
        expect(await r.heads.versionIds(world.head.id, 0, 10)).toEqual([]);
        expect((await r.heads.latestVersion(other.head.id))?.number).toBe(9);
      });
    });

    it("links a start point's versions into a new head once, however often they are linked", async () => {
      const storage = await open();
      const { world, versions, fork } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const versions = [
          await insertVersion(tx, world.project.id, world.head.id, 1, 'a'),
          await insertVersion(tx, world.project.id, world.head.id, 2, 'b'),
        ];
        const fork = await insertBranch(tx, world.project.id);
        await tx.headVersions.link(
          fork.head.id,
          versions.map((v) => v.id),
        );
        await tx.headVersions.link(fork.head.id, [versions[1]?.id as number]);
        await tx.headVersions.link(fork.head.id, []);
        return { world, versions, fork };
      });
      await storage.read(async (r) => {
        expect(await r.heads.latestVersion(fork.head.id)).toEqual(versions[1]);
        expect(await r.heads.versionByHash(fork.head.id, 'a')).toEqual(versions[0]);
        expect(await r.heads.versionIds(fork.head.id, 10, 10)).toEqual([versions[1]?.id, versions[0]?.id]);
        expect((await r.heads.latestVersion(world.head.id))?.number).toBe(2);
      });
      await storage.transaction(async (tx) => {
        expect(await tx.headVersions.count({ head_id: fork.head.id })).toBe(2);
        expect(
          await tx.headVersions.delete({ head_id: fork.head.id, version_id: versions[0]?.id as number }),
        ).toBe(1);
      });
      expect(await storage.read((r) => r.heads.versionIds(fork.head.id, 10, 10))).toEqual([versions[1]?.id]);
    });

    it('finds many dimensions at once by UUID, slug or name, only in the project asked', async () => {
      const storage = await open();
      const { world, otherWorld } = await storage.transaction(async (tx) => ({
        world: await insertWorld(tx),
        otherWorld: await insertWorld(tx),
      }));
      const [a, b] = world.benchmarks;
      const found = await storage.read((r) =>
        r.named.findMany('benchmark', world.project.id, [a?.uuid as string, 'bench-b', 'bench a', 'missing']),
      );
      expect(found.map((d) => d.id).sort((x, y) => x - y)).toEqual([a?.id, b?.id].sort());
      await storage.read(async (r) => {
        expect(await r.named.findMany('measure', world.project.id, ['Latency'])).toEqual([world.measure]);
        expect(await r.named.findMany('testbed', world.project.id, ['localhost'])).toEqual([world.testbed]);
        expect(await r.named.findMany('branch', world.project.id, ['main'])).toEqual([
          expect.objectContaining({ id: world.branch.id, name: 'main' }),
        ]);
        expect(await r.named.findMany('benchmark', otherWorld.project.id, [a?.uuid as string])).toEqual([]);
        expect(await r.named.findMany('benchmark', world.project.id, [])).toEqual([]);
        expect(await r.named.byIds('benchmark', [b?.id as number])).toEqual([b]);
        expect(await r.named.byIds('measure', [])).toEqual([]);
      });
    });

    it('inserts many benchmarks or measures at once, with units for measures', async () => {
      const storage = await open();
      const { world, inserted } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const inserted = await tx.named.insertMany(
          'measure',
          world.project.id,
          [
            { name: 'Throughput', slug: 'throughput', units: 'ops/s' },
            { name: 'Memory', slug: 'memory', units: 'bytes' },
          ],
          at(7),
        );
        return { world, inserted };
      });
      expect(inserted.map((m) => m.name).sort()).toEqual(['Memory', 'Throughput']);
      for (const m of inserted)
        expect(m).toMatchObject({ project_id: world.project.id, archived: false, created: at(7) });
      const stored = await storage.read((r) =>
        r.measures.all({ project_id: world.project.id, slug: 'memory' }),
      );
      expect(stored).toEqual([expect.objectContaining({ units: 'bytes', modified: at(7) })]);
      expect(
        await storage.transaction((tx) => tx.named.insertMany('benchmark', world.project.id, [], at(0))),
      ).toEqual([]);
    });

    it('creates a series once per testbed, benchmark and measure, in the order asked', async () => {
      const storage = await open();
      const world = await storage.transaction((tx) => insertWorld(tx));
      const [a, b] = world.benchmarks.map((d) => d.id) as [number, number];
      const m = world.measure.id;
      const { again, mixed, other, otherTestbed } = await storage.transaction(async (tx) => {
        const otherTestbed = await insertTestbed(tx, world.project.id);
        return {
          again: await tx.named.ensureSeries(world.project.id, world.testbed.id, [
            [b, m],
            [a, m],
          ]),
          mixed: await tx.named.ensureSeries(world.project.id, world.testbed.id, [
            [a, m],
            [a, m],
            [b, m],
          ]),
          other: await tx.named.ensureSeries(world.project.id, otherTestbed.id, [
            [a, m],
            [a, m],
          ]),
          otherTestbed,
        };
      });
      expect(again).toBeInstanceOf(Int32Array);
      expect(Array.from(again)).toEqual([world.series[1], world.series[0]]);
      expect(Array.from(mixed)).toEqual([world.series[0], world.series[0], world.series[1]]);
      expect(other[0]).toBe(other[1]);
      expect(world.series).not.toContain(other[0]);
      await storage.read(async (r) => {
        expect(await r.series.count({ project_id: world.project.id })).toBe(3);
        expect(await r.series.find({ id: other[0] as number })).toEqual({
          id: other[0],
          project_id: world.project.id,
          testbed_id: otherTestbed.id,
          benchmark_id: a,
          measure_id: m,
        });
      });
      const empty = await storage.transaction((tx) =>
        tx.named.ensureSeries(world.project.id, world.testbed.id, []),
      );
      expect(Array.from(empty)).toEqual([]);
    });

    it('creates each series once when concurrent transactions ask for it', async () => {
      const storage = await open();
      const world = await storage.transaction((tx) => insertWorld(tx));
      const extra = await storage.transaction((tx) =>
        tx.named.insertMany('benchmark', world.project.id, [{ name: 'c', slug: 'c' }], at(0)),
      );
      const pair = [extra[0]?.id as number, world.measure.id] as const;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          storage.transaction((tx) => tx.named.ensureSeries(world.project.id, world.testbed.id, [pair])),
        ),
      );
      expect(new Set(answers.map((ids) => ids[0])).size).toBe(1);
      expect(await storage.read((r) => r.series.count({ benchmark_id: pair[0] }))).toBe(1);
    });

    it('creates a dimension on the fly once when concurrent transactions look it up by name first', async () => {
      const storage = await open();
      const world = await storage.transaction((tx) => insertWorld(tx));
      const ids = await Promise.all(
        Array.from({ length: 8 }, () =>
          storage.transaction(async (tx) => {
            const [found] = await tx.named.findMany('testbed', world.project.id, ['ci-runner']);
            return found?.id ?? (await insertTestbed(tx, world.project.id, 'ci-runner')).id;
          }),
        ),
      );
      expect(new Set(ids).size).toBe(1);
      expect(await storage.read((r) => r.testbeds.count({ project_id: world.project.id }))).toBe(2);
    });

    it('keeps thresholds and their models, a model replaced by a new one', async () => {
      const storage = await open();
      const { threshold, first, second } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const threshold = await tx.thresholds.insert({
          uuid: uuid(),
          project_id: world.project.id,
          branch_id: world.branch.id,
          testbed_id: world.testbed.id,
          measure_id: world.measure.id,
          model_id: null,
          created: at(0),
          modified: at(0),
        });
        const model = {
          threshold_id: threshold.id,
          test: 't_test',
          min_sample_size: 2,
          max_sample_size: 30,
          window_seconds: null,
          lower_boundary: null,
          upper_boundary: 0.99,
          replaced: null,
        };
        const first = await tx.models.insert({ ...model, uuid: uuid(), created: at(1) });
        await tx.thresholds.update({ id: threshold.id }, { model_id: first.id, modified: at(1) });
        await tx.models.update({ id: first.id }, { replaced: at(2) });
        const second = await tx.models.insert({
          ...model,
          uuid: uuid(),
          max_sample_size: 10,
          created: at(2),
        });
        await tx.thresholds.update({ id: threshold.id }, { model_id: second.id, modified: at(2) });
        return { threshold, first, second };
      });
      await storage.read(async (r) => {
        expect(await r.thresholds.find({ id: threshold.id })).toEqual({
          ...threshold,
          model_id: second.id,
          modified: at(2),
        });
        expect(await r.models.all({ threshold_id: threshold.id, replaced: null })).toEqual([second]);
        expect(await r.models.find({ id: first.id })).toEqual({ ...first, replaced: at(2) });
      });
    });

    it('keeps plots with their ordered dimension lists', async () => {
      const storage = await open();
      const { world, plot } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const plot = await tx.plots.insert({
          uuid: uuid(),
          project_id: world.project.id,
          rank: 1,
          title: 'Latency',
          lower_value: false,
          upper_value: true,
          lower_boundary: false,
          upper_boundary: true,
          x_axis: 'version',
          y_axis: 'log',
          window_seconds: 86_400,
          branch_ids: [world.branch.id],
          testbed_ids: [world.testbed.id],
          benchmark_ids: [world.benchmarks[1]?.id as number, world.benchmarks[0]?.id as number],
          measure_ids: [world.measure.id],
          created: at(0),
          modified: at(0),
        });
        return { world, plot };
      });
      expect(plot.benchmark_ids).toEqual([world.benchmarks[1]?.id, world.benchmarks[0]?.id]);
      expect(Number(plot.window_seconds)).toBe(86_400);
      const listed = await storage.read((r) =>
        r.plots.list({ project_id: world.project.id }, { search: 'laten' }),
      );
      expect(listed).toEqual({ items: [plot], total: 1 });
    });
  });
}
