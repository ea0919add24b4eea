import { RANGES, type Selection } from './selection.js';

function dateInput(epoch: number | undefined): string {
  if (epoch === undefined) return '';
  const d = new Date(epoch);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Time range, axes and boundary display of the explorer. */
export function RangeControls({
  selection,
  onChange,
}: {
  selection: Selection;
  onChange: (changes: Partial<Selection>) => void;
}) {
  return (
    <form class="toolbar" aria-label="Plot options" onSubmit={(e) => e.preventDefault()}>
      <label class="field inline">
        <span class="label">Range</span>
        <select
          value={selection.range}
          onChange={(e) =>
            onChange({ range: e.currentTarget.value, start_time: undefined, end_time: undefined })
          }
        >
          {RANGES.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
          <option value="custom">Dates…</option>
        </select>
      </label>
      {selection.range === 'custom' && (
        <>
          <label class="field inline">
            <span class="label">From</span>
            <input
              type="date"
              value={dateInput(selection.start_time)}
              onChange={(e) =>
                onChange({
                  start_time: e.currentTarget.value
                    ? Date.parse(`${e.currentTarget.value}T00:00:00`)
                    : undefined,
                })
              }
            />
          </label>
          <label class="field inline">
            <span class="label">To</span>
            <input
              type="date"
              value={dateInput(selection.end_time)}
              onChange={(e) =>
                onChange({
                  end_time: e.currentTarget.value
                    ? Date.parse(`${e.currentTarget.value}T23:59:59.999`)
                    : undefined,
                })
              }
            />
          </label>
        </>
      )}
      <label class="field inline">
        <span class="label">X axis</span>
        <select
          value={selection.x_axis}
          onChange={(e) => onChange({ x_axis: e.currentTarget.value as Selection['x_axis'] })}
        >
          <option value="date_time">Date</option>
          <option value="version">Version</option>
        </select>
      </label>
      <label class="field inline">
        <span class="label">Y axis</span>
        <select
          value={selection.y_axis}
          onChange={(e) => onChange({ y_axis: e.currentTarget.value as Selection['y_axis'] })}
        >
          <option value="auto">Auto</option>
          <option value="linear">Linear</option>
          <option value="log">Logarithmic</option>
        </select>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={selection.bounds}
          onChange={(e) => onChange({ bounds: e.currentTarget.checked })}
        />
        Boundaries
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={selection.changes}
          onChange={(e) => onChange({ changes: e.currentTarget.checked })}
        />
        Change points
      </label>
    </form>
  );
}
