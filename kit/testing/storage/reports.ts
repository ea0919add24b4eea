import { describe, expect, it } from 'vitest';
import type { WriteRepositories } from '../../../core/index.js';
import { at, insertReport, insertTestbed, insertVersion, insertWorld, uuid, type World } from './fixtures.js';
import type { Opener } from './harness.js';

/** A threshold with a model on the world's branch, testbed and measure. */
export async function insertThreshold(tx: WriteRepositories, world: World) {
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
  const model = await tx.models.insert({
    uuid: uuid(),
    threshold_id: threshold.id,
    test: 'static',
    min_sample_size: null,
    max_sample_size: null,
    window_seconds: null,
    lower_boundary: null,
    upper_boundary: 10,
    created: at(0),
    replaced: null,
  });
  await tx.thresholds.update({ id: threshold.id }, { model_id: model.id });
  return { threshold: { ...threshold, model_id: model.id }, model };
}

/** Reports: insert, idempotency keys, filtered lists, summaries. Metrics by report, UUID and id. Alerts. */
export function describeReports(open: Opener): void {
  describe('reports and metrics', () => {
    it('stores metrics in one append and returns them by report, UUID and id', async () => {
      const storage = await open();
      const { world, stored } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const [a, b] = world.series;
        const stored = await insertReport(tx, world, {
          version,
          minute: 5,
          points: [
            { series: b, value: 2.5, iteration: 1 },
            { series: a, value: 1.5, lower: 1, upper: 2 },
            { series: b, value: -3 },
            { series: a, value: 0, iteration: 1 },
          ],
        });
        return { world, stored };
      });
      expect(stored.ids).toBeInstanceOf(BigInt64Array);
      expect(new Set(stored.ids).size).toBe(4);
      const metrics = await storage.read((r) => r.metrics.byReports([stored.report.id]));
      const [a, b] = world.benchmarks.map((d) => d.id);
      expect(metrics.map((m) => [m.iteration, m.benchmark_id, m.value])).toEqual([
        [0, a, 1.5],
        [0, b, -3],
        [1, a, 0],
        [1, b, 2.5],
      ]);
      const first = metrics[0];
      expect(first).toEqual({
        id: stored.ids[1],
        uuid: stored.uuids[1],
        report_id: stored.report.id,
        iteration: 0,
        series_id: world.series[0],
        benchmark_id: a,
        measure_id: world.measure.id,
        value: 1.5,
        lower_value: 1,
        upper_value: 2,
        threshold_id: null,
        model_id: null,
        baseline: null,
        lower_limit: null,
        upper_limit: null,
      });
      await storage.read(async (r) => {
        expect(await r.metrics.byUuid(world.project.id, stored.uuids[1] as string)).toEqual(first);
        expect(await r.metrics.byUuid(world.project.id + 1000, stored.uuids[1] as string)).toBeUndefined();
        expect(await r.metrics.byUuid(world.project.id, 'not-a-uuid')).toBeUndefined();
        const byIds = await r.metrics.byIds([stored.ids[1] as bigint, stored.ids[2] as bigint]);
        expect(byIds.map((m) => m.id).sort()).toEqual([stored.ids[1], stored.ids[2]].sort());
        expect(await r.metrics.byIds([])).toEqual([]);
      });
    });

    it('returns the metrics of many reports at once, by report id, each in iteration, benchmark, measure order', async () => {
      const storage = await open();
      const { world, reports } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const [a, b] = world.series;
        const reports = [];
        for (const [minute, values] of [
          [1, [3, 2]],
          [2, [5, 4]],
          [3, [7, 6]],
        ] as const)
          reports.push(
            await insertReport(tx, world, {
              version,
              minute,
              points: [
                { series: b, value: values[0] },
                { series: a, value: values[1] },
              ],
            }),
          );
        return { world, reports };
      });
      const [a, b] = world.benchmarks.map((d) => d.id);
      const [first, , third] = reports.map((stored) => stored.report.id) as [number, number, number];
      // asked for in reverse: the answer is in report id order whatever the order of the ids
      const rows = await storage.read((r) => r.metrics.byReports([third, first]));
      expect(rows.map((m) => [m.report_id, m.benchmark_id, m.value])).toEqual([
        [first, a, 2],
        [first, b, 3],
        [third, a, 6],
        [third, b, 7],
      ]);
      expect(await storage.read((r) => r.metrics.byReports([]))).toEqual([]);
      expect(await storage.read((r) => r.metrics.byReports([third + 1000]))).toEqual([]);
    });

    it('keeps metrics of any time, decades apart, and answers each time range with its own', async () => {
      const storage = await open();
      // an engine may lay metrics out by time (PostgreSQL: a partition per month, created ahead of the present):
      // one far in the past and one far in the future land where no layout was prepared for them
      const YEAR = 525_600;
      const minutes = [-30 * YEAR, 0, 2 * YEAR + 17, 70 * YEAR];
      const { world, reports } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const reports = [];
        for (const [i, minute] of minutes.entries())
          reports.push(
            await insertReport(tx, world, {
              version,
              minute,
              points: [{ series: world.series[0]!, value: i }],
            }),
          );
        return { world, reports };
      });
      const ids = reports.map((stored) => stored.report.id);
      expect((await storage.read((r) => r.metrics.byReports(ids))).map((m) => m.value)).toEqual([0, 1, 2, 3]);
      for (const [i, minute] of minutes.entries()) {
        const answer = await storage.read((r) =>
          r.metrics.perf({
            series: Int32Array.from([world.series[0]!]),
            heads: Int32Array.from([world.head.id]),
            start: at(minute - 1).getTime(),
            end: at(minute + 2).getTime(),
          }),
        );
        expect(Array.from(answer.value)).toEqual([i]);
      }
    });

    it('keeps metric ids unique across transactions, rollbacks and reopening', async () => {
      const storage = await open();
      const setup = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        return { world, version: await insertVersion(tx, world.project.id, world.head.id, 1) };
      });
      const point = { series: setup.world.series[0], value: 1 };
      const append = (s: typeof storage, minute: number) =>
        s.transaction((tx) =>
          insertReport(tx, setup.world, { version: setup.version, minute, points: [point, point] }),
        );
      const ids = [...(await append(storage, 1)).ids];
      await expect(
        storage.transaction(async (tx) => {
          await insertReport(tx, setup.world, { version: setup.version, minute: 2, points: [point] });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      ids.push(...(await append(storage, 3)).ids);
      await storage.close();
      const again = await open(true);
      ids.push(...(await append(again, 4)).ids);
      expect(new Set(ids).size).toBe(6);
      expect(
        (
          await again.transaction((tx) =>
            insertReport(tx, setup.world, { version: setup.version, minute: 5, points: [] }),
          )
        ).ids,
      ).toEqual(new BigInt64Array(0));
    });

    it('refuses a second report with the same idempotency key in a project, writing nothing', async () => {
      const storage = await open();
      const key = uuid();
      const { world, version, first } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const first = await insertReport(tx, world, { version, minute: 1, points: [], idempotencyKey: key });
        await insertReport(tx, world, { version, minute: 2, points: [], idempotencyKey: null });
        await insertReport(tx, world, { version, minute: 3, points: [], idempotencyKey: null });
        return { world, version, first };
      });
      await expect(
        storage.transaction((tx) =>
          insertReport(tx, world, {
            version,
            minute: 4,
            points: [{ series: world.series[0], value: 1 }],
            idempotencyKey: key,
          }),
        ),
      ).rejects.toThrow();
      await storage.read(async (r) => {
        expect(await r.reports.count({ project_id: world.project.id })).toBe(3);
        expect(await r.reports.find({ project_id: world.project.id, idempotency_key: key })).toEqual(
          first.report,
        );
        expect(await r.metrics.byReports([first.report.id])).toEqual([]);
      });
      const other = await storage.transaction(async (tx) => {
        const otherWorld = await insertWorld(tx);
        const v = await insertVersion(tx, otherWorld.project.id, otherWorld.head.id, 1);
        return insertReport(tx, otherWorld, { version: v, minute: 1, points: [], idempotencyKey: key });
      });
      expect(other.report.idempotency_key).toBe(key);
    });

    it('stores a report once when concurrent transactions look its idempotency key up and insert it', async () => {
      const storage = await open();
      const key = uuid();
      const { world, version } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        return { world, version: await insertVersion(tx, world.project.id, world.head.id, 1) };
      });
      const ids = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          storage.transaction(async (tx) => {
            const existing = await tx.reports.find({ project_id: world.project.id, idempotency_key: key });
            if (existing) return existing.id;
            const points = [{ series: world.series[0], value: i }];
            return (await insertReport(tx, world, { version, minute: i, points, idempotencyKey: key })).report
              .id;
          }),
        ),
      );
      expect(new Set(ids).size).toBe(1);
      expect(await storage.read((r) => r.reports.count({ project_id: world.project.id }))).toBe(1);
      expect(await storage.read((r) => r.metrics.byReports([ids[0] as number]))).toHaveLength(1);
    });

    it('lists reports newest first, filtered by branch, testbed, time and archived dimensions', async () => {
      const storage = await open();
      const { world, reports, elsewhere } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const reports = [];
        for (const minute of [10, 30, 20])
          reports.push((await insertReport(tx, world, { version, minute, points: [] })).report);
        const testbed = await insertTestbed(tx, world.project.id);
        const elsewhere = (await insertReport(tx, world, { version, minute: 40, points: [], testbed }))
          .report;
        await tx.testbeds.update({ id: testbed.id }, { archived: true });
        return { world, reports, elsewhere };
      });
      const filter = { project_id: world.project.id, archived: false };
      const options = { page: 1, perPage: 10, direction: 'desc' as const };
      await storage.read(async (r) => {
        const all = await r.reports.listFiltered(filter, options);
        expect(all).toEqual({ items: [reports[1], reports[2], reports[0]], total: 3 });
        const asc = await r.reports.listFiltered(filter, {
          ...options,
          direction: 'asc',
          perPage: 2,
          page: 2,
        });
        expect(asc).toEqual({ items: [reports[1]], total: 3 });
        const window = await r.reports.listFiltered({ ...filter, from: at(20), to: at(21) }, options);
        expect(window.items).toEqual([reports[2]]);
        const byBranch = await r.reports.listFiltered(
          { ...filter, branch_id: world.branch.id + 1000 },
          options,
        );
        expect(byBranch).toEqual({ items: [], total: 0 });
        const archived = await r.reports.listFiltered({ ...filter, archived: true }, options);
        expect(archived).toEqual({ items: [elsewhere], total: 1 });
        const byTestbed = await r.reports.listFiltered({ ...filter, testbed_id: world.testbed.id }, options);
        expect(byTestbed.total).toBe(3);
      });
    });

    it('summarizes reports: benchmarks and metrics per iteration, active and all alerts', async () => {
      const storage = await open();
      const { stored, empty } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const { threshold, model } = await insertThreshold(tx, world);
        const [a, b] = world.series;
        const stored = await insertReport(tx, world, {
          version,
          minute: 1,
          points: [
            { series: a, value: 1 },
            { series: b, value: 2 },
            { series: a, value: 3, iteration: 1 },
          ],
        });
        const alert = { threshold_id: threshold.id, model_id: model.id, boundary_limit: 'upper' as const };
        const raised = await tx.alerts.raise(
          stored.report,
          [
            { ...alert, metric_id: stored.ids[0] as bigint },
            { ...alert, metric_id: stored.ids[2] as bigint },
          ],
          at(2),
        );
        await tx.alerts.update({ id: raised[0]?.id as number }, { status: 'dismissed' });
        const empty = await insertReport(tx, world, { version, minute: 2, points: [] });
        return { stored, empty };
      });
      const summaries = await storage.read((r) => r.reports.summaries([stored.report.id, empty.report.id]));
      expect(summaries.get(stored.report.id)).toEqual({
        report_id: stored.report.id,
        iterations: [
          { benchmarks: 2, measures: 2 },
          { benchmarks: 1, measures: 1 },
        ],
        alerts: { active: 1, total: 2 },
      });
      expect(summaries.get(empty.report.id)).toEqual({
        report_id: empty.report.id,
        iterations: [],
        alerts: { active: 0, total: 0 },
      });
      expect((await storage.read((r) => r.reports.summaries([]))).size).toBe(0);
    });

    it('reads the metrics and summaries of a page of 120 reports, whatever an engine reads them in', async () => {
      const storage = await open();
      const { world, ids } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const ids = [];
        for (let k = 0; k < 120; k++) {
          const points = [{ series: world.series[0]!, value: k }];
          if (k % 2) points.push({ series: world.series[1]!, value: -k });
          ids.push((await insertReport(tx, world, { version, minute: k, points })).report.id);
        }
        return { world, ids };
      });
      // asked for newest first, as a page lists them
      const page = [...ids].reverse();
      const rows = await storage.read((r) => r.metrics.byReports(page));
      expect(rows).toHaveLength(180);
      expect(rows.map((m) => m.report_id)).toEqual(rows.map((m) => m.report_id).sort((a, b) => a - b));
      expect(rows.filter((m) => m.benchmark_id === world.benchmarks[0]!.id).map((m) => m.value)).toEqual(
        ids.map((_, k) => k),
      );
      const summaries = await storage.read((r) => r.reports.summaries(page));
      expect(summaries.size).toBe(120);
      for (const [k, id] of ids.entries())
        expect(summaries.get(id)?.iterations).toEqual([
          { benchmarks: k % 2 ? 2 : 1, measures: k % 2 ? 2 : 1 },
        ]);
    });

    it("raises alerts on a report's metrics and lists a project's alerts, active first", async () => {
      const storage = await open();
      const { world, raised, stored } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        const { threshold, model } = await insertThreshold(tx, world);
        const points = [0, 1, 2].map((iteration) => ({ series: world.series[0], value: 99, iteration }));
        const stored = await insertReport(tx, world, { version, minute: 1, points });
        const raised = await tx.alerts.raise(
          stored.report,
          [...stored.ids].map((metric_id, i) => ({
            metric_id,
            threshold_id: threshold.id,
            model_id: model.id,
            boundary_limit: i === 0 ? ('lower' as const) : ('upper' as const),
          })),
          at(3),
        );
        expect(await tx.alerts.raise(stored.report, [], at(3))).toEqual([]);
        return { world, raised, stored };
      });
      expect(raised).toHaveLength(3);
      for (const alert of raised)
        expect(alert).toMatchObject({
          project_id: world.project.id,
          report_id: stored.report.id,
          head_id: world.head.id,
          status: 'active',
          created: at(3),
          modified: at(3),
        });
      expect(raised.map((a) => a.metric_id).sort()).toEqual([...stored.ids].sort());
      const byMetric = new Map(raised.map((a) => [a.metric_id, a]));
      const [first, second, third] = [...stored.ids].map((id) => byMetric.get(id)!);
      expect(first?.boundary_limit).toBe('lower');
      await storage.transaction(async (tx) => {
        await tx.alerts.update({ id: second!.id }, { status: 'silenced', modified: at(5) });
        await tx.alerts.update({ id: first!.id }, { modified: at(4) });
      });
      const list = (status: 'active' | undefined, sort: 'status' | 'created' | 'modified', page = 1) =>
        storage.read((r) =>
          r.alerts.listForProject(
            { project_id: world.project.id, status },
            { page, perPage: 2, sort, direction: 'asc' },
          ),
        );
      const ids = (page: { items: { id: number }[] }) => page.items.map((a) => a.id);
      const byStatus = await list(undefined, 'status');
      expect(byStatus.total).toBe(3);
      expect(ids(byStatus)).toEqual([first!.id, third!.id]);
      expect(ids(await list(undefined, 'status', 2))).toEqual([second!.id]);
      expect(ids(await list(undefined, 'modified'))).toEqual([third!.id, first!.id]);
      const active = await list('active', 'created');
      expect(active.total).toBe(2);
      // by the threshold's branch, testbed and measure and the metric's benchmark; counted by status
      const scoped = (scope: object) =>
        storage.read(async (r) => {
          const filter = { project_id: world.project.id, ...scope };
          const page = await r.alerts.listForProject(filter, {
            page: 1,
            perPage: 255,
            sort: 'status',
            direction: 'asc',
          });
          return {
            total: page.total,
            counts: await r.alerts.countByStatus(filter),
            active: (await r.alerts.idsMatching({ ...filter, status: 'active' })).sort((a, b) => a - b),
          };
        });
      const all = {
        total: 3,
        counts: { active: 2, silenced: 1 },
        active: [first!.id, third!.id].sort((a, b) => a - b),
      };
      expect(
        await scoped({
          branch_id: world.branch.id,
          testbed_id: world.testbed.id,
          measure_id: world.measure.id,
          benchmark_id: world.benchmarks[0]!.id,
        }),
      ).toEqual(all);
      const none = { total: 0, counts: {}, active: [] };
      expect(await scoped({ benchmark_id: world.benchmarks[1]!.id })).toEqual(none);
      expect(await scoped({ branch_id: world.branch.id + 1000 })).toEqual(none);
      expect(await storage.read((r) => r.alerts.find({ id: second!.id }))).toMatchObject({
        status: 'silenced',
        modified: at(5),
      });
    });
  });
}
