import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alertLimit,
  DETECTION_DEFAULTS,
  detectChangePoints,
  evaluateModel,
  type Bmf,
  type DetectionParams,
  type ModelParams,
  type ModelPlugin,
} from '../core/index.js';
import deltaIqr from '../plugins/models/delta-iqr.js';
import iqr from '../plugins/models/iqr.js';
import logNormal from '../plugins/models/log-normal.js';
import percentage from '../plugins/models/percentage.js';
import tTest from '../plugins/models/t-test.js';
import zScore from '../plugins/models/z-score.js';

/**
 * The threshold models, used as point-wise detectors, scored on the change-point corpus of
 * ../shared/fixtures/detection (or BENCHTRACK_DETECTION_CORPUS): each series is replayed oldest first, every
 * point from the third on is tested against limits from the up-to-64 points before it (both boundaries at the
 * usual settings), and an alert at index i reports a change at i (the corpus's first-point-after convention).
 * Scored as the corpus README says: one-to-one matching within ±K points, optional points neither rewarded nor
 * punished, TP/FP/FN summed over the corpus. "alerts" scores every alert; "onsets" only alerts whose previous
 * point did not alert (a gate keeps alerting until its history absorbs a step). static is left out: its limits
 * are absolute, and no one setting fits every series.
 *
 * The change-point detector (core/detection) is scored the same way on whole series, at its defaults and at
 * Otava's (max_pvalue 0.001); its detections are already onsets, so it has one row per setting.
 */
const K = 3;
const HISTORY = 64;
const corpus =
  process.env.BENCHTRACK_DETECTION_CORPUS ?? join(import.meta.dirname, '..', 'test', 'fixtures', 'detection');
const expectedFile = join(corpus, 'EXPECTED.json');
if (!existsSync(expectedFile)) {
  // the corpus lives outside the repository; say so loudly, but do not fail `npm run bench` without it
  process.stderr.write(
    `\n== detection corpus: NOT RUN, no corpus at ${corpus}; set BENCHTRACK_DETECTION_CORPUS to its folder ==\n`,
  );
  process.exit(0);
}

interface Entry {
  readonly reference?: { readonly change_points: number[]; readonly optional?: number[] };
}
const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as { files: Record<string, Entry> };
const series = Object.entries(expected.files)
  .filter(([, entry]) => entry.reference !== undefined)
  .map(([file, entry]) => ({
    file,
    values: (JSON.parse(readFileSync(join(corpus, file), 'utf8')) as { values: number[] }).values,
    truth: entry.reference?.change_points ?? [],
    optional: entry.reference?.optional ?? [],
  }));

const models: [ModelPlugin, ModelParams][] = [
  [percentage, { lower_boundary: 0.1, upper_boundary: 0.1, min_sample_size: 2 }],
  [zScore, { lower_boundary: 0.99, upper_boundary: 0.99, min_sample_size: 2 }],
  [tTest, { lower_boundary: 0.99, upper_boundary: 0.99, min_sample_size: 2 }],
  [logNormal, { lower_boundary: 0.99, upper_boundary: 0.99, min_sample_size: 2 }],
  [iqr, { lower_boundary: 1.5, upper_boundary: 1.5, min_sample_size: 2 }],
  [deltaIqr, { lower_boundary: 1.5, upper_boundary: 1.5, min_sample_size: 2 }],
];

/** Indexes where the model alerts, replaying the series point by point. */
function alerts(plugin: ModelPlugin, params: ModelParams, values: readonly number[]): number[] {
  const found: number[] = [];
  for (let i = 2; i < values.length; i++) {
    const history = Float64Array.from(values.slice(Math.max(0, i - HISTORY), i)).reverse();
    const limits = evaluateModel(plugin, history, params);
    if (limits === null) continue;
    if (alertLimit(values[i] as number, { lower_limit: limits.lower, upper_limit: limits.upper }) !== null)
      found.push(i);
  }
  return found;
}

