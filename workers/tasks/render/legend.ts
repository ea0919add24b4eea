import { escapeXml } from './escape.js';
import type { Theme } from './palette.js';
import { px } from './paths.js';
import { shortenLabel } from './shared-labels.js';
import { textWidth } from './text-width.js';

/** What a legend entry's swatch shows: a series' line, the boundary band, or the alert marker. */
export type LegendSwatch = 'line' | 'band' | 'alert';

export interface LegendEntry {
  readonly swatch: LegendSwatch;
  readonly color: string;
  /** Clean text (see cleanText), before truncation. */
  readonly text: string;
  /** Shown after the text when every entry's fits whole (a series' change from its baseline). */
  readonly note?: string;
}

/** Entries placed in a centered grid, filled row by row, with labels shortened to their column. */
export interface LegendLayout {
  readonly items: readonly {
    readonly entry: LegendEntry;
    readonly x: number;
    readonly row: number;
    readonly text: string;
  }[];
  readonly rows: number;
  /** Pixels the legend takes, 0 when it is empty. */
  readonly height: number;
}

export const LEGEND_FONT = 12;
export const LEGEND_ROW = 20;
const SWATCH = 22;
const SWATCH_GAP = 6;
const COLUMN_GAP = 20;
const MAX_COLUMNS = 4;
/** Eight series and two keys in at most this many rows, so the plot keeps most of the height. */
const MAX_ROWS = 4;

function entryWidth(text: string): number {
  return SWATCH + SWATCH_GAP + textWidth(text, LEGEND_FONT) + COLUMN_GAP;
}

/**
 * The most columns (up to four) in which every label fits whole in `width`; if even one column leaves labels too
 * long, or needs more than four rows, the columns needed for four rows, with long labels shortened part by part
 * (see shortenLabel). The entries' notes are added when, with them, no label is shortened and the legend takes no
 * more rows.
 */
export function layoutLegend(entries: readonly LegendEntry[], width: number): LegendLayout {
  if (entries.length === 0) return { items: [], rows: 0, height: 0 };
  const plain = place(
    entries,
    entries.map((e) => e.text),
    width,
  );
  if (!entries.some((e) => e.note)) return plain.layout;
  const noted = place(
    entries,
    entries.map((e) => (e.note ? `${e.text}  ${e.note}` : e.text)),
    width,
  );
  return !noted.shortened && noted.layout.rows <= plain.layout.rows ? noted.layout : plain.layout;
}

function place(
  entries: readonly LegendEntry[],
  texts: readonly string[],
  width: number,
): { layout: LegendLayout; shortened: boolean } {
  const widest = Math.max(...texts.map(entryWidth));
  let columns = Math.min(entries.length, MAX_COLUMNS);
  while (columns > 1 && widest > width / columns) columns--;
  columns = Math.max(columns, Math.ceil(entries.length / MAX_ROWS));
  const columnWidth = Math.min(width / columns, widest);
  const left = (width - columnWidth * columns) / 2 + COLUMN_GAP / 2;
  const room = columnWidth - SWATCH - SWATCH_GAP - COLUMN_GAP;
  const items = entries.map((entry, i) => ({
    entry,
    x: left + (i % columns) * columnWidth,
    row: Math.floor(i / columns),
    text: shortenLabel(texts[i] as string, room, LEGEND_FONT),
  }));
  const rows = Math.ceil(entries.length / columns);
  const shortened = items.some((item, i) => item.text !== texts[i]);
  return { layout: { items, rows, height: rows * LEGEND_ROW }, shortened };
}

function swatch(kind: LegendSwatch, color: string, x: number, y: number, ink: Theme): string {
  switch (kind) {
    case 'line':
      return `<path d="M${px(x)},${px(y)}h${SWATCH}" stroke="${color}" stroke-width="3"/>`;
    case 'band':
      return (
        `<rect x="${px(x)}" y="${px(y - 6)}" width="${SWATCH}" height="12" fill="${color}" fill-opacity="0.15"/>` +
        `<path d="M${px(x)},${px(y - 6)}h${SWATCH}M${px(x)},${px(y + 6)}h${SWATCH}" stroke="${color}" stroke-width="1" stroke-dasharray="4 3"/>`
      );
    case 'alert':
      return alertMarker(x + SWATCH / 2, y, color, ink);
  }
}

/** The alert marker: a ring in the text's color around a dot of the series' color, readable over any line color. */
export function alertMarker(x: number, y: number, color: string, ink: Theme): string {
  return `<circle cx="${px(x)}" cy="${px(y)}" r="6" fill="${ink.background}" stroke="${ink.text}" stroke-width="2"/><circle cx="${px(x)}" cy="${px(y)}" r="3" fill="${color}"/>`;
}

/** The legend's SVG, its first row centered on `top + LEGEND_ROW / 2`, shifted right by `offset`. */
export function legendSvg(layout: LegendLayout, top: number, offset: number, ink: Theme): string {
  return layout.items
    .map(({ entry, x, row, text }) => {
      const y = top + row * LEGEND_ROW + LEGEND_ROW / 2;
      const label = `<text x="${px(x + offset + SWATCH + SWATCH_GAP)}" y="${px(y + 4)}">${escapeXml(text)}</text>`;
      return swatch(entry.swatch, entry.color, x + offset, y, ink) + label;
    })
    .join('');
}
