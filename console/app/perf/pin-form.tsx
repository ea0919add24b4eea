import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { PlotJson } from '../api/perf-types.js';
import { ActionForm, Field } from '../components/form.js';
import type { ProjectContext } from '../pages/project/context.js';
import { tabHref } from '../pages/project/context.js';
import { RANGES, type Selection } from './selection.js';

const DAY = 86_400;
const WINDOWS: [number, string][] = [
  [7 * DAY, 'Last 7 days'],
  [30 * DAY, 'Last 30 days'],
  [90 * DAY, 'Last 90 days'],
  [365 * DAY, 'Last year'],
  [5 * 365 * DAY, 'Last 5 years'],
];

/** Pins the explorer's selection to the project's dashboard, with a title and a time window up to now. */
export function PinForm({
  ctx,
  selection,
  suggested,
  onDone,
}: {
  ctx: ProjectContext;
  selection: Selection;
  /** The title of a pin left untitled: what it shows. */
  suggested: string;
  onDone: () => void;
}) {
  const days = RANGES.find(([key]) => key === selection.range)?.[2];
  const [title, setTitle] = useState('');
  const [window, setWindow] = useState(String(days ? days * DAY : 30 * DAY));
  const [pinned, setPinned] = useState(false);
  if (pinned) {
    return (
      <p class="success" role="status">
        Pinned. <a href={tabHref(ctx, 'plots')}>Open the dashboard</a>
      </p>
    );
  }
  return (
    <ActionForm
      class="pin-form"
      submit="Pin"
      label="Pin to the dashboard"
      onSubmit={async () => {
        await api.post<PlotJson>(`${ctx.path}/plots`, {
          title: title.trim() || suggested,
          x_axis: selection.x_axis,
          y_axis: selection.y_axis,
          window: Number(window),
          lower_boundary: selection.bounds,
          upper_boundary: selection.bounds,
          branches: selection.branches,
          testbeds: selection.testbeds,
          benchmarks: selection.benchmarks,
          measures: selection.measures,
        });
        setPinned(true);
        onDone();
      }}
    >
      <div class="row">
        <Field label="Title">
          <input value={title} placeholder={suggested} onInput={(e) => setTitle(e.currentTarget.value)} />
        </Field>
        <Field label="Shows">
          <select value={window} onChange={(e) => setWindow(e.currentTarget.value)}>
            {WINDOWS.map(([seconds, label]) => (
              <option key={seconds} value={String(seconds)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </ActionForm>
  );
}
