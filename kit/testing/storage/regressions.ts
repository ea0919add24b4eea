import { describe, expect, it } from 'vitest';
import type {
  New,
  RegressionRecord,
  RegressionStatus,
  Storage,
  WriteRepositories,
} from '../../../core/index.js';
import { at, insertReport, insertVersion, insertWorld, uuid, type World } from './fixtures.js';
import type { Opener } from './harness.js';
import { insertThreshold } from './reports.js';

function regressionValues(
  world: World,
  versionId: number,
  status: RegressionStatus,
  minute: number,
  extra: Partial<New<RegressionRecord>> = {},
): New<RegressionRecord> {
  return {
    uuid: uuid(),
    project_id: world.project.id,
    branch_id: world.branch.id,
    head_id: world.head.id,
    testbed_id: world.testbed.id,
    kind: 'regression',
    status,
    last_good_version_id: null,
    first_bad_version_id: versionId,
    fixed_version_id: null,
    note: null,
    issue_url: null,
    assignee_id: null,
    reason: null,
    created: at(minute),
    modified: at(minute),
    ...extra,
  };
}

async function addSeries(tx: WriteRepositories, world: World, regression: RegressionRecord, k: 0 | 1) {
  await tx.regressionSeries.insert({
    regression_id: regression.id,
    project_id: world.project.id,
    series_id: world.series[k],
    benchmark_id: world.benchmarks[k]!.id,
    measure_id: world.measure.id,
    state: 'suspected',
    before_value: 100,
    after_value: 115,
    p_value: null,
    created: at(0),
    modified: at(0),
  });
}

/** A project with four regressions: versions 1-4, statuses suspected, untriaged, acknowledged, fixed. */
async function fourRegressions(storage: Storage) {
  return storage.transaction(async (tx) => {
    const world = await insertWorld(tx);
    const statuses: RegressionStatus[] = ['suspected', 'untriaged', 'acknowledged', 'fixed'];
    const regressions: RegressionRecord[] = [];
    for (const [k, status] of statuses.entries()) {
      const version = await insertVersion(tx, world.project.id, world.head.id, k + 1, `h${k + 1}`);
      const regression = await tx.regressions.insert(
        regressionValues(world, version.id, status, k, {
          kind: k === 3 ? 'improvement' : 'regression',
          note: k === 2 ? 'Parser 50% Slower' : null,
        }),
      );
      await addSeries(tx, world, regression, k % 2 === 0 ? 0 : 1);
      regressions.push(regression);
    }
    return { world, regressions };
  });
}

