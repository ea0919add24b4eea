import { describe, expect, it } from 'vitest';
import type { DimensionKind, ReadRepositories, Storage } from '../../../core/index.js';
import { at, insertBranch, insertReport, insertVersion, insertWorld, uuid, type World } from './fixtures.js';
import type { Opener } from './harness.js';
import { insertThreshold } from './reports.js';

/**
 * Two projects with the same shape: in each, two reports on the main branch (both series, an alert on the first
 * metric), a threshold on main, and a plot naming every dimension.
 */
async function twoProjects(storage: Storage) {
  const one = () =>
    storage.transaction(async (tx) => {
      const world = await insertWorld(tx);
      const version = await insertVersion(tx, world.project.id, world.head.id, 1, 'h1');
      const { threshold, model } = await insertThreshold(tx, world);
      const [a, b] = world.series;
      const reports = [];
      for (const minute of [1, 2]) {
        const stored = await insertReport(tx, world, {
          version,
          minute,
          points: [
            { series: a, value: minute },
            { series: b, value: minute },
          ],
        });
        await tx.alerts.raise(
          stored.report,
          [
            {
              metric_id: stored.ids[0] as bigint,
              threshold_id: threshold.id,
              model_id: model.id,
              boundary_limit: 'upper',
            },
          ],
          at(minute),
        );
        reports.push(stored);
      }
      const plot = await tx.plots.insert({
        uuid: uuid(),
        project_id: world.project.id,
        rank: 1,
        title: null,
        lower_value: false,
        upper_value: false,
        lower_boundary: false,
        upper_boundary: false,
        x_axis: 'date_time',
        y_axis: 'auto',
        window_seconds: 3600,
        branch_ids: [world.branch.id],
        testbed_ids: [world.testbed.id],
        benchmark_ids: world.benchmarks.map((d) => d.id),
        measure_ids: [world.measure.id],
        created: at(0),
        modified: at(0),
      });
      return { world, threshold, reports, plot };
    });
  return { kept: await one(), doomed: await one() };
}

/** Rows of the project's data, counted per table. */
async function census(r: ReadRepositories, world: World) {
  const project_id = world.project.id;
  return {
    branches: await r.branches.count({ project_id }),
    testbeds: await r.testbeds.count({ project_id }),
    benchmarks: await r.benchmarks.count({ project_id }),
    measures: await r.measures.count({ project_id }),
    series: await r.series.count({ project_id }),
    versions: await r.versions.count({ project_id }),
    reports: await r.reports.count({ project_id }),
    alerts: await r.alerts.count({ project_id }),
    thresholds: await r.thresholds.count({ project_id }),
    plots: await r.plots.count({ project_id }),
  };
}

const FULL = {
  branches: 1,
  testbeds: 1,
  benchmarks: 2,
  measures: 1,
  series: 2,
  versions: 1,
  reports: 2,
  alerts: 2,
  thresholds: 1,
  plots: 1,
};

/** What deleting each kind leaves of a project (FULL before). */
const AFTER: Record<DimensionKind, typeof FULL> = {
  branch: { ...FULL, branches: 0, versions: 0, reports: 0, alerts: 0, thresholds: 0 },
  testbed: { ...FULL, testbeds: 0, series: 0, reports: 0, alerts: 0, thresholds: 0 },
  benchmark: { ...FULL, benchmarks: 1, series: 1, alerts: 0 },
  measure: { ...FULL, measures: 0, series: 0, alerts: 0, thresholds: 0 },
};

