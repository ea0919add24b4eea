import type { ReportJson } from '../../../core/index.js';
import { humanReport } from './human.js';
import { reportHtmlPage } from './html.js';

export type ReportFormat = 'human' | 'json' | 'html';

/** A report as `run` and `report view` print it; JSON is the answer as the server sent it. */
export function renderReport(
  report: ReportJson,
  raw: unknown,
  format: ReportFormat,
  consoleUrl: string,
): string {
  if (format === 'json') return `${JSON.stringify(raw, null, 2)}\n`;
  if (format === 'html') return reportHtmlPage(report, consoleUrl);
  return humanReport(report, consoleUrl);
}
