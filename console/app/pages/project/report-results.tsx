import type { AlertJson, ReportJson } from '../../api/types.js';
import { formatNumber, formatPercent, percentOf } from '../../lib/format.js';
import type { ProjectContext } from './context.js';
import { DimensionLink } from '../../components/dimension-link.js';

type Result = NonNullable<ReportJson['results']>[number][number];
type Row = Result['measures'][number] & { readonly benchmark: Result['benchmark'] };

/** The change against the limit on the side the value moved to (upper when above the baseline). */
function limitChange(row: Row): number | null {
  const b = row.boundary;
  if (!b) return null;
  const above = b.baseline === null || row.metric.value >= b.baseline;
  const limit = above ? (b.upper_limit ?? b.lower_limit) : (b.lower_limit ?? b.upper_limit);
  return percentOf(row.metric.value, limit);
}

/** Rows with an alert first (active before dismissed), then the largest change against the baseline. */
export function orderRows(results: readonly Result[], alerts: ReadonlyMap<string, AlertJson>): Row[] {
  const rank = (row: Row) => {
    const alert = alerts.get(row.metric.uuid);
    return alert ? (alert.status === 'active' ? 0 : 1) : 2;
  };
  const change = (row: Row) => Math.abs(percentOf(row.metric.value, row.boundary?.baseline) ?? 0);
  return results
    .flatMap((r) => r.measures.map((m) => ({ ...m, benchmark: r.benchmark })))
    .sort((a, b) => rank(a) - rank(b) || change(b) - change(a));
}

/** The results of one iteration, each with its change against the baseline and the limit. */
export function ReportResults({
  ctx,
  results,
  alerts,
}: {
  ctx: ProjectContext;
  results: readonly Result[];
  alerts: ReadonlyMap<string, AlertJson>;
}) {
  return (
    <div class="table-wrap">
      <table class="results stack">
        <thead>
          <tr>
            <th scope="col">Benchmark</th>
            <th scope="col">Measure</th>
            <th scope="col" class="num">
              Value
            </th>
            <th scope="col" class="num">
              Δ% baseline
            </th>
            <th
              scope="col"
              class="num"
              title="Against the upper limit when above the baseline, else the lower"
            >
              Δ% limit
            </th>
            <th scope="col" class="num">
              Baseline
            </th>
            <th scope="col" class="num">
              Lower limit
            </th>
            <th scope="col" class="num">
              Upper limit
            </th>
            <th scope="col">Threshold</th>
            <th scope="col">Alert</th>
          </tr>
        </thead>
        <tbody>
          {orderRows(results, alerts).map((m) => {
            const alert = alerts.get(m.metric.uuid);
            return (
              <tr key={m.metric.uuid} class={alert?.status === 'active' ? 'row-alert' : undefined}>
                <td data-label="Benchmark">
                  <DimensionLink ctx={ctx} kind="benchmarks" of={m.benchmark} />
                </td>
                <td data-label="Measure">
                  {m.measure.name} <span class="muted small">{m.measure.units}</span>
                </td>
                <td data-label="Value" class="num">
                  {formatNumber(m.metric.value)}
                  {m.metric.lower_value !== null || m.metric.upper_value !== null ? (
                    <span class="muted small">
                      {' '}
                      ({formatNumber(m.metric.lower_value)} – {formatNumber(m.metric.upper_value)})
                    </span>
                  ) : null}
                </td>
                <td data-label="Δ% baseline" class="num">
                  {formatPercent(percentOf(m.metric.value, m.boundary?.baseline))}
                </td>
                <td data-label="Δ% limit" class="num">
                  {formatPercent(limitChange(m))}
                </td>
                <td data-label="Baseline" class="num">
                  {formatNumber(m.boundary?.baseline)}
                </td>
                <td data-label="Lower limit" class="num">
                  {formatNumber(m.boundary?.lower_limit)}
                </td>
                <td data-label="Upper limit" class="num">
                  {formatNumber(m.boundary?.upper_limit)}
                </td>
                <td data-label="Threshold">
                  {m.threshold ? (
                    <a href={`${ctx.base}/thresholds/${m.threshold.uuid}`}>{m.threshold.model.test}</a>
                  ) : (
                    <span class="muted">none</span>
                  )}
                </td>
                <td data-label="Alert">
                  {alert ? (
                    <a
                      href={`${ctx.base}/alerts/${alert.uuid}`}
                      class={`badge ${alert.status === 'active' ? 'alert' : ''}`}
                    >
                      {alert.limit} · {alert.status}
                    </a>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