/** Cascading deletes of dimensions, reports' metrics and whole projects. */
export function describeCascades(open: Opener): void {
  describe('cascading deletes', () => {
    it('counts what refers to each dimension', async () => {
      const storage = await open();
      const { doomed } = await twoProjects(storage);
      const { world } = doomed;
      await storage.read(async (r) => {
        expect(await r.dimensions.usage('branch', world.branch.id)).toEqual({
          reports: 2,
          metrics: 4,
          thresholds: 1,
        });
        expect(await r.dimensions.usage('testbed', world.testbed.id)).toEqual({
          reports: 2,
          metrics: 4,
          thresholds: 1,
        });
        expect(await r.dimensions.usage('benchmark', world.benchmarks[0]!.id)).toEqual({
          reports: 0,
          metrics: 2,
          thresholds: 0,
        });
        expect(await r.dimensions.usage('measure', world.measure.id)).toEqual({
          reports: 0,
          metrics: 4,
          thresholds: 1,
        });
      });
      const unused = await storage.transaction((tx) => insertBranch(tx, world.project.id));
      expect(await storage.read((r) => r.dimensions.usage('branch', unused.branch.id))).toEqual({
        reports: 0,
        metrics: 0,
        thresholds: 0,
      });
    });

    for (const kind of ['branch', 'testbed', 'benchmark', 'measure'] as const) {
      it(`deletes a ${kind} and everything that refers to it, and nothing of another project`, async () => {
        const storage = await open();
        const { kept, doomed } = await twoProjects(storage);
        const { world } = doomed;
        const id = {
          branch: world.branch,
          testbed: world.testbed,
          measure: world.measure,
          benchmark: world.benchmarks[0]!,
        }[kind].id;
        await storage.transaction((tx) => tx.dimensions.deleteWithData(kind, id));
        await storage.read(async (r) => {
          expect(await census(r, world)).toEqual(AFTER[kind]);
          expect(await census(r, kept.world)).toEqual(FULL);
          expect(await r.dimensions.usage(kind, id)).toEqual({ reports: 0, metrics: 0, thresholds: 0 });
          const plot = await r.plots.find({ id: doomed.plot.id });
          expect(plot?.[`${kind}_ids`]).not.toContain(id);
          expect(await r.plots.find({ id: kept.plot.id })).toEqual(kept.plot);
          const metrics = await r.metrics.byIds([...doomed.reports.flatMap((s) => [...s.ids])]);
          expect(metrics).toHaveLength(kind === 'benchmark' ? 2 : 0);
          expect(await r.metrics.byReports([kept.reports[0]!.report.id])).toHaveLength(2);
        });
      });
    }

    it("deletes a report's metrics and alerts", async () => {
      const storage = await open();
      const { kept, doomed } = await twoProjects(storage);
      const [first, second] = doomed.reports;
      await storage.transaction(async (tx) => {
        await tx.metrics.deleteReport(first!.report.id);
        await tx.reports.delete({ id: first!.report.id });
      });
      await storage.read(async (r) => {
        expect(await r.metrics.byReports([first!.report.id])).toEqual([]);
        expect(await r.alerts.count({ report_id: first!.report.id })).toBe(0);
        expect(await r.metrics.byReports([second!.report.id])).toHaveLength(2);
        expect(await r.alerts.count({ report_id: second!.report.id })).toBe(1);
        expect(await census(r, kept.world)).toEqual(FULL);
      });
    });

    it('deletes a project with all its data and nothing of another project', async () => {
      const storage = await open();
      const { kept, doomed } = await twoProjects(storage);
      await storage.transaction((tx) => tx.projects.deleteWithData(doomed.world.project.id));
      const none = Object.fromEntries(Object.keys(FULL).map((k) => [k, 0]));
      await storage.read(async (r) => {
        expect(await r.projects.find({ id: doomed.world.project.id })).toBeUndefined();
        expect(await census(r, doomed.world)).toEqual(none);
        expect(await r.heads.count({ branch_id: doomed.world.branch.id })).toBe(0);
        expect(await r.models.count({ threshold_id: doomed.threshold.id })).toBe(0);
        expect(await r.metrics.byIds([...doomed.reports[0]!.ids])).toEqual([]);
        expect(await census(r, kept.world)).toEqual(FULL);
        expect(await r.organizations.find({ id: doomed.world.organization.id })).toEqual(
          doomed.world.organization,
        );
      });
    });
  });
}
