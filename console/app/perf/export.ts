import { apiUrl } from '../api/client.js';
import type { SeriesColumns } from './columns.js';
import { explorerHref, perfQuery, RANGES, type Selection } from './selection.js';

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every point of the answer as CSV, one row per metric (users asked to download history: reference 9). */
export function perfCsv(series: readonly SeriesColumns[]): string {
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
  for (const s of series) {
    for (let i = 0; i < s.length; i++) {
      const p = s.point(i);
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

/** The image's format and theme (`format=`, `theme=`; the defaults, PNG and light, are left out of the link). */
export interface ImageStyle {
  readonly format: 'png' | 'svg';
  readonly theme: 'light' | 'dark';
}

/**
 * The embeddable image of the selection (GET /v0/projects/{p}/perf/img): the API draws one measure and at most
 * eight lines, so the first measure is taken. A relative range stays relative (`window=` seconds up to now), so
 * an image embedded in a README rolls forward; dates stay dates.
 */
export function imageUrl(
  project: string,
  selection: Selection,
  title: string,
  style: ImageStyle = { format: 'png', theme: 'light' },
): string {
  const days = RANGES.find(([key]) => key === selection.range)?.[2];
  const query = perfQuery(selection);
  if (days) delete query.start_time;
  return apiUrl(`/projects/${encodeURIComponent(project)}/perf/img`, {
    ...query,
    ...(days ? { window: days * 86_400 } : {}),
    measures: selection.measures[0],
    title,
    ...(selection.x_axis !== 'date_time' ? { x_axis: selection.x_axis } : {}),
    ...(selection.y_axis !== 'auto' ? { y_axis: selection.y_axis } : {}),
    ...(style.format !== 'png' ? { format: style.format } : {}),
    ...(style.theme !== 'light' ? { theme: style.theme } : {}),
  });
}

/** The public perf page of the selection, where an embedded image links back to. */
export function perfPageUrl(project: string, selection: Selection): string {
  return `${location.origin}${explorerHref(`/perf/${encodeURIComponent(project)}`, { ...selection, hidden: [], tab: 'benchmarks' })}`;
}

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Snippets that show the image and link to the perf page: Markdown for READMEs, HTML for the rest. */
export function embedSnippets(
  image: string,
  page: string,
  title: string,
): { markdown: string; html: string } {
  const alt = title.replace(/[[\]\\]/g, '\\$&');
  return {
    markdown: `[![${alt}](${image})](${page})`,
    html: `<a href="${attribute(page)}"><img src="${attribute(image)}" alt="${attribute(title)}" width="600"></a>`,
  };
}
