import { api } from '../../api/client.js';
import type { AlertJson, ReportJson } from '../../api/types.js';
import { Empty, ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber, formatPercent, shortHash } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { around, HistoryPlot } from '../../perf/history-plot.js';
import { explorerHref } from '../../perf/selection.js';
import { pastLimit } from './alert-groups.js';
import { tabHref, type ProjectContext } from './context.js';
import { ReportResults } from './report-results.js';
import { DimensionLink } from '../../components/dimension-link.js';

const SERIES_MAX = 255;

function limitText(alert: AlertJson): string {
  return alert.limit === 'upper' ? 'above the upper limit' : 'below the lower limit';
}

/** The explorer around a report: its alerted benchmarks and measure if it has alerts, else all of the first. */
export function reportExplorerHref(ctx: ProjectContext, report: ReportJson): string {
  const alerts = report.alerts ?? [];
  const results = (report.results ?? []).flat();
  const measure = alerts[0]?.measure.uuid ?? results[0]?.measures[0]?.measure.uuid;
  const benchmarks = alerts.length
    ? alerts.filter((a) => a.measure.uuid === measure).map((a) => a.benchmark.uuid)
    : results.map((r) => r.benchmark.uuid);
  return explorerHref(tabHref(ctx, 'perf'), {
    branches: [report.branch.uuid],
    testbeds: [report.testbed.uuid],
    benchmarks: [...new Set(benchmarks)].slice(0, SERIES_MAX),
    measures: measure ? [measure] : [],
    range: 'custom',
    ...around(report.start_time),
  });
}

function AlertsCallout({ ctx, report }: { ctx: ProjectContext; report: ReportJson }) {
  return (
    <div class="callout alert" role="note">
      <h2>
        {report.counts.alerts.active} active of {report.counts.alerts.total} alerts
      </h2>
      <ul>
        {report.alerts!.map((a) => (
          <li key={a.uuid}>
            <a href={`${ctx.base}/alerts/${a.uuid}`}>
              <strong>{a.benchmark.name}</strong> ({a.measure.name})
            </a>
            : {formatNumber(a.metric.value)} is {limitText(a)}{' '}
            {formatNumber(a.limit === 'upper' ? a.boundary.upper_limit : a.boundary.lower_limit)} (
            {pastLimit(a)}) — {a.status} ·{' '}
            <a
              href={explorerHref(tabHref(ctx, 'perf'), {
                branches: [report.branch.uuid],
                testbeds: [report.testbed.uuid],
                benchmarks: [a.benchmark.uuid],
                measures: [a.measure.uuid],
                range: 'custom',
                ...around(a.start_time),
              })}
            >
              plot
            </a>
          </li>
        ))}
      </ul>
      <a href={tabHref(ctx, 'alerts')}>All alerts of the project</a>
    </div>
  );
}

/**
 * The change points this report confirmed (alerts of change_point thresholds): where each new regime starts,
 * which may be some reports earlier, and its levels before and after.
 */
