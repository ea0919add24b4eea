import { api } from '../../api/client.js';
import type { AlertJson, ReportJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { around, HistoryPlot } from '../../perf/history-plot.js';
import { explorerHref } from '../../perf/selection.js';
import { pastLimit } from './alert-groups.js';
import { tabHref, type ProjectContext } from './context.js';
import { modelSummary } from './thresholds.js';

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
        <dt>Value</dt>
        <dd>
          {formatNumber(alert.metric.value)} {alert.measure.units},{' '}
          {alert.limit === 'upper' ? 'above' : 'below'} the {alert.limit} limit {formatNumber(limit)} by{' '}
          <strong>{pastLimit(alert)}</strong>
        </dd>
        <dt>Baseline</dt>
        <dd>{formatNumber(alert.boundary.baseline)}</dd>
        <dt>Measure</dt>
        <dd>{alert.measure.name}</dd>
        <dt>Branch · testbed</dt>
        <dd>
          {threshold.branch.name} · {threshold.testbed.name}
        </dd>
        <dt>Commit</dt>
        <dd class="mono">
          {alert.version ? `#${alert.version.number} ${alert.version.hash ?? '(no hash)'}` : '—'}
        </dd>
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
        history={{ ...series, ...around(alert.start_time) }}
        highlight={alert.report}
        label={`${alert.benchmark.name} around the alert, with its limits`}
      />
      <p>
        <a
          class="button"
          href={explorerHref(tabHref(ctx, 'perf'), {
            ...series,
            range: 'custom',
            ...around(alert.start_time),
          })}
        >
          Plot in the explorer
        </a>{' '}
        <a href={tabHref(ctx, 'alerts')}>All alerts</a>
      </p>
    </section>
  );
}
