import type { ReportJson } from '../../../core/index.js';
import { renderTable, type Column } from '../table.js';
import {
  consoleLinks,
  formatChange,
  formatFigure,
  measureLabel,
  regressionLine,
  reportRows,
  type ResultRow,
} from './rows.js';

/** The version of a report's branch head, as `3 (abc1234)`. */
export function versionText(report: ReportJson): string {
  const version = report.branch.head.version;
  if (!version) return '';
  return `${version.number}${version.hash ? ` (${version.hash.slice(0, 7)})` : ''}`;
}

function alertText(row: ResultRow): string {
  // A threshold whose model could not run yet (too few samples) has no limits: nothing was tested.
  if (!row.alert) return row.lowerLimit !== null || row.upperLimit !== null ? 'ok' : '';
  return `${row.alert.limit === 'upper' ? 'above upper' : 'below lower'} limit${row.alert.status === 'active' ? '' : ` (${row.alert.status})`}`;
}

/**
 * The default output of `benchtrack run` and `report view`: what ran where, a table of results with baseline,
 * limits, percent change and alerts, then the alerts with their console links and the report's link.
 */
export function humanReport(report: ReportJson, consoleUrl: string): string {
  const rows = reportRows(report);
  const links = consoleLinks(consoleUrl, report);
  const iterations = new Set(rows.map((row) => row.iteration)).size > 1;
  const columns: Column[] = [
    ...(iterations ? [{ title: 'Iter', align: 'right' as const }] : []),
    { title: 'Benchmark' },
    { title: 'Measure' },
    { title: 'Value', align: 'right' },
    { title: 'Baseline', align: 'right' },
    { title: 'Lower limit', align: 'right' },
    { title: 'Upper limit', align: 'right' },
    { title: 'Change', align: 'right' },
    { title: 'Alert' },
  ];
  const table = rows.map((row) => [
    ...(iterations ? [String(row.iteration)] : []),
    row.benchmark.name,
    measureLabel(row.measure),
    formatFigure(row.value),
    formatFigure(row.baseline),
    formatFigure(row.lowerLimit),
    formatFigure(row.upperLimit),
    formatChange(row.change),
    alertText(row),
  ]);
  const out = [
    `Report ${report.uuid} of project ${report.project.name} (${report.project.slug})`,
    `Branch: ${report.branch.name}${versionText(report) ? `, version ${versionText(report)}` : ''}   Testbed: ${report.testbed.name}   Adapter: ${report.adapter}`,
    `Ran ${report.start_time} for ${formatDuration(report)}`,
    '',
    rows.length > 0 ? renderTable(columns, table, 'rounded') : 'No results.\n',
  ];
  if (rows.length > 0 && !rows.some((row) => row.threshold)) {
    out.push(
      'No threshold applies to these results, so none is tested for regressions: add one with --threshold-measure and --threshold-test.\n',
    );
  }
  const alerted = rows.filter((row) => row.alert);
  if (alerted.length > 0) {
    out.push(`${alerted.length} alert${alerted.length === 1 ? '' : 's'}:`);
    for (const row of alerted) {
      const limit = row.alert?.limit === 'upper' ? row.upperLimit : row.lowerLimit;
      out.push(
        `  ${row.benchmark.name} ${row.measure.name}: ${formatFigure(row.value)} is ${row.alert?.limit === 'upper' ? 'above the upper' : 'below the lower'} limit ${formatFigure(limit)} (${formatChange(row.change)} from baseline)`,
        `    ${links.alert(row.alert?.uuid ?? '')}`,
      );
    }
    out.push('');
  }
  const regressions = report.regressions ?? [];
  if (regressions.length > 0) {
    out.push(`${regressions.length} regression${regressions.length === 1 ? '' : 's'}:`);
    for (const entry of regressions)
      out.push(`  ${regressionLine(entry)}`, `    ${links.regression(entry.regression.uuid)}`);
    out.push('');
  }
  out.push(`View the report: ${links.report()}`, '');
  return out.join('\n');
}

function formatDuration(report: ReportJson): string {
  const ms = Date.parse(report.end_time) - Date.parse(report.start_time);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}
