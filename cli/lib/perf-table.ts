import type { z } from 'zod';
import type { perfSchema } from '../../core/index.js';
import { formatFigure } from './report/rows.js';
import { renderTable, type Column, type TableStyle } from './table.js';

type Perf = z.output<typeof perfSchema>;

const COLUMNS: Column[] = [
  { title: 'Project' },
  { title: 'Branch' },
  { title: 'Testbed' },
  { title: 'Benchmark' },
  { title: 'Measure' },
  { title: 'Iteration', align: 'right' },
  { title: 'Start Time' },
  { title: 'End Time' },
  { title: 'Version Number', align: 'right' },
  { title: 'Version Hash' },
  { title: 'Metric Value', align: 'right' },
  { title: 'Boundary Baseline', align: 'right' },
  { title: 'Lower Boundary Limit', align: 'right' },
  { title: 'Upper Boundary Limit', align: 'right' },
];

/** `perf --table [style]`: one row per point, the columns of the reference's perf table. */
export function perfTable(perf: Perf, style: TableStyle): string {
  const rows = perf.results.flatMap((series) =>
    series.metrics.map((point) => [
      perf.project.name,
      series.branch.name,
      series.testbed.name,
      series.benchmark.name,
      series.measure.name,
      String(point.iteration),
      point.start_time,
      point.end_time ?? '',
      String(point.version.number),
      point.version.hash ?? '',
      formatFigure(point.metric.value),
      formatFigure(point.boundary?.baseline ?? null),
      formatFigure(point.boundary?.lower_limit ?? null),
      formatFigure(point.boundary?.upper_limit ?? null),
    ]),
  );
  return renderTable(COLUMNS, rows, style);
}
