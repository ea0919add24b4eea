import { api } from '../../api/client.js';
import type { AlertJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { ErrorMessage, Loading, PageHeader } from '../../components/status.js';
import { formatDateTime, formatNumber } from '../../lib/format.js';
import { useApi } from '../../lib/use-api.js';
import { explorerHref } from '../../perf/selection.js';
import { tabHref, type ProjectContext } from './context.js';
import { modelSummary } from './thresholds.js';

/** One alert (the CLI links here): what crossed which limit, where it came from, dismiss or reactivate. */
export function Alert({ ctx, uuid }: { ctx: ProjectContext; uuid: string }) {
  const loaded = useApi(
    (signal) => api.get<AlertJson>(`${ctx.path}/alerts/${uuid}`, {}, signal),
    [ctx.path, uuid],
  );
  const alert = loaded.data;
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  if (!alert) return <Loading what="Loading the alert" />;
  const limit = alert.limit === 'upper' ? alert.boundary.upper_limit : alert.boundary.lower_limit;
  const { threshold } = alert;
  const setStatus = (status: 'active' | 'dismissed') => async () => {
    await api.patch(`${ctx.path}/alerts/${alert.uuid}`, { status });
    loaded.reload();
  };
  return (
    <section>
      <PageHeader title={`Alert: ${alert.benchmark.name}`}>
        {ctx.canEdit &&
          (alert.status === 'active' ? (
            <ActionButton action={setStatus('dismissed')}>Dismiss</ActionButton>
          ) : (
            <ActionButton action={setStatus('active')}>Reactivate</ActionButton>
          ))}
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
          {alert.limit === 'upper' ? 'above' : 'below'} the {alert.limit} limit {formatNumber(limit)}
        </dd>
        <dt>Baseline</dt>
        <dd>{formatNumber(alert.boundary.baseline)}</dd>
        <dt>Measure</dt>
        <dd>{alert.measure.name}</dd>
        <dt>Branch · testbed</dt>
        <dd>
          {threshold.branch.name} · {threshold.testbed.name}
        </dd>
        <dt>Threshold</dt>
        <dd>
          <a href={`${ctx.base}/thresholds/${threshold.uuid}`}>{modelSummary(threshold.model)}</a>
        </dd>
        <dt>Raised</dt>
        <dd>
          {formatDateTime(alert.created)} by <a href={`${ctx.base}/reports/${alert.report}`}>its report</a>
        </dd>
      </dl>
      <p>
        <a
          class="button"
          href={explorerHref(tabHref(ctx, 'perf'), {
            branches: [threshold.branch.uuid],
            testbeds: [threshold.testbed.uuid],
            benchmarks: [alert.benchmark.uuid],
            measures: [alert.measure.uuid],
          })}
        >
          Plot this benchmark
        </a>{' '}
        <a href={tabHref(ctx, 'alerts')}>All alerts</a>
      </p>
    </section>
  );
}