export function describeRegressions(open: Opener): void {
  describe('project activity', () => {
    it("answers each project's newest report, reports per UTC day since a moment, active alerts and regressions", async () => {
      const storage = await open();
      const DAY = 24 * 60;
      const { world, quiet } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1);
        // two reports on the first day, none on the second, one on the third, and one long before
        const reports: Awaited<ReturnType<typeof insertReport>>[] = [];
        for (const minute of [-10 * DAY, 60, 120, 2 * DAY + 5])
          reports.push(
            await insertReport(tx, world, {
              version,
              minute,
              points: [{ series: world.series[0], value: 1 }],
            }),
          );
        const { threshold, model } = await insertThreshold(tx, world);
        const alert = (stored: (typeof reports)[number]) =>
          tx.alerts.raise(
            stored.report,
            [
              {
                metric_id: stored.ids[0]!,
                threshold_id: threshold.id,
                model_id: model.id,
                boundary_limit: 'upper',
              },
            ],
            at(3 * DAY),
          );
        await alert(reports[1]!);
        const [dismissed] = await alert(reports[2]!);
        await tx.alerts.update({ id: dismissed!.id }, { status: 'dismissed' });
        for (const [k, status] of (['untriaged', 'acknowledged', 'fixed'] as const).entries())
          await tx.regressions.insert(regressionValues(world, version.id, status, k));
        return { world, quiet: await insertWorld(tx) };
      });
      const day = (minutes: number) => at(minutes).toISOString().slice(0, 10);
      const activity = await storage.read((r) =>
        r.projects.activity([world.project.id, quiet.project.id], {
          since: at(0),
          regressionStatuses: ['untriaged', 'acknowledged'],
        }),
      );
      expect(activity.get(world.project.id)).toEqual({
        last: at(2 * DAY + 5),
        days: [
          { day: day(60), reports: 2 },
          { day: day(2 * DAY + 5), reports: 1 },
        ],
        alerts: 1,
        regressions: 2,
      });
      expect(activity.get(quiet.project.id)).toEqual({ last: null, days: [], alerts: 0, regressions: 0 });
      const none = await storage.read((r) =>
        r.projects.activity([], { since: at(0), regressionStatuses: [] }),
      );
      expect(none).toEqual(new Map());
    });
  });

  describe('regressions', () => {
    it('lists a project’s regressions filtered by status, kind, benchmark and search, open first', async () => {
      const storage = await open();
      const { world, regressions } = await fourRegressions(storage);
      const list = (filter: object, sort: 'status' | 'created' | 'version' = 'status', direction = 'desc') =>
        storage.read((r) =>
          r.regressions.listFiltered(
            { project_id: world.project.id, ...filter },
            { page: 1, perPage: 255, sort, direction: direction as 'asc' | 'desc' },
          ),
        );
      const ids = (page: { items: RegressionRecord[] }) => page.items.map((x) => x.id);
      const [suspected, untriaged, acknowledged, fixed] = regressions.map((x) => x.id);
      expect(ids(await list({}))).toEqual([untriaged, suspected, acknowledged, fixed]);
      expect(ids(await list({ statuses: ['untriaged', 'acknowledged'] }))).toEqual([untriaged, acknowledged]);
      expect(ids(await list({ kind: 'improvement' }))).toEqual([fixed]);
      expect(ids(await list({ benchmark_id: world.benchmarks[1]!.id }))).toEqual([untriaged, fixed]);
      expect(ids(await list({ search: 'parser 50%' }))).toEqual([acknowledged]);
      expect(ids(await list({ search: 'bench b' }))).toEqual([untriaged, fixed]);
      expect(ids(await list({ search: '%' }))).toEqual([acknowledged]);
      expect(ids(await list({}, 'version', 'asc'))).toEqual([suspected, untriaged, acknowledged, fixed]);
      expect(ids(await list({}, 'created', 'desc'))).toEqual([fixed, acknowledged, untriaged, suspected]);
      const page = await storage.read((r) =>
        r.regressions.listFiltered(
          { project_id: world.project.id },
          { page: 2, perPage: 3, sort: 'status', direction: 'desc' },
        ),
      );
      expect(page.total).toBe(4);
      expect(ids(page)).toEqual([fixed]);
    });

    it('filters by assignee and counts by status under the same filter', async () => {
      const storage = await open();
      const { world, regressions } = await fourRegressions(storage);
      const [, untriaged, acknowledged] = regressions.map((x) => x.id);
      await storage.transaction((tx) =>
        tx.regressions.update({ id: acknowledged! }, { assignee_id: world.user.id }),
      );
      const read = (filter: object) =>
        storage.read(async (r) => ({
          ids: (
            await r.regressions.listFiltered(
              { project_id: world.project.id, ...filter },
              { page: 1, perPage: 255, sort: 'status', direction: 'desc' },
            )
          ).items.map((x) => x.id),
          counts: await r.regressions.countByStatus({ project_id: world.project.id, ...filter }),
        }));
      expect(await read({ assignee_id: world.user.id })).toEqual({
        ids: [acknowledged],
        counts: { acknowledged: 1 },
      });
      expect((await read({ assignee_id: null })).counts).toEqual({ suspected: 1, untriaged: 1, fixed: 1 });
      expect((await read({})).counts).toEqual({ suspected: 1, untriaged: 1, acknowledged: 1, fixed: 1 });
      expect(await read({ benchmark_id: world.benchmarks[1]!.id, statuses: ['untriaged'] })).toEqual({
        ids: [untriaged],
        counts: { untriaged: 1 },
      });
    });

    it('keeps a series and an alert in a regression once, and a history of its events', async () => {
      const storage = await open();
      const { world, regressions } = await fourRegressions(storage);
      const regression = regressions[1]!;
      await storage.transaction(async (tx) => {
        await tx.regressionAlerts.insert({
          alert_id: 41,
          regression_id: regression.id,
          project_id: world.project.id,
          series_id: world.series[1],
        });
        await tx.regressionEvents.insert({
          regression_id: regression.id,
          project_id: world.project.id,
          user_id: world.user.id,
          status: 'acknowledged',
          previous_status: 'untriaged',
          changes: '{"note":"x"}',
          reason: null,
          created: at(9),
        });
      });
      await expect(storage.transaction((tx) => addSeries(tx, world, regression, 1))).rejects.toThrow();
      await expect(
        storage.transaction((tx) =>
          tx.regressionAlerts.insert({
            alert_id: 41,
            regression_id: regressions[0]!.id,
            project_id: world.project.id,
            series_id: world.series[0],
          }),
        ),
      ).rejects.toThrow();
      const events = await storage.read((r) => r.regressionEvents.all({ regression_id: regression.id }));
      expect(events.map((e) => [e.status, e.previous_status, e.user_id])).toEqual([
        ['acknowledged', 'untriaged', world.user.id],
      ]);
    });

    it('writes a grouping’s series, alerts and events set-based: new series, updated ones, events in order', async () => {
      const storage = await open();
      const { world, regressions } = await fourRegressions(storage);
      const [from, into, left] = regressions as [RegressionRecord, RegressionRecord, RegressionRecord];
      const [s0, s1] = world.series;
      const alert = (alert_id: number, regression: RegressionRecord, series_id: number) => ({
        alert_id,
        regression_id: regression.id,
        project_id: world.project.id,
        series_id,
      });
      const series = (
        regression: RegressionRecord,
        k: 0 | 1,
        state: 'suspected' | 'confirmed',
        p: number | null,
      ) => ({
        regression_id: regression.id,
        project_id: world.project.id,
        series_id: world.series[k],
        benchmark_id: world.benchmarks[k]!.id,
        measure_id: world.measure.id,
        state,
        before_value: 100,
        after_value: 130,
        p_value: p,
      });
      const event = (previous: RegressionStatus | null, changes: string | null, reason: string | null) => ({
        regression_id: into.id,
        project_id: world.project.id,
        user_id: changes === null ? world.user.id : null,
        status: 'untriaged' as const,
        previous_status: previous,
        changes,
        reason,
      });
      await storage.transaction(async (tx) => {
        for (const a of [alert(51, from, s0), alert(52, into, s1), alert(53, left, s0)])
          await tx.regressionAlerts.insert(a);
        await tx.regressions.write({ now: at(30), series: [], alerts: [], events: [] });
        // series leave (alerts moved, or gone), as the service removes them, before the write in one transaction
        await tx.regressionAlerts.update(
          { regression_id: from.id, series_id: [s0] },
          { regression_id: into.id },
        );
        await tx.regressionSeries.delete({ regression_id: from.id, series_id: [s0] });
        await tx.regressionAlerts.delete({ regression_id: left.id, series_id: [s0] });
        await tx.regressionSeries.delete({ regression_id: left.id, series_id: [s0] });
        await tx.regressions.write({
          now: at(30),
          // a series that left and comes back is new again
          series: [
            series(into, 0, 'suspected', null),
            series(into, 1, 'confirmed', 0.001),
            series(left, 0, 'confirmed', 0.01),
          ],
          alerts: [alert(54, into, s1)],
          events: [event('suspected', '{"series_added":[1]}', 'confirmed'), event('untriaged', null, null)],
        });
      });
      const read = (regression: RegressionRecord) =>
        storage.read(async (r) => ({
          series: (await r.regressionSeries.all({ regression_id: regression.id }))
            .map((x) => [x.series_id, x.state, x.after_value, x.p_value, x.created, x.modified])
            .sort((a, b) => Number(a[0]) - Number(b[0])),
          alerts: (await r.regressionAlerts.all({ regression_id: regression.id }))
            .map((x) => x.alert_id)
            .sort(),
          events: (await r.regressionEvents.all({ regression_id: regression.id }))
            .sort((a, b) => a.id - b.id)
            .map((e) => [e.previous_status, e.user_id, e.changes, e.reason, e.created]),
        }));
      expect(await read(from)).toEqual({ series: [], alerts: [], events: [] });
      expect(await read(left)).toEqual({
        series: [[s0, 'confirmed', 130, 0.01, at(30), at(30)]],
        alerts: [],
        events: [],
      });
      expect(await read(into)).toEqual({
        series: [
          [s0, 'suspected', 130, null, at(30), at(30)],
          // a series the regression holds keeps its creation time
          [s1, 'confirmed', 130, 0.001, at(0), at(30)],
        ].sort((a, b) => Number(a[0]) - Number(b[0])),
        alerts: [51, 52, 54],
        events: [
          ['suspected', null, '{"series_added":[1]}', 'confirmed', at(30)],
          ['untriaged', world.user.id, null, null, at(30)],
        ],
      });
    });

    it('removes what refers to deleted reports, dimensions and projects', async () => {
      const storage = await open();
      const { world, regression, reportId } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const version = await insertVersion(tx, world.project.id, world.head.id, 1, 'h1');
        const { threshold, model } = await insertThreshold(tx, world);
        const stored = await insertReport(tx, world, {
          version,
          minute: 1,
          points: [
            { series: world.series[0], value: 1 },
            { series: world.series[1], value: 1 },
          ],
        });
        const [alert] = await tx.alerts.raise(
          stored.report,
          [
            {
              metric_id: stored.ids[0]!,
              threshold_id: threshold.id,
              model_id: model.id,
              boundary_limit: 'upper',
            },
          ],
          at(1),
        );
        const regression = await tx.regressions.insert(regressionValues(world, version.id, 'untriaged', 1));
        await addSeries(tx, world, regression, 0);
        await addSeries(tx, world, regression, 1);
        await tx.regressionAlerts.insert({
          alert_id: alert!.id,
          regression_id: regression.id,
          project_id: world.project.id,
          series_id: world.series[0],
        });
        return { world, regression, reportId: stored.report.id };
      });
      const counts = () =>
        storage.read(async (r) => ({
          regressions: await r.regressions.count({ project_id: world.project.id }),
          series: await r.regressionSeries.count({ regression_id: regression.id }),
          alerts: await r.regressionAlerts.count({ regression_id: regression.id }),
        }));
      await storage.transaction((tx) => tx.metrics.deleteReport(reportId));
      expect(await counts()).toEqual({ regressions: 1, series: 2, alerts: 0 });
      await storage.transaction((tx) => tx.dimensions.deleteWithData('benchmark', world.benchmarks[0]!.id));
      expect(await counts()).toEqual({ regressions: 1, series: 1, alerts: 0 });
      await storage.transaction((tx) => tx.dimensions.deleteWithData('benchmark', world.benchmarks[1]!.id));
      expect(await counts()).toEqual({ regressions: 0, series: 0, alerts: 0 });
    });
  });
}
