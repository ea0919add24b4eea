import type { AlertJson } from '../../api/types.js';
import { ActionButton } from '../../components/form.js';
import { formatDateTime, formatNumber, shortHash } from '../../lib/format.js';
import type { AlertGroup } from './alert-groups.js';
import { fromBaseline, pastLimit } from './alert-groups.js';
import type { ProjectContext } from './context.js';
import { DimensionLink } from '../../components/dimension-link.js';

export type ChangeStatus = (alerts: readonly AlertJson[], status: 'active' | 'dismissed') => Promise<void>;

function AlertCells({ ctx, alert }: { ctx: ProjectContext; alert: AlertJson }) {
  const limit = alert.limit === 'upper' ? alert.boundary.upper_limit : alert.boundary.lower_limit;
  return (
    <>
      <td data-label="Ran">
        <a href={`${ctx.base}/reports/${alert.report}`}>{formatDateTime(alert.start_time)}</a>
      </td>
      <td data-label="Commit" class="mono">
        {alert.version ? `#${alert.version.number} ${shortHash(alert.version.hash)}` : '—'}
      </td>
      <td data-label="Value" class="num">
        {formatNumber(alert.metric.value)}
      </td>
      <td data-label="From baseline" class="num">
        <strong>{fromBaseline(alert)}</strong>
      </td>
      <td data-label="Limit" class="num">
        {alert.limit === 'upper' ? '> ' : '< '}
        {formatNumber(limit)} <span class="muted small">{pastLimit(alert)}</span>
      </td>
      <td data-label="Status">
        <span class={`badge ${alert.status === 'active' ? 'alert' : ''}`}>{alert.status}</span>
      </td>
    </>
  );
}

function StatusButton({ alert, change }: { alert: AlertJson; change: ChangeStatus }) {
  const next = alert.status === 'active' ? 'dismissed' : 'active';
  if (alert.status === 'silenced') return null;
  return (
    <ActionButton
      label={`${next === 'dismissed' ? 'Dismiss' : 'Reactivate'} the alert on ${alert.benchmark.name}`}
      action={() => change([alert], next)}
    >
      {next === 'dismissed' ? 'Dismiss' : 'Reactivate'}
    </ActionButton>
  );
}

/**
 * The alerts of one series: a row with the most recent one and how many there are, and when expanded a row per
 * alert below it.
 */
export function AlertGroupRows({
  ctx,
  group,
  open,
  onToggle,
  change,
}: {
  ctx: ProjectContext;
  group: AlertGroup;
  open: boolean;
  onToggle: () => void;
  change: ChangeStatus | undefined;
}) {
  const latest = group.alerts[0]!;
  const many = group.alerts.length > 1;
  const active = group.alerts.filter((a) => a.status === 'active');
  return (
    <>
      <tr class={group.active > 0 ? 'row-alert' : undefined}>
        <td data-label="Benchmark" class="wrap">
          <a href={`${ctx.base}/alerts/${latest.uuid}`}>{latest.benchmark.name}</a>{' '}
          {many && (
            <button
              type="button"
              class="link small"
              aria-expanded={open}
              aria-label={`${open ? 'Hide' : 'Show'} the ${group.alerts.length} alerts on ${latest.benchmark.name}`}
              onClick={onToggle}
            >
              {group.alerts.length} alerts {open ? '▾' : '▸'}
            </button>
          )}
        </td>
        <td data-label="Measure">{latest.measure.name}</td>
        <td data-label="Branch · testbed">
          <DimensionLink ctx={ctx} kind="branches" of={latest.threshold.branch} /> ·{' '}
          <DimensionLink ctx={ctx} kind="testbeds" of={latest.threshold.testbed} />
        </td>
        <AlertCells ctx={ctx} alert={latest} />
        {change && (
          <td>
            {many ? (
              active.length > 0 && (
                <ActionButton
                  label={`Dismiss the ${active.length} active alerts on ${latest.benchmark.name}`}
                  action={() => change(active, 'dismissed')}
                >
                  Dismiss {active.length}
                </ActionButton>
              )
            ) : (
              <StatusButton alert={latest} change={change} />
            )}
          </td>
        )}
      </tr>
      {open &&
        group.alerts.map((a) => (
          <tr key={a.uuid} class="sub-row">
            <td data-label="Alert" colSpan={3}>
              <a href={`${ctx.base}/alerts/${a.uuid}`}>Alert of {formatDateTime(a.start_time)}</a>
            </td>
            <AlertCells ctx={ctx} alert={a} />
            {change && (
              <td>
                <StatusButton alert={a} change={change} />
              </td>
            )}
          </tr>
        ))}
    </>
  );
}
