import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alertLimit,
  DETECTION_DEFAULTS,
  detectChangePoints,
  evaluateModel,
  type Bmf,
  type ModelParams,
  type ModelPlugin,
} from '../core/index.js';
import { OTAVA_DEFAULTS, otavaChangePoints } from '../core/detection/otava.js';
import { addCounts, rates, scoreSeries, type Counts } from './lib/change-score.js';
import { naiveBinarySegmentation } from './lib/naive-binseg.js';
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
 * The change-point detectors are scored the same way on whole series: the product's (core/detection) at its
 * defaults and at max_pvalue 0.001, Otava's as it ships (window 50, p 0.001; otavaChangePoints) and a naive
 * robust binary segmentation (bench/lib/naive-binseg.ts); their detections are already onsets. The profile series
 * are robust_series_173 tiled 2 to 28 times, and their references are MongoDB's outputs, which disagree between
 * tiles of the same values (most tiles of profile_huge_4844 list one of the two steps 5 points apart at 64 and
 * 69 that the other series list both of): each detector is also scored with those references rebuilt from
 * robust_series_173's own and the tile boundaries ("tiled reference").
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

const bmf: Bmf = {};
const rows: string[][] = [];
/** One row of the table: a detector, how it was scored, its counts, rates and false positives on the controls. */
function row(name: string, scoring: string, total: Counts, controlFp: number): string[] {
  const { precision, recall, f1 } = rates(total);
  return [
    name,
    scoring,
    ...[total.tp, total.fp, total.fn].map(String),
    ...[precision, recall, f1].map((x) => x.toFixed(3)),
    String(controlFp),
  ];
}
for (const [plugin, raw] of models) {
  const params = plugin.params.parse(raw);
  for (const mode of ['alerts', 'onsets'] as const) {
    const total = { tp: 0, fp: 0, fn: 0 };
    let controlFp = 0;
    for (const { values, truth, optional } of series) {
      let detected = alerts(plugin, params, values);
      if (mode === 'onsets') detected = detected.filter((d, i) => detected[i - 1] !== d - 1);
      const s = scoreSeries(detected, truth, optional, K);
      addCounts(total, s);
      if (truth.length === 0) controlFp += s.fp;
    }
    const { precision, recall, f1: f } = rates(total);
    rows.push(row(plugin.id, mode, total, controlFp));
    bmf[`detection_corpus/${plugin.id}/${mode}`] = {
      precision: { value: precision },
      recall: { value: recall },
      f1: { value: f },
      false_positives_on_controls: { value: controlFp },
    };
  }
}
const robust = series.find((s) => s.file === 'mongodb-spa/robust_series_173.json')?.truth ?? [];
/** A profile series' reference rebuilt from robust_series_173's and the tile boundaries (every one is a step). */
const tiled = (file: string, truth: number[], length: number) => {
  if (!file.startsWith('mongodb-spa/profile_') || length % 173 !== 0 || length === 173) return truth;
  return Array.from({ length: length / 173 }, (_, k) => [
    ...(k > 0 ? [k * 173] : []),
    ...robust.map((r) => k * 173 + r),
  ]).flat();
};
const detectors: [string, string, (values: Float64Array) => number[]][] = [
  [
    'change points (defaults)',
    `p<${DETECTION_DEFAULTS.max_pvalue} w${DETECTION_DEFAULTS.window_len}`,
    (v) => detectChangePoints(v, DETECTION_DEFAULTS).map((p) => p.index),
  ],
  [
    'change points (max_pvalue 0.001)',
    `p<0.001 w${DETECTION_DEFAULTS.window_len}`,
    (v) => detectChangePoints(v, { ...DETECTION_DEFAULTS, max_pvalue: 0.001 }).map((p) => p.index),
  ],
  [
    'Otava as it ships',
    `p<${OTAVA_DEFAULTS.max_pvalue} w${OTAVA_DEFAULTS.window_len}`,
    (v) => otavaChangePoints(v, OTAVA_DEFAULTS).map((p) => p.index),
  ],
  ['naive binary segmentation', 'p<0.001', (v) => naiveBinarySegmentation(v)],
];
for (const [name, settings, detect] of detectors) {
  for (const reference of ['as given', 'tiled reference'] as const) {
    const total = { tp: 0, fp: 0, fn: 0 };
    let controlFp = 0;
    for (const { file, values, truth, optional } of series) {
      const detected = detect(Float64Array.from(values));
      const want = reference === 'as given' ? truth : tiled(file, truth, values.length);
      const s = scoreSeries(detected, want, optional, K);
      addCounts(total, s);
      if (truth.length === 0) controlFp += s.fp;
    }
    const { precision, recall, f1: f } = rates(total);
    rows.push(row(name, `${settings}, ${reference}`, total, controlFp));
    bmf[`detection_corpus/${name.replace(/[^a-z0-9.]+/gi, '_')}/${reference.replace(' ', '_')}`] = {
      precision: { value: precision },
      recall: { value: recall },
      f1: { value: f },
      false_positives_on_controls: { value: controlFp },
    };
  }
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
