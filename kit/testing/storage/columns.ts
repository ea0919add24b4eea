import { describe, expect, it } from 'vitest';
import {
  uuidAt,
  type HistoryColumns,
  type PerfColumns,
  type PerfLines,
  type PerfRequest,
  type Storage,
} from '../../../core/index.js';
import { perfLinesOf } from '../../../core/storage/columns.js';
import { at, insertBranch, insertReport, insertVersion, insertWorld, MINUTE, T0 } from './fixtures.js';
import type { Opener } from './harness.js';
import { insertThreshold } from './reports.js';

const NO_WINDOW = Number.NEGATIVE_INFINITY;

/** The samples of each requested series, read through the offsets. */
function samples(answer: HistoryColumns): number[][] {
  return Array.from({ length: answer.offsets.length - 1 }, (_, i) =>
    Array.from(answer.values.subarray(answer.offsets[i], answer.offsets[i + 1])),
  );
}

/**
 * A head with versions 1..3 and six reports (minute m has value m on series a; series b only on even minutes,
 * value 10m), a fork whose head links version 1 only, and another branch's report that no answer may show.
 */
async function history(storage: Storage) {
  return storage.transaction(async (tx) => {
    const world = await insertWorld(tx);
    const [a, b] = world.series;
    const versions = [];
    for (let n = 1; n <= 3; n++)
      versions.push(await insertVersion(tx, world.project.id, world.head.id, n, `h${n}`));
    const reports = [];
    for (let minute = 1; minute <= 6; minute++) {
      const points = [
        { series: a, value: minute },
        ...(minute % 2 === 0 ? [{ series: b, value: 10 * minute }] : []),
      ];
      const version = versions[Math.ceil(minute / 2) - 1]!;
      reports.push(await insertReport(tx, world, { version, minute, points }));
    }
    const fork = await insertBranch(tx, world.project.id);
    await tx.headVersions.link(fork.head.id, [versions[0]!.id]);
    const other = await insertBranch(tx, world.project.id);
    const otherVersion = await insertVersion(tx, world.project.id, other.head.id, 7);
    await insertReport(tx, world, {
      version: otherVersion,
      minute: 7,
      points: [{ series: a, value: 100 }],
      head: other.head,
      branch: other.branch,
    });
    return { world, versions, reports, fork };
  });
}

