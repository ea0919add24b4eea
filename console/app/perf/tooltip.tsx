import { formatDateTime, formatNumber, formatPercent, percentOf, shortHash } from '../lib/format.js';
import type { PlotPoint } from './columns.js';
import type { PlotSeries } from './series.js';

/** "900 – 1,100", "≤ 1,100" or "≥ 900": a threshold often limits one side only. */
function limitsText(lower: number | null, upper: number | null): string {
  if (lower !== null && upper !== null) return `${formatNumber(lower)} – ${formatNumber(upper)}`;
  if (upper !== null) return `≤ ${formatNumber(upper)}`;
  if (lower !== null) return `≥ ${formatNumber(lower)}`;
  return 'not computed yet (too few samples)';
}

/** Details of one point: value and bounds, boundary, version and commit, alert, and a link to its report. */
export function Tooltip({
  series,
  point,
  reportHref,
  pinned,
  style,
}: {
  series: PlotSeries;
  point: PlotPoint;
  reportHref: (uuid: string) => string;
  pinned: boolean;
  style: Record<string, string>;
}) {
  const units = series.source.measure.units;
  const { metric, boundary, alert, version } = point;
  return (
    <div
      class={`tooltip${pinned ? ' pinned' : ''}`}
      style={style}
      role="dialog"
      aria-label="Point details"
      data-testid="plot-tooltip"
    >
      <div class="tooltip-title">
        <span class="swatch" style={{ background: series.color }} />
        {series.source.benchmark.name}
      </div>
      <div class="muted">
        {series.source.branch.name} · {series.source.testbed.name} · {series.source.measure.name}
      </div>
      <dl>
        <dt>Value</dt>
        <dd>
          <strong>{formatNumber(metric.value)}</strong> {units}
        </dd>
        {(metric.lower_value !== null || metric.upper_value !== null) && (
          <>
            <dt>Bounds</dt>
            <dd>
              {formatNumber(metric.lower_value)} – {formatNumber(metric.upper_value)}
            </dd>
          </>
        )}
        {boundary && boundary.baseline !== null && (
          <>
            <dt>From baseline</dt>
            <dd data-testid="tooltip-change">
              <strong>{formatPercent(percentOf(metric.value, boundary.baseline))}</strong>
            </dd>
          </>
        )}
        {boundary && (
          <>
            <dt>Baseline</dt>
            <dd>{formatNumber(boundary.baseline)}</dd>
            <dt>Limits</dt>
            <dd>{limitsText(boundary.lower_limit, boundary.upper_limit)}</dd>
          </>
        )}
        <dt>Version</dt>
        <dd class="mono">
          #{version.number} {version.hash ? <span title={version.hash}>{shortHash(version.hash)}</span> : ''}
        </dd>
        <dt>Date</dt>
        <dd>{formatDateTime(point.start_time)}</dd>
        {point.iteration > 0 && (
          <>
            <dt>Iteration</dt>
            <dd>{point.iteration + 1}</dd>
          </>
        )}
        {alert && (
          <>
            <dt>Alert</dt>
            <dd class={alert.status === 'active' ? 'alert-text' : ''}>
              {alert.limit} limit · {alert.status}
            </dd>
          </>
        )}
      </dl>
      <a href={reportHref(point.report)}>Open the report →</a>
      {!pinned && <div class="muted small">Click to pin</div>}
    </div>
  );
}
