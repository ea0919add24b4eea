import { api } from '../../api/client.js';
import type { AlertJson, RegressionJson, ReportJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { around, HistoryPlot } from '../../perf/history-plot.js';
import { explorerHref } from '../../perf/selection.js';
import { fromBaseline, pastLimit } from './alert-groups.js';
import { commitUrl, compareUrl } from './regression-text.js';
import { tabHref, type ProjectContext } from './context.js';
import { modelSummary } from './thresholds.js';
import { DimensionLink } from '../../components/dimension-link.js';

/** The report of the same branch and testbed that ran just before the alert's, if any. */
async function previousReport(ctx: ProjectContext, alert: AlertJson, signal: AbortSignal) {
  const { data } = await api.list<ReportJson>(
    `${ctx.path}/reports`,
    {
      branch: alert.threshold.branch.uuid,
      testbed: alert.threshold.testbed.uuid,
      end_time: Date.parse(alert.start_time) - 1,
      per_page: 1,
    },
    signal,
  );
  return data[0];
}

/** The regression the alert belongs to, if any: where its series changed. */
async function regressionOf(ctx: ProjectContext, alert: AlertJson, signal: AbortSignal) {
  const { data } = await api.list<RegressionJson>(
    `${ctx.path}/regressions`,
    {
      branch: alert.threshold.branch.uuid,
      testbed: alert.threshold.testbed.uuid,
      benchmark: alert.benchmark.uuid,
      measure: alert.measure.uuid,
      status: 'suspected,untriaged,acknowledged,invalid,fixed,expected',
      per_page: 255,
    },
    signal,
  );
  return data.find((r) => [...r.series, ...r.unconfirmed_series].some((s) => s.alerts.includes(alert.uuid)));
}

/**
 * The plot's window: 30 days either side of the alert, reaching back to 30 days before the change that caused it
 * when the alert belongs to a regression that began earlier, so the step that raised it is in view.
 */
function plotWindow(alert: AlertJson, cause: RegressionJson | undefined) {
  const window = around(alert.start_time);
  const first = cause?.reports.first_bad;
  return first
    ? { ...window, start_time: Math.min(window.start_time, around(first.start_time).start_time) }
    : window;
}

/** The alert's commit (a link on GitHub or GitLab) and the range from the report before, with a compare link. */
function CommitLinks({
  ctx,
  alert,
  previous,
}: {
  ctx: ProjectContext;
  alert: AlertJson;
  previous: ReportJson | undefined;
}) {
  if (!alert.version) return <>—</>;
  const { number, hash } = alert.version;
  const commit = commitUrl(ctx.project.url, hash);
  const before = previous?.branch.head.version;
  const compare = compareUrl(ctx.project.url, before?.hash, hash);
  return (
    <>
      #{number}{' '}
      {commit ? (
        <a href={commit} rel="noopener noreferrer" target="_blank">
          {hash}
        </a>
      ) : (
        (hash ?? '(no hash)')
      )}
      {compare && before && (
        <>
          {' '}
          ·{' '}
          <a href={compare} rel="noopener noreferrer" target="_blank">
            Compare #{before.number}…#{number}
          </a>
        </>
      )}
    </>
  );
}

/**
 * One alert (the CLI links here): a plot of its series around it with the limits, what crossed which limit and
 * by how much, the commit, its report and the one before; dismiss or reactivate.
 */
export function Alert({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const loaded = useApi(
    (signal) => api.get<AlertJson>(`${ctx.path}/alerts/${uuid}`, {}, signal),
    [ctx.path, uuid],
  );
  const alert = loaded.data;
  const previous = useApi(
    (signal) => (alert ? previousReport(ctx, alert, signal) : Promise.resolve(undefined)),
    [alert?.uuid],
  );
  const cause = useApi(
    (signal) => (alert ? regressionOf(ctx, alert, signal) : Promise.resolve(undefined)),
    [alert?.uuid],
  );
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!alert) return <Loading what="Loading the alert" />;
  const limit = alert.limit === 'upper' ? alert.boundary.upper_limit : alert.boundary.lower_limit;
  const { threshold } = alert;
  const setStatus = (status: 'active' | 'dismissed') => async () => {
    await api.patch(`${ctx.path}/alerts/${alert.uuid}`, { status });
    loaded.reload();
  };
  const series = {
    branches: [threshold.branch.uuid],
    testbeds: [threshold.testbed.uuid],
    benchmarks: [alert.benchmark.uuid],
    measures: [alert.measure.uuid],
  };
  return (
    <section>
      <PageHeader title={`Alert: ${alert.benchmark.name}`}>
        {ctx.canEdit &&
          (alert.status === 'active' ? (
            <ActionButton action={setStatus('dismissed')}>Dismiss</ActionButton>
          ) : alert.status === 'dismissed' ? (
            <ActionButton action={setStatus('active')}>Reactivate</ActionButton>
          ) : null)}
      </PageHeader>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`badge ${alert.status === 'active' ? 'alert' : ''}`}>{alert.status}</span> since{' '}
          {formatDateTime(alert.modified)}
        </dd>
        <dt>Change</dt>
        <dd>
          <strong class="headline" data-testid="alert-change">
            {fromBaseline(alert)}
          </strong>{' '}
          from the baseline {formatNumber(alert.boundary.baseline)}
        </dd>
        <dt>Value</dt>
        <dd>
          {formatNumber(alert.metric.value)} {alert.measure.units},{' '}
          {alert.limit === 'upper' ? 'above' : 'below'} the {alert.limit} limit {formatNumber(limit)} by{' '}
          {pastLimit(alert)}
        </dd>
        <dt>Benchmark</dt>
        <dd>
          <DimensionLink ctx={ctx} kind="benchmarks" of={alert.benchmark} />
        </dd>
        <dt>Measure</dt>
        <dd>{alert.measure.name}</dd>
        <dt>Branch · testbed</dt>
        <dd>
          <DimensionLink ctx={ctx} kind="branches" of={threshold.branch} /> ·{' '}
          <DimensionLink ctx={ctx} kind="testbeds" of={threshold.testbed} />
        </dd>
        <dt>Commit</dt>
        <dd class="mono">
          <CommitLinks ctx={ctx} alert={alert} previous={previous.data} />
        </dd>
        {cause.data && (
          <>
            <dt>Regression</dt>
            <dd>
              <a href={`${ctx.base}/regressions/${cause.data.uuid}`}>
                {cause.data.kind} at version {cause.data.first_bad.number}
              </a>{' '}
              ({cause.data.status})
            </dd>
          </>
        )}
        <dt>Threshold</dt>
        <dd>
          <a href={`${ctx.base}/thresholds/${threshold.uuid}`}>{modelSummary(threshold.model)}</a>
        </dd>
        <dt>Ran</dt>
        <dd>
          {formatDateTime(alert.start_time)}: <a href={`${ctx.base}/reports/${alert.report}`}>its report</a>
          {previous.data && (
            <>
              {' '}
              · <a href={`${ctx.base}/reports/${previous.data.uuid}`}>the report before</a> (
              {formatDateTime(previous.data.start_time)})
            </>
          )}
        </dd>
        <dt>Raised</dt>
        <dd>{formatDateTime(alert.created)}</dd>
      </dl>
      <HistoryPlot
        ctx={ctx}
        history={{ ...series, ...plotWindow(alert, cause.data) }}
        highlight={alert.report}
        label={`${alert.benchmark.name} around the alert, with its limits`}
      />
      <p>
        <a
          class="button"
          href={explorerHref(tabHref(ctx, 'perf'), {
            ...series,
            range: 'custom',
            ...plotWindow(alert, cause.data),
          })}
        >
          Plot in the explorer
        </a>{' '}
        <a href={tabHref(ctx, 'alerts')}>All alerts</a>
      </p>
    </section>
  );
}
