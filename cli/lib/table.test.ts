import { describe, expect, it } from 'vitest';
import { renderTable, TABLE_STYLE_NAMES } from './table.js';

const columns = [{ title: 'Benchmark' }, { title: 'Value', align: 'right' as const }];
const rows = [
  ['parse', '12.5'],
  ['a|b', '3'],
];

describe('renderTable', () => {
  it('draws markdown that GitHub renders: escaped pipes, right-aligned numbers', () => {
    expect(renderTable(columns, rows, 'markdown')).toBe(
      [
        '| Benchmark | Value |',
        '|-----------|------:|',
        '| parse     |  12.5 |',
        '| a\\|b      |     3 |',
        '',
      ].join('\n'),
    );
  });

  it('draws ascii with a line between rows, and rounded with corners', () => {
    expect(renderTable(columns, rows, 'ascii')).toBe(
      [
        '+-----------+-------+',
        '| Benchmark | Value |',
        '+-----------+-------+',
        '| parse     |  12.5 |',
        '+-----------+-------+',
        '| a|b       |     3 |',
        '+-----------+-------+',
        '',
      ].join('\n'),
    );
    const rounded = renderTable(columns, rows, 'rounded').split('\n');
    expect(rounded[0]).toBe('╭───────────┬───────╮');
    expect(rounded.at(-2)).toBe('╰───────────┴───────╯');
  });

  it('keeps every column aligned in every style', () => {
    for (const style of TABLE_STYLE_NAMES) {
      const lines = renderTable(columns, rows, style).trimEnd().split('\n');
      expect(lines.length, style).toBeGreaterThanOrEqual(3);
      const widths = new Set(lines.map((line) => line.trimEnd().length));
      // Trailing spaces are trimmed, so borderless styles may end short; bordered ones are rectangles.
      if (!['blank', 'empty', 'psql', 're_structured_text'].includes(style))
        expect(widths.size, style).toBe(1);
    }
  });
});
