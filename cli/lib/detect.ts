import { detectChangePoints, type DetectionParams } from '../../core/detection/detect.js';
import { parseDetectionParams } from '../../core/detection/params.js';
import { parseSeriesJson, relativeChange } from '../../core/detection/series-input.js';
import { renderTable } from './table.js';

export interface DetectCommandOptions {
  readonly params: DetectionParams;
  readonly format: 'table' | 'json';
}

/** The change points of a JSON series, as the text to print: JSON, or a table for people. */
export function runDetect(text: string, options: DetectCommandOptions): string {
  const params = parseDetectionParams(options.params);
  const values = parseSeriesJson(text);
  const points = detectChangePoints(values, params).map((point) => ({
    index: point.index,
    before: point.meanBefore,
    after: point.meanAfter,
    change: relativeChange(point.meanBefore, point.meanAfter),
    p_value: point.pValue,
  }));
  if (options.format === 'json') return `${JSON.stringify({ change_points: points }, null, 2)}\n`;
  const summary = `${points.length} change point${points.length === 1 ? '' : 's'} in ${values.length} values (max_pvalue ${params.max_pvalue}, min_magnitude ${params.min_magnitude}, window_len ${params.window_len})\n`;
  if (points.length === 0) return summary;
  const number = (x: number) => String(Number(x.toPrecision(6)));
  const rows = points.map((p) => [
    String(p.index),
    number(p.before),
    number(p.after),
    p.change === null ? 'n/a' : `${p.change >= 0 ? '+' : ''}${(p.change * 100).toFixed(2)}%`,
    p.p_value < 0.001 ? p.p_value.toExponential(2) : p.p_value.toPrecision(3),
  ]);
  const columns = [
    { title: 'index', align: 'right' },
    { title: 'before', align: 'right' },
    { title: 'after', align: 'right' },
    { title: 'change', align: 'right' },
    { title: 'p-value', align: 'right' },
  ] as const;
  return `${renderTable(columns, rows, 'sharp')}${summary}`;
}