/** Greedy one-to-one matching by increasing distance (ties: smaller index), as the corpus README describes. */
function score(detected: number[], truth: number[], optional: number[]) {
  const pairs = detected.flatMap((d, di) => truth.map((t, ti) => ({ di, ti, distance: Math.abs(d - t), d })));
  const usedD = new Set<number>();
  const usedT = new Set<number>();
  for (const pair of pairs
    .filter((p) => p.distance <= K)
    .sort((a, b) => a.distance - b.distance || a.d - b.d)) {
    if (usedD.has(pair.di) || usedT.has(pair.ti)) continue;
    usedD.add(pair.di);
    usedT.add(pair.ti);
  }
  const unmatched = detected.filter((d, di) => !usedD.has(di) && !optional.some((o) => Math.abs(o - d) <= K));
  return { tp: usedT.size, fp: unmatched.length, fn: truth.length - usedT.size };
}

const f1 = ({ tp, fp, fn }: { tp: number; fp: number; fn: number }) => {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return {
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
};

const bmf: Bmf = {};
const rows: string[][] = [];
for (const [plugin, raw] of models) {
  const params = plugin.params.parse(raw);
  for (const mode of ['alerts', 'onsets'] as const) {
    const total = { tp: 0, fp: 0, fn: 0 };
    let controlFp = 0;
    for (const { values, truth, optional } of series) {
      let detected = alerts(plugin, params, values);
      if (mode === 'onsets') detected = detected.filter((d, i) => detected[i - 1] !== d - 1);
      const s = score(detected, truth, optional);
      total.tp += s.tp;
      total.fp += s.fp;
      total.fn += s.fn;
      if (truth.length === 0) controlFp += s.fp;
    }
    const { precision, recall, f1: f } = f1(total);
    rows.push([
      `${plugin.id}`,
      mode,
      String(total.tp),
      String(total.fp),
      String(total.fn),
      precision.toFixed(3),
      recall.toFixed(3),
      f.toFixed(3),
      String(controlFp),
    ]);
    bmf[`detection_corpus/${plugin.id}/${mode}`] = {
      precision: { value: precision },
      recall: { value: recall },
      f1: { value: f },
      false_positives_on_controls: { value: controlFp },
    };
  }
}
const detectors: [string, DetectionParams][] = [
  ['change points (defaults)', DETECTION_DEFAULTS],
  ['change points (Otava defaults)', { ...DETECTION_DEFAULTS, max_pvalue: 0.001 }],
];
for (const [name, params] of detectors) {
  const total = { tp: 0, fp: 0, fn: 0 };
  let controlFp = 0;
  for (const { values, truth, optional } of series) {
    const detected = detectChangePoints(Float64Array.from(values), params).map((point) => point.index);
    const s = score(detected, truth, optional);
    total.tp += s.tp;
    total.fp += s.fp;
    total.fn += s.fn;
    if (truth.length === 0) controlFp += s.fp;
  }
  const { precision, recall, f1: f } = f1(total);
  rows.push([
    name,
    `p<${params.max_pvalue} w${params.window_len}`,
    String(total.tp),
    String(total.fp),
    String(total.fn),
    precision.toFixed(3),
    recall.toFixed(3),
    f.toFixed(3),
    String(controlFp),
  ]);
  bmf[`detection_corpus/change_points/p_${params.max_pvalue}`] = {
    precision: { value: precision },
    recall: { value: recall },
    f1: { value: f },
    false_positives_on_controls: { value: controlFp },
  };
}
const header = ['model', 'scoring', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1', 'FP on controls'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
const references = series.reduce((n, s) => n + s.truth.length, 0);
process.stderr.write(
  `\n== detection corpus: ${series.length} series, ${references} reference change points, margin ±${K} ==\n${line(header)}\n${rows.map(line).join('\n')}\n`,
);
process.stdout.write(`${JSON.stringify(bmf)}\n`);
