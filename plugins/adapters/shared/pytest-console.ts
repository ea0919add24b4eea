import type { AdapterSettings, Bmf } from '../../../kit/index.js';
import { ResultsBuilder, spread } from './results.js';
import { TIME_UNIT, decimal, nanos, splitAtSuffix, terminalLines } from './text.js';

const HEADER = new RegExp(
  `^Name \\(time in (${TIME_UNIT})\\)((?:[ \\t]+[A-Za-z]+(?: \\([^)]*\\))?)+)[ \\t]*$`,
);
const COLUMN = /[A-Za-z]+/g;
const RULE = /^-{10,}$/;
const NUMBER = '([0-9.,]+|inf|nan)';
// A cell's value, then its ratio to the fastest in parentheses: `1,133.7559 (7.32)`, `(>1000.0)`.
const CELL: Readonly<Record<string, string>> = {
  Outliers: '[0-9]+;[0-9]+',
  Rounds: '[0-9,]+',
  Iterations: '[0-9,]+',
};
const RATIO_CELL = `${NUMBER}(?:[ \\t]+\\([^)]*\\))?`;

/** The columns the benchmark reading needs, per average. */
const WANTED = { mean: ['Mean', 'StdDev'], median: ['Median', 'IQR'] } as const;

interface Table {
  readonly unit: string;
  readonly row: RegExp;
  /** Capture group of each column, by column name. */
  readonly groups: ReadonlyMap<string, number>;
}

/**
 * pytest-benchmark's console table, one or several groups: rows between the `Name (time in <unit>)` header and
 * the closing rule, named as printed; latency = Mean ± StdDev (or Median ± IQR) in ns. Thousands separators and
 * `(ratio)` columns are read; the `Computing stats ...` progress redrawn with `\r` is passed over.
 */
export function parsePytestConsole(output: string, settings: AdapterSettings): Bmf | null {
  if (!output.includes('Name (time in ')) return null;
  const [center, deviation] = WANTED[settings.average ?? 'mean'];
  const results = new ResultsBuilder();
  let table: Table | null = null;
  let rows = false;
  for (const line of terminalLines(output)) {
    const header = HEADER.exec(line);
    if (header) {
      table = tableOf(header[1] as string, header[2] as string);
      rows = false;
      continue;
    }
    if (table === null) continue;
    if (RULE.test(line)) {
      // The rule under the header opens the rows; the next one closes the table.
      if (rows) table = null;
      rows = !rows;
      continue;
    }
    if (!rows) continue;
    const found = splitAtSuffix(line, table.row);
    const value = found && cell(found.match, table, center);
    const spreadBy = found && cell(found.match, table, deviation);
    if (!found || value == null || spreadBy == null) continue;
    results.metric(found.name, 'latency', spread(nanos(value, table.unit), nanos(spreadBy, table.unit)));
  }
  return results.build();
}

function tableOf(unit: string, columns: string): Table {
  const names = columns.replace(/\([^)]*\)/g, '').match(COLUMN) ?? [];
  const groups = new Map<string, number>();
  const cells = names.map((name) => {
    const own = CELL[name];
    if (own !== undefined) return own;
    groups.set(name, groups.size + 1);
    return RATIO_CELL;
  });
  return { unit, groups, row: new RegExp(`${cells.map((c) => `[ \\t]+${c}`).join('')}[ \\t]*$`, 'y') };
}

function cell(match: RegExpExecArray, table: Table, column: string): number | null {
  const group = table.groups.get(column);
  return group === undefined ? null : decimal(match[group] as string);
}
