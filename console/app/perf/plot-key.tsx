import type { ComponentChildren } from 'preact';
import type { PlotData } from './series.js';

/** The key of a plot without the explorer's table: a swatch and a label per line, and what a page adds to it. */
export function PlotKey({ data, note }: { data: PlotData; note?: (index: number) => ComponentChildren }) {
  return (
    <ul class="plot-key" aria-label="Key">
      {data.series.map((s, i) => (
        <li key={s.label}>
          <span class="swatch" style={{ background: s.color }} /> {s.label}
          {note && <> {note(i)}</>}
        </li>
      ))}
    </ul>
  );
}
