import type { Ingested } from '../reports/ingested.js';
import type { RegressionKind, RegressionSeriesRecord, VersionRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { atNewLevel, lastGoodOf, memoized, nearLevel } from './analysis.js';
import { guardedSide, kindOf, measureDirection } from './direction.js';
import {
  ATTACHING_STATUSES,
  changeRegression,
  isOpen,
  openRegression,
  RegressionWriter,
  type RegressionChange,
  type SeriesValues,
  type TouchedRegression,
} from './lifecycle.js';

interface Candidate {
  regression: TouchedRegression['regression'];
  readonly firstBad: number;
  readonly series: Map<number, RegressionSeriesRecord>;
}

/**
 * Groups a report's alerts into regressions, in the ingest transaction: an alert whose value stays at the level of
 * a known change of its series (or back at the level before it) attaches to that change's regression; otherwise
 * it joins the regression of the same kind at the same version on the branch and testbed, or opens one. A point
 * alert's regression is `suspected` until the change-point detector confirms it after the commit; a change-point
 * alert's is confirmed already (`untriaged`). Reads what it needs up front and writes set-based at the end
 * ({@link RegressionWriter}): a few statements per report, whatever its number of alerts.
 */
export async function groupAlerts(
  tx: WriteRepositories,
  ingested: Pick<Ingested, 'report' | 'project' | 'branch' | 'head' | 'version' | 'testbed' | 'alerts'>,
  now: Date,
): Promise<{ regressions: TouchedRegression[]; alertedSeries: number[] }> {
  if (ingested.alerts.length === 0) return { regressions: [], alertedSeries: [] };
  const { report, head } = ingested;
  const rows = new Map(
    (await tx.metrics.byIds(ingested.alerts.map((a) => BigInt(a.metric.id)))).map((m) => [BigInt(m.id), m]),
  );
  const candidates = await loadCandidates(tx, ingested);
  const versions = await versionsOfReports(tx, [...rows.values()], ingested);
  const lastGood = memoized((number) => lastGoodOf(tx, head.id, number));
  const w = new RegressionWriter(tx, now);
  const touched = new Map<number, TouchedRegression>();
  const touch = (change: RegressionChange, how: TouchedRegression['how']) => {
    const before = touched.get(change.regression.id);
    const order = ['attached', 'joined', 'opened'] as const;
    const stronger = before && order.indexOf(before.how) > order.indexOf(how) ? before.how : how;
    touched.set(change.regression.id, { ...change, event: change.event ?? before?.event, how: stronger });
  };

  for (const { alert, metric } of ingested.alerts) {
    const row = rows.get(BigInt(metric.id));
    if (!row) continue;
    const version = versions.get(row.report_id);
    if (!version) continue;
    const confirmed = alert.change_p_value !== null;
    const before = confirmed ? (alert.change_before as number) : (metric.boundary?.baseline ?? metric.value);
    const after = confirmed ? (alert.change_after as number) : metric.value;
    const up = confirmed ? after > before : alert.boundary_limit === 'upper';
    const kind: RegressionKind = kindOf(
      measureDirection(metric.measure),
      guardedSide(metric.tested?.model ?? null),
      up,
    );
    const seriesId = row.series_id;

    // the same change seen again (or its way back): the alert belongs to the regression that holds it
    const known = candidates.find((c) => {
      const member = c.series.get(seriesId);
      if (!member || c.firstBad > version.number) return false;
      if (c.regression.kind === kind)
        return atNewLevel(metric.value, member.before_value, member.after_value);
      return (
        c.regression.status !== 'expected' && nearLevel(metric.value, member.before_value, member.after_value)
      );
    });
    if (known) {
      w.attachAlert(known.regression, alert.id, seriesId);
      touch({ regression: known.regression, event: undefined }, 'attached');
      continue;
    }
    const series: SeriesValues = {
      project_id: report.project_id,
      series_id: seriesId,
      benchmark_id: row.benchmark_id,
      measure_id: row.measure_id,
      state: confirmed ? 'confirmed' : 'suspected',
      before_value: before,
      after_value: after,
      p_value: confirmed ? alert.change_p_value : null,
    };
    const same = candidates.find(
      (c) =>
        c.regression.kind === kind &&
        c.regression.first_bad_version_id === version.id &&
        (c.regression.status === 'suspected' || isOpen(c.regression.status)) &&
        !c.series.has(seriesId),
    );
    if (same) {
      w.addSeries(same.regression, series);
      w.attachAlert(same.regression, alert.id, seriesId);
      same.series.set(seriesId, {
        ...series,
        regression_id: same.regression.id,
        created: now,
        modified: now,
      });
      const change = changeRegression(
        w,
        same.regression,
        confirmed && same.regression.status === 'suspected'
          ? { status: 'untriaged', reason: 'confirmed by the change-point detector' }
          : {},
        null,
        { series_added: [seriesId] },
      );
      same.regression = change.regression;
      touch(change, 'joined');
      continue;
    }
    const opened = await openRegression(
      w,
      {
        project_id: report.project_id,
        branch_id: report.branch_id,
        head_id: head.id,
        testbed_id: report.testbed_id,
        kind,
        status: confirmed ? 'untriaged' : 'suspected',
        last_good_version_id: await lastGood(version.number),
        first_bad_version_id: version.id,
        fixed_version_id: null,
        reason: confirmed ? 'raised by a change-point threshold' : null,
      },
      [series],
      [{ alert_id: alert.id, series_id: seriesId }],
    );
    candidates.push({
      regression: opened.regression,
      firstBad: version.number,
      series: new Map([
        [seriesId, { ...series, regression_id: opened.regression.id, created: now, modified: now }],
      ]),
    });
    touch(opened, 'opened');
  }
  await w.flush();
  return {
    regressions: [...touched.values()],
    alertedSeries: [...new Set([...rows.values()].map((m) => m.series_id))],
  };
}

/** The regressions of the report's head and testbed that later alerts may attach to, with their series. */
async function loadCandidates(
  tx: WriteRepositories,
  ingested: Pick<Ingested, 'report' | 'head'>,
): Promise<Candidate[]> {
  const regressions = await tx.regressions.all({
    project_id: ingested.report.project_id,
    branch_id: ingested.report.branch_id,
    head_id: ingested.head.id,
    testbed_id: ingested.report.testbed_id,
    status: [...ATTACHING_STATUSES],
  });
  if (regressions.length === 0) return [];
  const series = await tx.regressionSeries.all({ regression_id: regressions.map((r) => r.id) });
  const numbers = new Map(
    (await tx.versions.all({ id: [...new Set(regressions.map((r) => r.first_bad_version_id))] })).map((v) => [
      v.id,
      v.number,
    ]),
  );
  return regressions.map((regression) => ({
    regression,
    firstBad: numbers.get(regression.first_bad_version_id) ?? 0,
    series: new Map(
      series.filter((s) => s.regression_id === regression.id).map((s) => [s.series_id, s] as const),
    ),
  }));
}

/** The version of each alerted metric's report: the report's own, and those of earlier reports in two reads. */
async function versionsOfReports(
  tx: WriteRepositories,
  rows: readonly { report_id: number }[],
  ingested: Pick<Ingested, 'report' | 'version'>,
): Promise<Map<number, VersionRecord>> {
  const found = new Map([[ingested.report.id, ingested.version]]);
  const others = [...new Set(rows.map((m) => m.report_id))].filter((id) => id !== ingested.report.id);
  if (others.length === 0) return found;
  const reports = await tx.reports.all({ id: others });
  const versions = new Map(
    (await tx.versions.all({ id: reports.map((r) => r.version_id) })).map((v) => [v.id, v]),
  );
  for (const r of reports) {
    const version = versions.get(r.version_id);
    if (version) found.set(r.id, version);
  }
  return found;
}
