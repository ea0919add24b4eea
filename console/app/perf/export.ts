import type { PerfJson } from '../api/perf-types.js';
import { apiUrl } from '../api/client.js';
import { perfQuery, type Selection } from './selection.js';

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every point of the answer as CSV, one row per metric (users asked to download history: reference 9). */
export function perfCsv(perf: PerfJson): string {
  const header = [
    'branch',
    'testbed',
    'benchmark',
    'measure',
    'units',
    'report',
    'iteration',
    'start_time',
    'version',
    'hash',
    'value',
    'lower_value',
    'upper_value',
    'baseline',
    'lower_limit',
    'upper_limit',
    'alert',
  ];
  const rows = [header.join(',')];
  for (const s of perf.results) {
    for (const p of s.metrics) {
      rows.push(
        [
          s.branch.name,
          s.testbed.name,
          s.benchmark.name,
          s.measure.name,
          s.measure.units,
          p.report,
          p.iteration,
          p.start_time,
          p.version.number,
          p.version.hash,
          p.metric.value,
          p.metric.lower_value,
          p.metric.upper_value,
          p.boundary?.baseline,
          p.boundary?.lower_limit,
          p.boundary?.upper_limit,
          p.alert?.status,
        ]
          .map(cell)
          .join(','),
      );
    }
  }
  return `${rows.join('\n')}\n`;
}

export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The embeddable PNG of the selection (GET /v0/projects/{p}/perf/img): the API draws one measure and at most
 * eight lines, so the first measure is taken, and absolute times so the image shows what the page showed.
 */
export function imageUrl(project: string, selection: Selection, title: string): string {
  const query = perfQuery(selection);
  return apiUrl(`/projects/${encodeURIComponent(project)}/perf/img`, {
    ...query,
    measures: selection.measures[0],
    title,
    ...(selection.x_axis !== 'date_time' ? { x_axis: selection.x_axis } : {}),
    ...(selection.y_axis !== 'auto' ? { y_axis: selection.y_axis } : {}),
  });
}
