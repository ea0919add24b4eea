import {
  alertLimit,
  DETECTION_DEFAULTS,
  detectChangePoints,
  evaluateModel,
  type Bmf,
  type ModelParams,
  type ModelPlugin,
} from '../core/index.js';
import deltaIqr from '../plugins/models/delta-iqr.js';
import iqr from '../plugins/models/iqr.js';
import logNormal from '../plugins/models/log-normal.js';
import percentage from '../plugins/models/percentage.js';
import staticModel from '../plugins/models/static.js';
import tTest from '../plugins/models/t-test.js';
import zScore from '../plugins/models/z-score.js';
import { OTAVA_DEFAULTS, otavaChangePoints } from '../core/detection/otava.js';
import { naiveBinarySegmentation } from './lib/naive-binseg.js';
import { Random } from './lib/random.js';

/**
 * Detection quality of the threshold models, the baseline for smarter detection later. Seeded synthetic
 * series: a history of 64 points at level 100 with Gaussian noise of coefficient of variation CV, then one new
 * point. Unchanged, the new point is drawn like the history (any alert is false); after a step, it is
 * 100·(1 + step) plus the same noise (an upper alert is a detection). Every model sees the same series.
 * Reported per model at its usual settings (upper boundary only: a step up is a latency regression): the
 * share of steps caught by the first point after them, and false alerts per 1,000 unchanged points.
 *
 * The change-point detectors are scored on whole histories instead: 64 points, the step, 64 more. A step counts
 * as found when a change point lies within ±3 points of it (the corpus margin); false change points are counted
 * on unchanged series of 128 points, per 1,000 points. The product's detector (core/detection, default
 * settings) beside Otava's as it ships (window 50, p 0.001) and a naive robust binary segmentation.
 */
const LEVEL = 100;
const HISTORY = 64;
const STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5];
const CVS = [0.01, 0.02, 0.05, 0.1];
const STEP_TRIALS = 2_000;
const UNCHANGED_TRIALS = 20_000;

/** The usual settings: the reference's worked example (9b.1) with the max_sample_size of its default thresholds. */
const models: [ModelPlugin, ModelParams][] = [
  [staticModel, { upper_boundary: 105 }],
  [percentage, { upper_boundary: 0.1, max_sample_size: HISTORY }],
  [zScore, { upper_boundary: 0.99, max_sample_size: HISTORY }],
  [tTest, { upper_boundary: 0.99, max_sample_size: HISTORY }],
  [logNormal, { upper_boundary: 0.99, max_sample_size: HISTORY }],
  [iqr, { upper_boundary: 1.5, max_sample_size: HISTORY }],
  [deltaIqr, { upper_boundary: 1.5, max_sample_size: HISTORY }],
];

interface Trials {
  readonly histories: Float64Array;
  readonly next: Float64Array;
}

function trials(count: number, cv: number, step: number, seed: number): Trials {
  const random = new Random(seed);
  const histories = new Float64Array(count * HISTORY);
  const next = new Float64Array(count);
  for (let i = 0; i < histories.length; i++) histories[i] = LEVEL * (1 + cv * random.normal());
  for (let i = 0; i < count; i++) next[i] = LEVEL * (1 + step) + LEVEL * cv * random.normal();
  return { histories, next };
}

/** Share of trials whose new point raises an alert (any side). */
function alertRate(plugin: ModelPlugin, params: ModelParams, { histories, next }: Trials): number {
  let alerts = 0;
  for (let i = 0; i < next.length; i++) {
    const limits = evaluateModel(plugin, histories.subarray(i * HISTORY, (i + 1) * HISTORY), params);
    if (limits === null) continue;
    const limit = alertLimit(next[i] as number, { lower_limit: limits.lower, upper_limit: limits.upper });
    if (limit !== null) alerts++;
  }
  return alerts / next.length;
}

const rates = new Map<string, number>();
const key = (model: string, cv: number, step: number) => `${model}|${cv}|${step}`;
CVS.forEach((cv, c) => {
  for (const [s, step] of [0, ...STEPS].entries()) {
    const data = trials(step === 0 ? UNCHANGED_TRIALS : STEP_TRIALS, cv, step, 1000 * (c + 1) + s);
    for (const [plugin, raw] of models)
      rates.set(key(plugin.id, cv, step), alertRate(plugin, plugin.params.parse(raw), data));
  }
});

