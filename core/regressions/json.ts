import { relativeChange } from '../detection/series-input.js';
import { dimensionJson, measureJson, versionJson } from '../dimensions/json.js';
import { iso } from '../schemas/common.js';
import type { RegressionEventJson, RegressionJson } from '../schemas/regressions.js';
import type {
  MeasureRecord,
  ProjectRecord,
  RegressionEventRecord,
  RegressionRecord,
  ReportRecord,
  UserRecord,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';

const byId = <T extends { id: number }>(rows: readonly T[]) => new Map(rows.map((row) => [row.id, row]));
const userRef = (user: UserRecord | undefined) =>
  user ? { uuid: user.uuid, name: user.name, slug: user.slug } : null;

/**
 * Regressions in their wire form, read in a fixed number of statements whatever their count: their series (with
 * benchmark and measure), the UUIDs of their alerts, their versions, branches, testbeds and assignees.
 */
export async function regressionJsons(
  r: ReadRepositories,
  project: ProjectRecord,
  regressions: readonly RegressionRecord[],
): Promise<RegressionJson[]> {
  if (regressions.length === 0) return [];
  const ids = regressions.map((x) => x.id);
  const series = await r.regressionSeries.all({ regression_id: ids });
  const links = await r.regressionAlerts.all({ regression_id: ids });
  const alerts = byId(links.length > 0 ? await r.alerts.all({ id: links.map((l) => l.alert_id) }) : []);
  const benchmarks = byId(await r.named.byIds('benchmark', [...new Set(series.map((s) => s.benchmark_id))]));
  const measures = byId(
    (await r.named.byIds('measure', [...new Set(series.map((s) => s.measure_id))])) as MeasureRecord[],
  );
  const versionIds = regressions.flatMap((x) =>
    [x.first_bad_version_id, x.last_good_version_id, x.fixed_version_id].filter((v) => v !== null),
  );
  const versions = byId(await r.versions.all({ id: [...new Set(versionIds)] }));
  const reports = await r.reports.all({ version_id: [...new Set(versionIds)] });
  // the first report of a branch and testbed at a version: where a plot of the change is centred
  const reportAt = (x: RegressionRecord, versionId: number | null) => {
    let first: ReportRecord | undefined;
    for (const report of reports)
      if (
        report.version_id === versionId &&
        report.branch_id === x.branch_id &&
        report.testbed_id === x.testbed_id &&
        (!first || report.start_time < first.start_time)
      )
        first = report;
    return first ? { uuid: first.uuid, start_time: iso(first.start_time) } : null;
  };
  const branches = byId(await r.branches.all({ id: [...new Set(regressions.map((x) => x.branch_id))] }));
  const testbeds = byId(await r.testbeds.all({ id: [...new Set(regressions.map((x) => x.testbed_id))] }));
  const assigneeIds = regressions.flatMap((x) => (x.assignee_id === null ? [] : [x.assignee_id]));
  const users = byId(assigneeIds.length > 0 ? await r.users.all({ id: [...new Set(assigneeIds)] }) : []);
  const version = (id: number | null) => (id === null ? null : versionJson(versions.get(id)));

  return regressions.flatMap((x) => {
    const branch = branches.get(x.branch_id);
    const testbed = testbeds.get(x.testbed_id);
    const firstBad = version(x.first_bad_version_id);
    if (!branch || !testbed || !firstBad) return [];
    const own = series
      .filter((s) => s.regression_id === x.id)
      .flatMap((s) => {
        const benchmark = benchmarks.get(s.benchmark_id);
        const measure = measures.get(s.measure_id);
        if (!benchmark || !measure) return [];
        return [
          {
            benchmark: dimensionJson(project, benchmark),
            measure: measureJson(project, measure),
            state: s.state,
            before: s.before_value,
            after: s.after_value,
            change: relativeChange(s.before_value, s.after_value),
            p_value: s.p_value,
            alerts: links
              .filter((l) => l.regression_id === x.id && l.series_id === s.series_id)
              .flatMap((l) => alerts.get(l.alert_id)?.uuid ?? []),
          },
        ];
      })
      // the largest change first: what a reader looks at
      .sort((a, b) => Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0));
    return [
      {
        uuid: x.uuid,
        project: project.uuid,
        branch: dimensionJson(project, branch),
        testbed: dimensionJson(project, testbed),
        kind: x.kind,
        status: x.status,
        last_good: version(x.last_good_version_id),
        first_bad: firstBad,
        reports: {
          last_good: reportAt(x, x.last_good_version_id),
          first_bad: reportAt(x, x.first_bad_version_id),
        },
        fixed_by: version(x.fixed_version_id),
        series: x.status === 'suspected' ? own : own.filter((s) => s.state === 'confirmed'),
        unconfirmed_series: x.status === 'suspected' ? [] : own.filter((s) => s.state !== 'confirmed'),
        note: x.note,
        issue_url: x.issue_url,
        assignee: x.assignee_id === null ? null : userRef(users.get(x.assignee_id)),
        reason: x.reason,
        created: iso(x.created),
        modified: iso(x.modified),
      },
    ];
  });
}

/** A regression's history in its wire form, oldest first. */
export async function regressionEventJsons(
  r: ReadRepositories,
  events: readonly RegressionEventRecord[],
): Promise<RegressionEventJson[]> {
  const userIds = [...new Set(events.flatMap((e) => (e.user_id === null ? [] : [e.user_id])))];
  const users = byId(userIds.length > 0 ? await r.users.all({ id: userIds }) : []);
  return events.map((e) => ({
    status: e.status,
    previous_status: e.previous_status,
    user: e.user_id === null ? null : userRef(users.get(e.user_id)),
    reason: e.reason,
    changes: e.changes === null ? null : (JSON.parse(e.changes) as Record<string, unknown>),
    created: iso(e.created),
  }));
}
