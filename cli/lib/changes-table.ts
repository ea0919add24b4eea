import type { PerfChangesJson } from '../../core/index.js';
import { renderTable, type Column, type TableStyle } from './table.js';

const COLUMNS: readonly Column[] = [
  { title: 'Branch' },
  { title: 'Testbed' },
  { title: 'Benchmark' },
  { title: 'Measure' },
  { title: 'Index', align: 'right' },
  { title: 'Version', align: 'right' },
  { title: 'Hash' },
  { title: 'Start Time' },
  { title: 'Before', align: 'right' },
  { title: 'After', align: 'right' },
  { title: 'Change', align: 'right' },
  { title: 'P-value', align: 'right' },
];

const number = (x: number) => String(Number(x.toPrecision(6)));

/** `perf --changes --table`: one row per change point, with the point that starts the new regime. */
export function changesTable(changes: PerfChangesJson, style: TableStyle): string {
  const rows = changes.results.flatMap((series) =>
    series.change_points.map((p) => [
      series.branch.name,
      series.testbed.name,
      series.benchmark.name,
      series.measure.name,
      String(p.index),
      String(p.version.number),
      p.version.hash?.slice(0, 12) ?? '',
      p.start_time,
      number(p.before),
      number(p.after),
      p.change === null ? 'n/a' : `${p.change >= 0 ? '+' : ''}${(p.change * 100).toFixed(2)}%`,
      p.p_value < 0.001 ? p.p_value.toExponential(2) : p.p_value.toPrecision(3),
    ]),
  );
  const series = changes.results.length;
  return `${renderTable(COLUMNS, rows, style)}${rows.length} change point${rows.length === 1 ? '' : 's'} in ${series} series\n`;
}