const pct = (x: number) => `${Math.round(x * 100)}%`;
const header = ['model', 'CV', ...STEPS.map((s) => `+${pct(s)}`), 'false/1000'];
const rows: string[][] = [];
const bmf: Bmf = {};
for (const [plugin, params] of models) {
  for (const cv of CVS) {
    const detected = STEPS.map((step) => rates.get(key(plugin.id, cv, step)) as number);
    const falsePer1000 = (rates.get(key(plugin.id, cv, 0)) as number) * 1000;
    const settings = `${plugin.id} (upper ${params.upper_boundary})`;
    rows.push([settings, pct(cv), ...detected.map(pct), falsePer1000.toFixed(1)]);
    const metrics: Bmf[string] = { false_alerts_per_1000: { value: falsePer1000 } };
    STEPS.forEach(
      (step, i) =>
        (metrics[`detection_rate_step_${Math.round(step * 100)}pct`] = {
          value: (detected[i] as number) * 100,
        }),
    );
    bmf[`detection/${plugin.id}/cv_${Math.round(cv * 100)}pct`] = metrics;
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) =>
  cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
process.stderr.write(
  `\n== detection: first point after a step caught (%), false alerts per 1,000 unchanged points ==\n` +
    `history ${HISTORY} points at level ${LEVEL}, Gaussian noise; ${STEP_TRIALS} trials per step, ${UNCHANGED_TRIALS} unchanged\n` +
    `${line(header)}\n${rows.map(line).join('\n')}\n`,
);

const AFTER = 64;
const DETECTOR_STEP_TRIALS = 200;
const DETECTOR_UNCHANGED_SERIES = 400;
const MARGIN = 3;

/** Detector series: HISTORY points at the level, then AFTER points at level·(1 + step), noise of CV. */
function detectorSeries(count: number, cv: number, step: number, seed: number): Float64Array[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () =>
    Float64Array.from(
      { length: HISTORY + AFTER },
      (_, i) => LEVEL * (i < HISTORY ? 1 : 1 + step) * (1 + cv * random.normal()),
    ),
  );
}

const changeDetectors: [string, string, (series: Float64Array) => number[]][] = [
  [
    'change points (defaults)',
    'change_points',
    (x) => detectChangePoints(x, DETECTION_DEFAULTS).map((p) => p.index),
  ],
  ['Otava as it ships', 'otava', (x) => otavaChangePoints(x, OTAVA_DEFAULTS).map((p) => p.index)],
  ['naive binary segmentation', 'naive_binseg', (x) => naiveBinarySegmentation(x)],
];
const detectorRows: string[][] = [];
for (const [name, slug, detect] of changeDetectors) {
  for (const [c, cv] of CVS.entries()) {
    const found = STEPS.map((step, s) => {
      const hits = detectorSeries(DETECTOR_STEP_TRIALS, cv, step, 5000 + 100 * c + s).filter((series) =>
        detect(series).some((index) => Math.abs(index - HISTORY) <= MARGIN),
      ).length;
      return hits / DETECTOR_STEP_TRIALS;
    });
    const unchanged = detectorSeries(DETECTOR_UNCHANGED_SERIES, cv, 0, 9000 + c);
    const falsePoints = unchanged.reduce((n, series) => n + detect(series).length, 0);
    const falsePer1000 = (falsePoints / (DETECTOR_UNCHANGED_SERIES * (HISTORY + AFTER))) * 1000;
    detectorRows.push([name, pct(cv), ...found.map(pct), falsePer1000.toFixed(2)]);
    const metrics: Bmf[string] = { false_change_points_per_1000: { value: falsePer1000 } };
    STEPS.forEach(
      (step, i) => (metrics[`detection_rate_step_${Math.round(step * 100)}pct`] = { value: found[i]! * 100 }),
    );
    bmf[`detection/${slug}/cv_${Math.round(cv * 100)}pct`] = metrics;
  }
}
const { window_len, max_pvalue, min_magnitude } = DETECTION_DEFAULTS;
const detectorHeader = ['detector', 'CV', ...STEPS.map((s) => `+${pct(s)}`), 'false/1000'];
const dWidths = detectorHeader.map((h, i) =>
  Math.max(h.length, ...detectorRows.map((r) => (r[i] ?? '').length)),
);
const dLine = (cells: string[]) =>
  cells.map((cell, i) => (i < 2 ? cell.padEnd(dWidths[i] ?? 0) : cell.padStart(dWidths[i] ?? 0))).join('  ');
process.stderr.write(
  `\n== detection: change-point detector over whole histories, step found within ±${MARGIN} (%), false change points per 1,000 unchanged points ==\n` +
    `${HISTORY} points, step, ${AFTER} points; the product's window_len ${window_len}, max_pvalue ${max_pvalue}, min_magnitude ${min_magnitude}; ` +
    `${DETECTOR_STEP_TRIALS} series per step, ${DETECTOR_UNCHANGED_SERIES} unchanged series of ${HISTORY + AFTER} points\n` +
    `${dLine(detectorHeader)}\n${detectorRows.map(dLine).join('\n')}\n`,
);
process.stdout.write(`${JSON.stringify(bmf)}\n`);
