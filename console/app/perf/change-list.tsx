import { formatDateTime, formatNumber, formatPercent, shortHash } from '../lib/format.js';
import type { PlotData } from './series.js';

/**
 * The change points drawn on the plot, as a table: where each new regime starts (version and date, linking to
 * that report) and its levels before and after, so a long list can be scanned by column.
 */
export function ChangeList({
  data,
  hidden,
  reportHref,
}: {
  data: PlotData;
  hidden: ReadonlySet<number>;
  reportHref: (uuid: string) => string;
}) {
  const rows = data.series.flatMap((s, index) =>
    hidden.has(index) ? [] : s.changes.map((change) => ({ series: s, change })),
  );
  return (
    <section class="change-list" aria-labelledby="change-list-title" data-testid="change-list">
      <h2 id="change-list-title">Change points</h2>
      {rows.length === 0 ? (
        <p class="muted small">No change point in the shown series over this range.</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" aria-labelledby="change-list-title">
            <thead>
              <tr>
                <th scope="col">Series</th>
                <th scope="col">Version</th>
                <th scope="col">Date</th>
                <th scope="col" class="num">
                  Before → after
                </th>
                <th scope="col" class="num">
                  Change
                </th>
                <th scope="col" class="num">
                  p-value
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ series, change }) => {
                const p = change.point;
                return (
                  <tr key={`${series.label} ${p.metric.uuid}`}>
                    <td data-label="Series" class="wrap">
                      <span class="swatch" style={{ background: series.color }} /> {series.label}
                    </td>
                    <td data-label="Version" class="mono">
                      <a href={reportHref(p.report)}>
                        #{p.version.number} {shortHash(p.version.hash)}
                      </a>
                    </td>
                    <td data-label="Date">{formatDateTime(p.start_time)}</td>
                    <td data-label="Before → after" class="num">
                      {formatNumber(p.before)} → {formatNumber(p.after)}{' '}
                      <span class="muted small">{series.source.measure.units}</span>
                    </td>
                    <td data-label="Change" class="num">
                      {formatPercent(p.change === null ? null : p.change * 100)}
                    </td>
                    <td data-label="p-value" class="num">
                      {p.p_value.toPrecision(2)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
