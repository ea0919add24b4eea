import { useState } from 'preact/hooks';
import { breakable } from '../components/dimension-link.js';
import { formatNumber } from '../lib/format.js';
import type { PlotData } from './series.js';

/**
 * The plot's key as a table (hundreds of series stay readable), each row showing or hiding its line; a search
 * narrows the rows (and can show only their lines), and the row under the pointer emphasises its line.
 */
export function Legend({
  data,
  hidden,
  onHidden,
  onEmphasis,
}: {
  data: PlotData;
  hidden: ReadonlySet<number>;
  onHidden: (hidden: number[]) => void;
  /** The row under the pointer or focus (its line stands out on the plot), or undefined. */
  onEmphasis: (index: number | undefined) => void;
}) {
  const [search, setSearch] = useState('');
  const term = search.trim().toLowerCase();
  const rows = data.series.flatMap((s, i) =>
    !term || s.source.benchmark.name.toLowerCase().includes(term) || s.label.toLowerCase().includes(term)
      ? [i]
      : [],
  );
  const toggle = (index: number, show: boolean) => {
    const next = new Set(hidden);
    if (show) next.delete(index);
    else next.add(index);
    onHidden([...next].sort((a, b) => a - b));
  };
  return (
    <div class="legend">
      <div class="legend-bar">
        <span class="muted small">
          {data.series.length - hidden.size} of {data.series.length} lines shown
        </span>
        <button type="button" class="link" onClick={() => onHidden([])} disabled={hidden.size === 0}>
          Show all
        </button>
        <button
          type="button"
          class="link"
          onClick={() => onHidden(data.series.map((_, i) => i))}
          disabled={hidden.size === data.series.length}
        >
          Hide all
        </button>
        <input
          type="search"
          aria-label="Search the key"
          placeholder="Search the key"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        {term && (
          <button
            type="button"
            class="link"
            onClick={() => onHidden(data.series.flatMap((_, i) => (rows.includes(i) ? [] : [i])))}
          >
            Show only these {rows.length}
          </button>
        )}
      </div>
      <div class="table-wrap legend-table">
        <table>
          <thead>
            <tr>
              <th scope="col">Show</th>
              <th scope="col">Benchmark</th>
              <th scope="col">Branch</th>
              <th scope="col">Testbed</th>
              <th scope="col">Measure</th>
              <th scope="col" class="num">
                Latest
              </th>
              <th scope="col" class="num">
                Points
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => {
              const s = data.series[i]!;
              const alerts = s.alerts.filter((a) => a.active).length;
              return (
                <tr
                  key={i}
                  class={hidden.has(i) ? 'muted' : undefined}
                  data-series={i}
                  onMouseEnter={() => onEmphasis(i)}
                  onMouseLeave={() => onEmphasis(undefined)}
                  onFocusIn={() => onEmphasis(i)}
                  onFocusOut={() => onEmphasis(undefined)}
                >
                  <td>
                    <label class="swatch-check">
                      <input
                        type="checkbox"
                        checked={!hidden.has(i)}
                        aria-label={`Show ${s.label}`}
                        onChange={(e) => toggle(i, e.currentTarget.checked)}
                      />
                      <span class="swatch" style={{ background: s.color }} />
                    </label>
                  </td>
                  <td>
                    <span class="name">{breakable(s.source.benchmark.name)}</span>
                    {alerts > 0 && (
                      <span class="badge alert">
                        {alerts} alert{alerts > 1 ? 's' : ''}
                      </span>
                    )}
                  </td>
                  <td>{s.source.branch.name}</td>
                  <td>{s.source.testbed.name}</td>
                  <td>{s.source.measure.name}</td>
                  <td class="num">
                    {formatNumber(s.source.length > 0 ? s.source.value[s.source.length - 1] : null)}{' '}
                    <span class="muted">{s.source.measure.units}</span>
                  </td>
                  <td class="num">{s.source.length}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