/** The column layout of history and perf answers. */
export function describeColumns(open: Opener): void {
  describe('history columns', () => {
    it('answers per series the newest values on a head, capped by sample size and window', async () => {
      const storage = await open();
      const { world, fork } = await history(storage);
      const [a, b] = world.series;
      const answer = await storage.read((r) =>
        r.metrics.history({
          headId: world.head.id,
          series: Int32Array.from([a, b, a, 999_999, b]),
          maxSamples: Int32Array.from([3, 10, 10, 5, 1]),
          since: Float64Array.from([NO_WINDOW, NO_WINDOW, T0 + 4 * MINUTE, NO_WINDOW, NO_WINDOW]),
        }),
      );
      expect(answer.offsets).toBeInstanceOf(Uint32Array);
      expect(answer.values).toBeInstanceOf(Float64Array);
      expect(answer.offsets).toHaveLength(6);
      expect(samples(answer)).toEqual([[6, 5, 4], [60, 40, 20], [6, 5, 4], [], [60]]);
      const forked = await storage.read((r) =>
        r.metrics.history({
          headId: fork.head.id,
          series: Int32Array.from([a, b]),
          maxSamples: Int32Array.from([10, 10]),
          since: Float64Array.from([NO_WINDOW, NO_WINDOW]),
        }),
      );
      expect(samples(forked)).toEqual([[2, 1], [20]]);
    });

    it('answers an empty request with one offset and no values', async () => {
      const storage = await open();
      const { world } = await history(storage);
      const empty = { headId: world.head.id, series: new Int32Array(0), maxSamples: new Int32Array(0) };
      const answer = await storage.read((r) => r.metrics.history({ ...empty, since: new Float64Array(0) }));
      expect(Array.from(answer.offsets)).toEqual([0]);
      expect(answer.values).toHaveLength(0);
    });

    it('sees its own uncommitted report inside a transaction', async () => {
      const storage = await open();
      const { world, versions } = await history(storage);
      const answer = await storage.transaction(async (tx) => {
        await insertReport(tx, world, {
          version: versions[2]!,
          minute: 8,
          points: [{ series: world.series[0], value: 8 }],
        });
        return tx.metrics.history({
          headId: world.head.id,
          series: Int32Array.from([world.series[0]]),
          maxSamples: Int32Array.from([2]),
          since: Float64Array.from([NO_WINDOW]),
        });
      });
      expect(samples(answer)).toEqual([[8, 6]]);
    });
  });

  describe('perf columns', () => {
    it('answers every permutation in one columnar answer, ordered by permutation, version, time, iteration', async () => {
      const storage = await open();
      const { world, versions, reports, fork } = await history(storage);
      const [a, b] = world.series;
      const answer = await storage.read((r) =>
        r.metrics.perf({
          series: Int32Array.from([b, a]),
          heads: Int32Array.from([world.head.id, fork.head.id]),
        }),
      );
      expect(answer.count).toBe(5);
      expect(answer.permutation).toEqual(Int32Array.from([0, 0, 0, 1, 1]));
      expect(Array.from(answer.value)).toEqual([20, 40, 60, 1, 2]);
      expect(Array.from(answer.version)).toEqual([1, 2, 3, 1, 1]);
      expect(answer.hash).toEqual(['h1', 'h2', 'h3', 'h1', 'h1']);
      expect(Array.from(answer.start)).toEqual([2, 4, 6, 1, 2].map((m) => T0 + m * MINUTE));
      expect(Array.from(answer.end)).toEqual([3, 5, 7, 2, 3].map((m) => T0 + m * MINUTE));
      expect(Array.from(answer.iteration)).toEqual([0, 0, 0, 0, 0]);
      const reportOf = (minute: number) => reports[minute - 1]!;
      const points = [2, 4, 6, 1, 2];
      expect(points.map((_, i) => uuidAt(answer.report, answer.count, i))).toEqual(
        points.map((m) => reportOf(m).report.uuid),
      );
      expect(points.map((_, i) => uuidAt(answer.uuid, answer.count, i))).toEqual(
        points.map((m, i) => reportOf(m).uuids[i < 3 ? 1 : 0]),
      );
      expectAbsentBoundaries(answer);
      expect(versions).toHaveLength(3);
      await expectLines(storage, {
        series: Int32Array.from([b, a]),
        heads: Int32Array.from([world.head.id, fork.head.id]),
      });
    });

    it('orders by version number before time, then iteration, and shows boundaries and alerts', async () => {
      const storage = await open();
      const { world, alert, stored } = await storage.transaction(async (tx) => {
        const world = await insertWorld(tx);
        const { threshold, model } = await insertThreshold(tx, world);
        const older = await insertVersion(tx, world.project.id, world.head.id, 1, null);
        const newer = await insertVersion(tx, world.project.id, world.head.id, 2, 'abc');
        const boundary = {
          threshold: threshold.id,
          model: model.id,
          baseline: 5,
          lowerLimit: 1,
          upperLimit: 9,
        };
        const series = world.series[0];
        const late = await insertReport(tx, world, {
          version: older,
          minute: 9,
          points: [{ series, value: 3 }],
        });
        const stored = await insertReport(tx, world, {
          version: newer,
          minute: 1,
          points: [
            { series, value: 12, iteration: 1, boundary, lower: 11, upper: 13 },
            { series, value: 7, iteration: 0 },
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
          at(4),
        );
        return { world, alert: alert!, stored: { ...stored, late } };
      });
      const answer = await storage.read((r) =>
        r.metrics.perf({
          series: Int32Array.from([world.series[0]]),
          heads: Int32Array.from([world.head.id]),
        }),
      );
      expect(Array.from(answer.value)).toEqual([3, 7, 12]);
      expect(answer.hash).toEqual([null, 'abc', 'abc']);
      expect(Array.from(answer.iteration)).toEqual([0, 0, 1]);
      expect(Array.from(answer.threshold)).toEqual([0, 0, alert.threshold_id]);
      expect(Array.from(answer.model)).toEqual([0, 0, alert.model_id]);
      expect(Array.from(answer.baseline)).toEqual([NaN, NaN, 5]);
      expect(Array.from(answer.lowerLimit)).toEqual([NaN, NaN, 1]);
      expect(Array.from(answer.upperLimit)).toEqual([NaN, NaN, 9]);
      expect(Array.from(answer.lower)).toEqual([NaN, NaN, 11]);
      expect(Array.from(answer.upper)).toEqual([NaN, NaN, 13]);
      expect(answer.alert).toEqual([null, null, alert.uuid]);
      expect(answer.alertLimit).toEqual([null, null, 'upper']);
      expect(answer.alertStatus).toEqual([null, null, 'active']);
      expect(Array.from(answer.alertModified)).toEqual([NaN, NaN, at(4).getTime()]);
      expect(uuidAt(answer.uuid, answer.count, 2)).toBe(stored.uuids[0]);
      const lines = await expectLines(storage, {
        series: Int32Array.from([world.series[0]]),
        heads: Int32Array.from([world.head.id]),
      });
      expect(Array.from(lines.alert)).toEqual([0, 0, 1]);
      expect(Array.from(lines.upperLimit)).toEqual([NaN, NaN, 9]);
    });

    it('answers the same points without metric UUIDs when the request needs none (metricUuids: false)', async () => {
      const storage = await open();
      const { world, fork } = await history(storage);
      const request = {
        series: Int32Array.from([world.series[1], world.series[0]]),
        heads: Int32Array.from([world.head.id, fork.head.id]),
      };
      const { whole, lean } = await storage.read(async (r) => ({
        whole: await r.metrics.perf(request),
        lean: await r.metrics.perf({ ...request, metricUuids: false }),
      }));
      expect(lean.count).toBe(whole.count);
      expect(lean.count).toBeGreaterThan(0);
      expect({ ...lean, uuid: whole.uuid }).toEqual(whole);
      expect(lean.uuid).toEqual(new Uint32Array(4 * whole.count));
    });

    it('keeps the points inside the time range, and the first ones up to the limit', async () => {
      const storage = await open();
      const { world } = await history(storage);
      const request = { series: Int32Array.from([world.series[0]]), heads: Int32Array.from([world.head.id]) };
      const values = async (more: { start?: number; end?: number; limit?: number }) =>
        Array.from((await storage.read((r) => r.metrics.perf({ ...request, ...more }))).value);
      expect(await values({ start: T0 + 2 * MINUTE, end: T0 + 5 * MINUTE })).toEqual([2, 3, 4]);
      expect(await values({ start: T0 + 7 * MINUTE })).toEqual([]);
      expect(await values({ limit: 2 })).toEqual([1, 2]);
      await expectLines(storage, { ...request, start: T0 + 2 * MINUTE, end: T0 + 5 * MINUTE });
      await expectLines(storage, { ...request, limit: 2 });
      await expectLines(storage, { ...request, start: T0 + 7 * MINUTE });
      await expectLines(storage, { series: new Int32Array(0), heads: new Int32Array(0) });
      const empty = await storage.read((r) =>
        r.metrics.perf({ series: new Int32Array(0), heads: new Int32Array(0) }),
      );
      expect(empty.count).toBe(0);
      expect(empty.value).toHaveLength(0);
    });

    it('answers a capped selection whole up to its cap, and none of one over it (images alike)', async () => {
      const storage = await open();
      const { world, fork } = await history(storage);
      const request = {
        series: Int32Array.from([world.series[1], world.series[0]]),
        heads: Int32Array.from([world.head.id, fork.head.id]),
      };
      const { whole, lines, lean } = await storage.read(async (r) => ({
        whole: await r.metrics.perf(request),
        lines: await r.metrics.perfLines(request),
        lean: await r.metrics.perf({ ...request, metricUuids: false }),
      }));
      const cap = whole.count;
      const capped = await storage.read(async (r) => ({
        at: await r.metrics.perf({ ...request, cap }),
        atLean: await r.metrics.perf({ ...request, cap, metricUuids: false }),
        atLimit: await r.metrics.perf({ ...request, cap, limit: 2 }),
        linesAt: await r.metrics.perfLines({ ...request, cap }),
        over: await r.metrics.perf({ ...request, cap: cap - 1 }),
        overLean: await r.metrics.perf({ ...request, cap: cap - 1, metricUuids: false }),
        linesOver: await r.metrics.perfLines({ ...request, cap: cap - 1 }),
        counted: await r.metrics.perfCount({ ...request, cap: cap - 1 }),
      }));
      expect(capped.at).toEqual(whole);
      expect(capped.atLean).toEqual(lean);
      expect(capped.atLimit).toEqual(await storage.read((r) => r.metrics.perf({ ...request, limit: 2 })));
      expect(capped.linesAt).toEqual(lines);
      expect(capped.over.count).toBe(0);
      expect(capped.over.value).toHaveLength(0);
      expect(capped.overLean.count).toBe(0);
      expect(capped.linesOver.count).toBe(0);
      expect(capped.counted).toBe(cap);
    });

    it('answers the same history and perf after maintenance, when the engine offers it', async (context) => {
      const storage = await open();
      if (!storage.maintain) context.skip();
      const { world, fork } = await history(storage);
      const ask = () =>
        storage.read(async (r) => ({
          history: samples(
            await r.metrics.history({
              headId: world.head.id,
              series: Int32Array.from(world.series),
              maxSamples: Int32Array.from([4, 4]),
              since: Float64Array.from([NO_WINDOW, T0 + 3 * MINUTE]),
            }),
          ),
          perf: await r.metrics.perf({
            series: Int32Array.from([world.series[0], world.series[1]]),
            heads: Int32Array.from([fork.head.id, world.head.id]),
          }),
          lines: await r.metrics.perfLines({
            series: Int32Array.from([world.series[0], world.series[1]]),
            heads: Int32Array.from([fork.head.id, world.head.id]),
          }),
        }));
      const before = await ask();
      const result = await storage.maintain!();
      expect(typeof result.compacted).toBe('boolean');
      expect(result.rows).toBe(10);
      expect(await ask()).toEqual(before);
    });
  });
}

/**
 * `perfLines` answers what an image draws of `perf`'s answer to the same request, column for column, and
 * `perfCount` counts its points (up to the request's limit, and up to each smaller one).
 */
async function expectLines(storage: Storage, request: PerfRequest): Promise<PerfLines> {
  const { perf, lines, count, counts } = await storage.read(async (r) => {
    const perf = await r.metrics.perf(request);
    const counts: number[] = [];
    for (let limit = 0; limit < perf.count; limit++)
      counts.push(await r.metrics.perfCount({ ...request, limit }));
    return {
      perf,
      lines: await r.metrics.perfLines(request),
      count: await r.metrics.perfCount(request),
      counts,
    };
  });
  expect(lines).toEqual(perfLinesOf(perf));
  expect(count).toBe(perf.count);
  expect(counts).toEqual(counts.map((_, limit) => limit));
  return lines;
}

function expectAbsentBoundaries(answer: PerfColumns): void {
  const nan = new Array<number>(answer.count).fill(Number.NaN);
  const none = new Array<string | null>(answer.count).fill(null);
  for (const column of [answer.lower, answer.upper, answer.baseline, answer.lowerLimit, answer.upperLimit])
    expect(Array.from(column)).toEqual(nan);
  expect(Array.from(answer.threshold)).toEqual(new Array<number>(answer.count).fill(0));
  expect(Array.from(answer.model)).toEqual(new Array<number>(answer.count).fill(0));
  expect(answer.alert).toEqual(none);
  expect(answer.alertLimit).toEqual(none);
  expect(answer.alertStatus).toEqual(none);
  expect(Array.from(answer.alertModified)).toEqual(nan);
}
