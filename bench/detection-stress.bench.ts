import { loadavg } from 'node:os';
import { DETECTION_DEFAULTS, detectChangePoints, type Bmf } from '../core/index.js';
import { OTAVA_DEFAULTS, otavaChangePoints } from '../core/detection/otava.js';
import {
  labelledSeries,
  NOISE_SHAPES,
  STRESS_CORPUS,
  stressCorpus,
  type CorpusShape,
  type LabelledSeries,
} from './lib/change-corpus.js';
import { addCounts, rates, scoreSeries, type Counts } from './lib/change-score.js';
import { naiveBinarySegmentation } from './lib/naive-binseg.js';
import { Random } from './lib/random.js';

/**
 * Change-point detection on the seeded stress corpus (bench/lib/change-corpus.ts: 48 series per seed, 0 to 4 steps
 * of 4-40%, segments of 20 points or more, every sixth series flat; Gaussian, Student-t 3, bimodal, 1% outliers
 * at 8 sigma, slow drift, seasonality, a variance change, quantized values, gaps in time), scored as the public
 * corpus is (one-to-one matching within ±3 points, optional points neither rewarded nor punished, counts summed).
 * Three detectors side by side: the product's (core/detection, default settings), Otava's as it ships (window 50,
 * p 0.001, no magnitude floor) and a naive robust binary segmentation (bench/lib/naive-binseg.ts).
 *
 * The detector's rules and settings were tuned on seeds 1-10 only; seeds 101-140 were generated once the design
 * was fixed and measure what it does on noise it was not tuned on. A harder variant of the hold-out seeds has
 * noise of 1-4% instead of 0.5-2%. Then false change points per 1,000 points of flat series of each noise shape,
 * at 60, 200 and 1,000 points a series.
 *
 * `npm run bench -- detection-stress`
 */
const MARGIN = 3;
const TUNING = [1, 10] as const;
const HOLDOUT = [101, 140] as const;
const HARD: CorpusShape = { ...STRESS_CORPUS, cv: [0.01, 0.04] };
const FLAT_POINTS = 60_000;

const detectors: [string, (values: Float64Array) => number[]][] = [
  ['ours', (values) => detectChangePoints(values, DETECTION_DEFAULTS).map((p) => p.index)],
  ['otava', (values) => otavaChangePoints(values, OTAVA_DEFAULTS).map((p) => p.index)],
  ['binseg', (values) => naiveBinarySegmentation(values)],
];

const corpus = ([first, last]: readonly [number, number], shape = STRESS_CORPUS) =>
  Array.from({ length: last - first + 1 }, (_, k) => stressCorpus(first + k, 48, shape)).flat();

interface Score {
  readonly all: Counts;
  readonly byShape: Map<string, Counts>;
  readonly flatFalse: number;
}

function score(series: readonly LabelledSeries[], detect: (values: Float64Array) => number[]): Score {
  const all = { tp: 0, fp: 0, fn: 0 };
  const byShape = new Map<string, Counts>();
  let flatFalse = 0;
  for (const s of series) {
    const counts = scoreSeries(detect(s.values), s.truth, s.optional, MARGIN);
    addCounts(all, counts);
    const shape = byShape.get(s.shape) ?? { tp: 0, fp: 0, fn: 0 };
    byShape.set(s.shape, addCounts(shape, counts));
    if (s.truth.length === 0) flatFalse += counts.fp;
  }
  return { all, byShape, flatFalse };
}

const bmf: Bmf = {};
const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return `${line(header)}\n${rows.map(line).join('\n')}\n`;
};
const out: string[] = [`load average ${loadavg()[0]?.toFixed(1)} at the start\n`];

const corpora: [string, LabelledSeries[]][] = [
  ['tuning seeds 1-10', corpus(TUNING)],
  ['hold-out seeds 101-140', corpus(HOLDOUT)],
  ['hold-out, noise 1-4%', corpus(HOLDOUT, HARD)],
];
const holdout = new Map<string, Score>();
const summary: string[][] = [];
for (const [name, series] of corpora) {
  const flat = series.filter((s) => s.truth.length === 0).length;
  for (const [detector, detect] of detectors) {
    const s = score(series, detect);
    if (name.startsWith('hold-out seeds')) holdout.set(detector, s);
    const { precision, recall, f1 } = rates(s.all);
    summary.push([
      name,
      detector,
      String(s.all.tp),
      String(s.all.fp),
      String(s.all.fn),
      precision.toFixed(3),
      recall.toFixed(3),
      f1.toFixed(3),
      `${s.flatFalse} in ${flat}`,
    ]);
    bmf[`detection_stress/${detector}/${name.replace(/[^a-z0-9]+/gi, '_')}`] = {
      precision: { value: precision },
      recall: { value: recall },
      f1: { value: f1 },
    };
  }
}
out.push(
  `== stress corpus: ${corpora.map(([name, s]) => `${name} ${s.length} series`).join(', ')}; margin ±${MARGIN} ==\n`,
  table(['corpus', 'detector', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1', 'FP on flat series'], summary),
);

const shapes = NOISE_SHAPES.map((shape) => [
  shape,
  ...detectors.map(([detector]) => {
    const counts = holdout.get(detector)?.byShape.get(shape) ?? { tp: 0, fp: 0, fn: 0 };
    const { precision, recall } = rates(counts);
    return `${precision.toFixed(2)} / ${recall.toFixed(2)}`;
  }),
]);
out.push(
  `\n== hold-out seeds 101-140 by noise shape: precision / recall ==\n`,
  table(['shape', ...detectors.map(([d]) => d)], shapes),
);

const flatRows: string[][] = [];
for (const n of [60, 200, 1000]) {
  const count = Math.round(FLAT_POINTS / n);
  for (const shape of NOISE_SHAPES) {
    const series = Array.from({ length: count }, (_, i) =>
      labelledSeries(new Random(500_000 + n * 1000 + i), `${n}/${i}`, shape, true, {
        ...STRESS_CORPUS,
        length: [n, n],
      }),
    );
    const cells = detectors.map(([detector, detect]) => {
      let fp = 0;
      for (const s of series) fp += scoreSeries(detect(s.values), [], s.optional, MARGIN).fp;
      const per1000 = (1000 * fp) / (count * n);
      (bmf[`detection_stress/${detector}/flat_${shape}_${n}`] ??= {}).false_per_1000 = { value: per1000 };
      return per1000.toFixed(2);
    });
    flatRows.push([shape, String(n), ...cells]);
  }
}
out.push(
  `\n== false change points per 1,000 points of flat series (${FLAT_POINTS.toLocaleString('en')} points a cell, noise 0.5-2%) ==\n`,
  table(['shape', 'points', ...detectors.map(([d]) => d)], flatRows),
  `load average ${loadavg()[0]?.toFixed(1)} at the end\n`,
);
process.stderr.write(`\n${out.join('')}`);
process.stdout.write(`${JSON.stringify(bmf)}\n`);
