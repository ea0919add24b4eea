/** A border line: left corner, fill, junction between columns, right corner. */
type Line = readonly [string, string, string, string];

interface Style {
  readonly top?: Line;
  readonly header?: Line;
  /** Between body rows. */
  readonly between?: Line;
  readonly bottom?: Line;
  /** Left edge, between columns, right edge. */
  readonly vertical: readonly [string, string, string];
  readonly padding: string;
}

const box = (l: string, f: string, j: string, r: string): Line => [l, f, j, r];

/** The table styles of `perf --table` (the reference's tabled names). */
export const TABLE_STYLES = {
  ascii: {
    top: box('+', '-', '+', '+'),
    header: box('+', '-', '+', '+'),
    between: box('+', '-', '+', '+'),
    bottom: box('+', '-', '+', '+'),
    vertical: ['|', '|', '|'],
    padding: ' ',
  },
  ascii_rounded: {
    top: box('.', '-', '-', '.'),
    bottom: box("'", '-', '-', "'"),
    vertical: ['|', '|', '|'],
    padding: ' ',
  },
  modern: {
    top: box('┌', '─', '┬', '┐'),
    header: box('├', '─', '┼', '┤'),
    between: box('├', '─', '┼', '┤'),
    bottom: box('└', '─', '┴', '┘'),
    vertical: ['│', '│', '│'],
    padding: ' ',
  },
  sharp: {
    top: box('┌', '─', '┬', '┐'),
    header: box('├', '─', '┼', '┤'),
    bottom: box('└', '─', '┴', '┘'),
    vertical: ['│', '│', '│'],
    padding: ' ',
  },
  rounded: {
    top: box('╭', '─', '┬', '╮'),
    header: box('├', '─', '┼', '┤'),
    bottom: box('╰', '─', '┴', '╯'),
    vertical: ['│', '│', '│'],
    padding: ' ',
  },
  extended: {
    top: box('╔', '═', '╦', '╗'),
    header: box('╠', '═', '╬', '╣'),
    between: box('╠', '═', '╬', '╣'),
    bottom: box('╚', '═', '╩', '╝'),
    vertical: ['║', '║', '║'],
    padding: ' ',
  },
  psql: { header: box('', '-', '+', ''), vertical: ['', '|', ''], padding: ' ' },
  markdown: { header: box('|', '-', '|', '|'), vertical: ['|', '|', '|'], padding: ' ' },
  re_structured_text: {
    top: box('', '=', ' ', ''),
    header: box('', '=', ' ', ''),
    bottom: box('', '=', ' ', ''),
    vertical: ['', ' ', ''],
    padding: '',
  },
  dots: {
    top: box('.', '.', '.', '.'),
    header: box(':', '.', ':', ':'),
    bottom: box(':', '.', ':', ':'),
    vertical: [':', ':', ':'],
    padding: ' ',
  },
  blank: { vertical: ['', ' ', ''], padding: ' ' },
  empty: { vertical: ['', '', ''], padding: '' },
} as const satisfies Record<string, Style>;

export type TableStyle = keyof typeof TABLE_STYLES;
export const TABLE_STYLE_NAMES = Object.keys(TABLE_STYLES) as TableStyle[];

export interface Column {
  readonly title: string;
  readonly align?: 'left' | 'right';
}

/** Renders rows as a text table in one of {@link TABLE_STYLES}; a markdown table is valid GitHub markdown. */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  styleName: TableStyle,
): string {
  const style: Style = TABLE_STYLES[styleName];
  const clean = (cell: string) =>
    (styleName === 'markdown' ? cell.replaceAll('|', '\\|') : cell).replace(/\s+/g, ' ');
  const body = rows.map((row) => columns.map((_, c) => clean(row[c] ?? '')));
  const header = columns.map((column) => clean(column.title));
  const widths = columns.map((_, c) =>
    Math.max(
      header[c]?.length ?? 0,
      ...body.map((row) => row[c]?.length ?? 0),
      styleName === 'markdown' ? 3 : 0,
    ),
  );
  const pad = style.padding;
  const cells = (row: readonly string[], alignAll?: 'left') =>
    `${style.vertical[0]}${row
      .map((cell, c) => {
        const right = alignAll === undefined && columns[c]?.align === 'right';
        return `${pad}${right ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0)}${pad}`;
      })
      .join(style.vertical[1])}${style.vertical[2]}`.trimEnd();
  const line = ([left, fill, junction, right]: Line, markdownAligned = false) =>
    `${left}${widths
      .map((width, c) => {
        const full = fill.repeat(width + pad.length * 2);
        return markdownAligned && columns[c]?.align === 'right' ? `${full.slice(0, -1)}:` : full;
      })
      .join(junction)}${right}`.trimEnd();
  const out: string[] = [];
  if (style.top) out.push(line(style.top));
  out.push(cells(header, 'left'));
  if (style.header) out.push(line(style.header, styleName === 'markdown'));
  body.forEach((row, i) => {
    if (i > 0 && style.between) out.push(line(style.between));
    out.push(cells(row));
  });
  if (style.bottom) out.push(line(style.bottom));
  return `${out.join('\n')}\n`;
}
