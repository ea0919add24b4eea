import { formatDateTime, formatNumber, formatPercent, shortHash } from '../lib/format.js';
import type { PlotData } from './series.js';

/** The change points drawn on the plot, as a list: where each new regime starts and its levels before and after. */
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
  const units = (s: (typeof rows)[number]['series']) => s.source.measure.units;
  return (
    <section class="change-list" aria-label="Change points" data-testid="change-list">
      <h2>Change points</h2>
      {rows.length === 0 ? (
        <p class="muted small">No change point in the shown series over this range.</p>
      ) : (
        <ul>
          {rows.map(({ series, change }) => {
            const p = change.point;
            return (
              <li key={`${series.label} ${p.metric.uuid}`}>
                <span class="swatch" style={{ background: series.color }} /> <strong>{series.label}</strong>:{' '}
                {formatNumber(p.before)} → {formatNumber(p.after)} {units(series)} (
                {formatPercent(p.change === null ? null : p.change * 100)}) from{' '}
                <a href={reportHref(p.report)}>
                  #{p.version.number} {shortHash(p.version.hash)}, {formatDateTime(p.start_time)}
                </a>{' '}
                <span class="muted small">p = {p.p_value.toPrecision(2)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
