import type { Bmf, BmfMetric } from '../../../kit/index.js';
import { ERROR_TOOLS, JSON_SUMMARIES, slugOf } from './gungraun-measures.js';
import { ResultsBuilder } from './results.js';
import { parseSerdeJson } from './serde-json.js';
import { lines, stripAnsi } from './text.js';

/**
 * Parses Gungraun JSON summaries (format version 6) found in the output: NDJSON lines (`{...}` on one line)
 * or pretty-printed blocks (a `{` line up to the `}` line at the same indentation), mixed with anything else
 * (cargo's own JSON messages, log lines), which is ignored. The name is `module_path::id`, or `module_path`
 * when `id` is null. A metric known only from the previous run (`Right`) is dropped.
 */
export function parseGungraunJson(output: string): Bmf | null {
  const all = lines(stripAnsi(output));
  const closers = closingLines(all);
  const results = new ResultsBuilder();
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    const trimmed = line.trim();
    if (trimmed === '{') {
      const end = nextCloser(closers, indentOf(line), i);
      if (end === undefined) continue;
      addSummary(results, all.slice(i, end + 1).join('\n'));
      i = end;
    } else if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
      addSummary(results, line);
    }
  }
  return results.build();
}

/** Indices of `}` lines by indentation, ascending, so finding a block's end is a binary search. */
function closingLines(all: readonly string[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  all.forEach((line, index) => {
    if (line.trim() !== '}') return;
    const indent = indentOf(line);
    const list = out.get(indent);
    if (list) list.push(index);
    else out.set(indent, [index]);
  });
  return out;
}

function nextCloser(closers: Map<number, number[]>, indent: number, after: number): number | undefined {
  const list = closers.get(indent);
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) <= after) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function addSummary(results: ResultsBuilder, text: string): void {
  const summary = parseSerdeJson(text);
  if (!isObject(summary) || summary.version !== '6') return;
  const { module_path: modulePath, id, profiles } = summary;
  if (typeof modulePath !== 'string' || !Array.isArray(profiles)) return;
  if (id !== null && id !== undefined && typeof id !== 'string') return;
  const measures: [string, BmfMetric][] = [];
  for (const profile of profiles) {
    const found = profileMeasures(profile);
    if (found === null) return;
    measures.push(...found);
  }
  results.benchmark(typeof id === 'string' ? `${modulePath}::${id}` : modulePath, measures);
}

/** Measures of one profile; `null` when the profile is not a summary (the whole document is then ignored). */
function profileMeasures(profile: unknown): [string, BmfMetric][] | null {
  if (!isObject(profile) || typeof profile.tool !== 'string') return null;
  const summary =
    isObject(profile.summaries) && isObject(profile.summaries.total)
      ? profile.summaries.total.summary
      : undefined;
  if (summary === 'None') return [];
  if (!isObject(summary)) return null;
  const [kind, metrics] = Object.entries(summary)[0] ?? [];
  if (kind === undefined || !isObject(metrics)) return null;
  const table = kind === 'ErrorTool' ? ERROR_TOOLS[profile.tool] : JSON_SUMMARIES[kind];
  if (!table) return kind === 'ErrorTool' ? [] : null;
  const out: [string, BmfMetric][] = [];
  for (const [name, diff] of Object.entries(metrics)) {
    const slug = slugOf(table, name);
    const value = currentValue(diff);
    if (slug !== undefined && value !== undefined) out.push([slug, { value }]);
  }
  return out;
}

/** The new run's value of `{metrics: {Left: m} | {Both: [m, old]} | {Right: old}}`, m = `{Int}` or `{Float}`. */
function currentValue(diff: unknown): number | undefined {
  if (!isObject(diff) || !isObject(diff.metrics)) return undefined;
  const { Left: left, Both: both } = diff.metrics;
  const metric = left ?? (Array.isArray(both) ? both[0] : undefined);
  if (!isObject(metric)) return undefined;
  const value = metric.Int ?? metric.Float;
  return typeof value === 'number' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