function ConfirmedChanges({ ctx, alerts }: { ctx: ProjectContext; alerts: readonly AlertJson[] }) {
  return (
    <section class="callout" aria-labelledby="confirmed-changes" data-testid="confirmed-changes">
      <h2 id="confirmed-changes">Change points this report confirmed</h2>
      <ul>
        {alerts.map((a) => {
          const change = a.change_point!;
          return (
            <li key={a.uuid}>
              <a href={`${ctx.base}/alerts/${a.uuid}`}>
                <strong>{a.benchmark.name}</strong> ({a.measure.name})
              </a>
              : {formatNumber(change.before)} → {formatNumber(change.after)} {a.measure.units} (
              {formatPercent(change.change === null ? null : change.change * 100)}), from{' '}
              {change.report === a.report ? (
                'this report'
              ) : (
                <a href={`${ctx.base}/reports/${change.report}`}>the report where the new level starts</a>
              )}{' '}
              <span class="muted small">p = {change.p_value.toPrecision(2)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A report's benchmarks (up to the perf query's 255) and its measures. */
function reportSeries(report: ReportJson) {
  const results = (report.results ?? []).flat();
  return {
    benchmarks: [...new Set(results.map((r) => r.benchmark.uuid))].slice(0, SERIES_MAX),
    measures: [
      ...new Map(results.flatMap((r) => r.measures.map((m) => [m.measure.uuid, m.measure]))).values(),
    ],
  };
}

/** A plot per measure of a report's benchmarks on its branch and testbed over `window`, its points ringed. */
export function ReportPlots({
  ctx,
  report,
  window,
  caption,
  label,
}: {
  ctx: ProjectContext;
  report: ReportJson;
  window: { start_time: number; end_time: number };
  caption: string;
  label: (measure: string) => string;
}) {
  const { benchmarks, measures } = reportSeries(report);
  return (
    <>
      {measures.map((measure) => (
        <div key={measure.uuid} class="report-plot">
          <h2>
            {measure.name} <span class="muted small">{caption}</span>
          </h2>
          <HistoryPlot
            ctx={ctx}
            history={{
              branches: [report.branch.uuid],
              testbeds: [report.testbed.uuid],
              benchmarks,
              measures: [measure.uuid],
              ...window,
            }}
            highlight={report.uuid}
            label={label(measure.name)}
          />
        </div>
      ))}
    </>
  );
}

/**
 * One report: its alerts, the change points it confirmed, a plot per measure of its benchmarks around it (its points ringed), and every result
 * with its change against the baseline and the limit, alerted rows first.
 */
export function Report({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const loaded = useApi(
    (signal) => api.get<ReportJson>(`${ctx.path}/reports/${uuid}`, {}, signal),
    [ctx.path, uuid],
  );
  const report = loaded.data;
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!report) return <Loading what="Loading the report" />;
  const alerts = new Map((report.alerts ?? []).map((a) => [a.metric.uuid, a]));
  const changes = (report.alerts ?? []).filter((a) => a.change_point !== null);
  const iterations = report.results ?? [];
  const version = report.branch.head.version;
  const { benchmarks } = reportSeries(report);
  return (
    <section>
      <PageHeader title={`Report of ${formatDateTime(report.start_time)}`}>
        {benchmarks.length > 0 && (
          <a class="button" href={reportExplorerHref(ctx, report)}>
            Plot in the explorer
          </a>
        )}
      </PageHeader>
      <dl class="facts">
        <dt>Branch</dt>
        <dd>
          <DimensionLink ctx={ctx} kind="branches" of={report.branch} />
        </dd>
        <dt>Testbed</dt>
        <dd>
          <DimensionLink ctx={ctx} kind="testbeds" of={report.testbed} />
        </dd>
        <dt>Version</dt>
        <dd class="mono">{version ? `#${version.number} ${version.hash ?? ''}` : '—'}</dd>
        <dt>Ran</dt>
        <dd>
          {formatDateTime(report.start_time)} – {formatDateTime(report.end_time)}
        </dd>
        <dt>Adapter</dt>
        <dd>{report.adapter}</dd>
        <dt>Submitted by</dt>
        <dd>{report.user?.name ?? 'anonymous'}</dd>
        {report.job && (
          <>
            <dt>Runner</dt>
            <dd>
              <a href={`${ctx.base}/jobs/${report.job}`}>its job</a>, on a dedicated runner of{' '}
              {report.testbed.name}
            </dd>
          </>
        )}
      </dl>
      {(report.alerts?.length ?? 0) > 0 && <AlertsCallout ctx={ctx} report={report} />}
      {changes.length > 0 && <ConfirmedChanges ctx={ctx} alerts={changes} />}
      <ReportPlots
        ctx={ctx}
        report={report}
        window={around(report.start_time)}
        caption="30 days either side of this report, its points ringed"
        label={(measure) => `${measure} of this report's benchmarks around it`}
      />
      {iterations.length === 0 && <Empty title="This report has no results." />}
      {iterations.map((results, i) => (
        <div key={i}>
          <h2>{iterations.length > 1 ? `Iteration ${i + 1}` : 'Results'}</h2>
          <ReportResults ctx={ctx} results={results} alerts={alerts} />
        </div>
      ))}
      <p class="muted mono">
        Report {report.uuid} · version hash {shortHash(version?.hash)}
      </p>
    </section>
  );
}
