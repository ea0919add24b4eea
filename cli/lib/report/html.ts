import type { ReportJson } from '../../../core/index.js';
import { versionText } from './human.js';
import {
  consoleLinks,
  formatChange,
  formatFigure,
  measureLabel,
  regressionLine,
  reportRows,
  type ResultRow,
} from './rows.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface HtmlOptions {
  /** Leave out values and limits (`--ci-no-metrics`): benchmark, measure and alert only. */
  readonly noMetrics?: boolean | undefined;
  /**
   * Cut the result rows so the fragment stays within this many UTF-8 bytes (GitHub's limits say characters
   * but count bytes, so bytes are the safe reading).
   */
  readonly maxLength?: number | undefined;
}

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

function rowHtml(
  row: ResultRow,
  href: (row: ResultRow) => string,
  alertHref: (uuid: string) => string,
  noMetrics: boolean,
  iterations: boolean,
): string {
  const alert = row.alert
    ? link(
        alertHref(row.alert.uuid),
        `🚨 ${row.alert.limit === 'upper' ? 'above upper limit' : 'below lower limit'}`,
      )
    : row.threshold
      ? '✅'
      : '';
  const figures = noMetrics
    ? []
    : [row.value, row.baseline, row.lowerLimit, row.upperLimit].map((v) => formatFigure(v));
  const cells = [
    ...(iterations ? [String(row.iteration)] : []).map(escapeHtml),
    link(href(row), row.benchmark.name),
    escapeHtml(measureLabel(row.measure)),
    ...figures.map(escapeHtml),
    ...(noMetrics ? [] : [escapeHtml(formatChange(row.change))]),
    alert,
  ];
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

/** The regressions the report's alerts belong to, one linked line each (nothing when there are none). */
function regressionsHtml(report: ReportJson, href: (uuid: string) => string): string[] {
  const regressions = report.regressions ?? [];
  if (regressions.length === 0) return [];
  const items = regressions.map(
    (entry) => `<li>${link(href(entry.regression.uuid), regressionLine(entry))}</li>`,
  );
  return [
    `<p><b>${regressions.length} regression${regressions.length === 1 ? '' : 's'}</b></p>`,
    '<ul>',
    ...items,
    '</ul>',
  ];
}

/**
 * The report as an HTML fragment: GitHub renders it in pull-request comments, check runs and job summaries,
 * and `--format html` wraps it in a page. With `maxLength`, whole rows are dropped from the end (with a note
 * and the report's link) so the markup stays valid however long the report is.
 */
export function reportHtmlFragment(
  report: ReportJson,
  consoleUrl: string,
  options: HtmlOptions = {},
): string {
  const rows = reportRows(report);
  const links = consoleLinks(consoleUrl, report);
  const iterations = new Set(rows.map((row) => row.iteration)).size > 1;
  const alerts = report.counts.alerts.total;
  const noMetrics = options.noMetrics === true;
  const titles = [
    ...(iterations ? ['Iteration'] : []),
    'Benchmark',
    'Measure',
    ...(noMetrics ? [] : ['Value', 'Baseline', 'Lower limit', 'Upper limit', 'Change']),
    'Alert',
  ];
  const head = [
    `<h2>${link(links.report(), `Benchtrack report: ${report.project.name}`)}</h2>`,
    '<table>',
    `<tr><td>Branch</td><td>${escapeHtml(report.branch.name)}${versionText(report) ? ` (version ${escapeHtml(versionText(report))})` : ''}</td></tr>`,
    `<tr><td>Testbed</td><td>${escapeHtml(report.testbed.name)}</td></tr>`,
    `<tr><td>Adapter</td><td>${escapeHtml(report.adapter)}</td></tr>`,
    `<tr><td>Started</td><td>${escapeHtml(report.start_time)}</td></tr>`,
    '</table>',
    alerts > 0
      ? `<p><b>🚨 ${alerts} alert${alerts === 1 ? '' : 's'}</b> (${report.counts.alerts.active} active)</p>`
      : `<p>✅ No alerts${rows.some((row) => row.threshold) ? '' : ' (no threshold applies: nothing was tested)'}</p>`,
    ...regressionsHtml(report, links.regression),
    `<table><thead><tr>${titles.map((t) => `<th>${escapeHtml(t)}</th>`).join('')}</tr></thead><tbody>`,
  ].join('\n');
  const body = rows.map((row) => rowHtml(row, links.series, links.alert, noMetrics, iterations));
  const close = '</tbody></table>';
  const footer = `<p>${link(links.report(), 'View the full report')}</p>`;
  const max = options.maxLength ?? Number.POSITIVE_INFINITY;
  const note = (omitted: number) =>
    `<p>${omitted} more result${omitted === 1 ? '' : 's'} not shown here.</p>`;
  // Length of the joined parts (each followed by a newline) when the first `kept` rows are kept.
  const size = (text: string) => Buffer.byteLength(text);
  const fixed = size(head) + size(close) + size(footer) + 3;
  let rowsLength = body.reduce((n, row) => n + size(row) + 1, 0);
  let kept = body.length;
  const measure = () => fixed + rowsLength + (kept < body.length ? size(note(body.length - kept)) + 1 : 0);
  while (kept > 0 && measure() > max) {
    kept -= 1;
    rowsLength -= size(body[kept] ?? '') + 1;
  }
  const omitted = body.length - kept;
  const parts = [head, ...body.slice(0, kept), close, ...(omitted > 0 ? [note(omitted)] : []), footer];
  const html = `${parts.join('\n')}\n`;
  // Even the frame did not fit: a link is all there is room for.
  return size(html) <= max ? html : `<p>${link(links.report(), 'Benchtrack report')}</p>\n`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;color:#1b1f24}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left}
th{background:#f6f8fa}td:nth-child(n+3){font-variant-numeric:tabular-nums}a{color:#0969da}`;

/** `--format html`: a self-contained page (inline style, no script, nothing fetched). */
export function reportHtmlPage(report: ReportJson, consoleUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Benchtrack report ${report.project.name} ${report.branch.name}`)}</title>
<style>${STYLE}</style>
</head>
<body>
${reportHtmlFragment(report, consoleUrl)}</body>
</html>
`;
}
