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
import { SECOND_NOISE_SHAPES, secondCorpus } from './lib/second-corpus.js';

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
 * noise of 1-4% instead of 0.5-2%. A second generator (bench/lib/second-corpus.ts, written for a competing
 * detector: eleven shapes, noise of 0.5-8%), seeds 9001-9010, was never run while the detector was tuned. Then
 * false change points per 1,000 points of flat series of each noise shape, at 60, 200 and 1,000 points a series
 * (and 1,000 points from the second generator), and the share of 10% steps at 2% noise found within ±3 points,
 * per shape of either generator.
 *
 * `npm run bench -- detection-stress`
 */
const MARGIN = 3;
const TUNING = [1, 10] as const;
const HOLDOUT = [101, 140] as const;
const SECOND = [9001, 9010] as const;
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

/** A labelled series of either generator. */
type Scored =
  Pick<LabelledSeries, 'values' | 'truth' | 'optional' | 'shape'> | ReturnType<typeof secondCorpus>[number];

function score(series: readonly Scored[], detect: (values: Float64Array) => number[]): Score {
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

const corpora: [string, Scored[]][] = [
  ['tuning seeds 1-10', corpus(TUNING)],
  ['hold-out seeds 101-140', corpus(HOLDOUT)],
  ['hold-out, noise 1-4%', corpus(HOLDOUT, HARD)],
  [
    `second generator, seeds ${SECOND[0]}-${SECOND[1]}`,
    Array.from({ length: SECOND[1] - SECOND[0] + 1 }, (_, k) =>
      secondCorpus(SECOND[0] + k, { perShape: 16 }),
    ).flat(),
  ],
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
for (const [k, shape] of SECOND_NOISE_SHAPES.entries()) {
  const series = secondCorpus(9100 + k, {
    perShape: 40,
    shapes: [shape],
    steps: [0, 0],
    length: [1000, 1000],
  });
  const points = series.reduce((n, s) => n + s.values.length, 0);
  const cells = detectors.map(([detector, detect]) => {
    let fp = 0;
    for (const s of series) fp += scoreSeries(detect(s.values), [], s.optional, MARGIN).fp;
    const per1000 = (1000 * fp) / points;
    (bmf[`detection_stress/${detector}/second_flat_${shape}`] ??= {}).false_per_1000 = { value: per1000 };
    return per1000.toFixed(2);
  });
  flatRows.push([`${shape} (second)`, '1000', ...cells]);
}

// single 10% steps at 2% noise, per shape of either generator
const stepRows: string[][] = [];
const steps: [string, Scored[]][] = [
  ...NOISE_SHAPES.map((shape, k): [string, Scored[]] => [
    shape,
    Array.from({ length: 60 }, (_, i) =>
      labelledSeries(new Random(920_000 + 1000 * k + i), `${shape}/${i}`, shape, false, {
        ...STRESS_CORPUS,
        step: [0.1, 0.1],
        cv: [0.02, 0.02],
      }),
    ),
  ]),
  ...SECOND_NOISE_SHAPES.map((shape, k): [string, Scored[]] => [
    `${shape} (second)`,
    secondCorpus(9200 + k, {
      perShape: 60,
      shapes: [shape],
      steps: [1, 1],
      stepSize: [0.1, 0.1],
      cv: [0.02, 0.02],
    }).filter((s) => s.truth.length > 0),
  ]),
];
for (const [shape, series] of steps) {
  const truth = series.reduce((n, s) => n + s.truth.length, 0);
  const cells = detectors.map(([detector, detect]) => {
    let found = 0;
    for (const s of series) found += scoreSeries(detect(s.values), s.truth, s.optional, MARGIN).tp;
    (bmf[`detection_stress/${detector}/step_10pct_${shape.replace(/\W+/g, '_')}`] ??= {}).found = {
      value: (100 * found) / truth,
    };
    return `${((100 * found) / truth).toFixed(1)}%`;
  });
  stepRows.push([shape, String(truth), ...cells]);
}

out.push(
  `\n== false change points per 1,000 points of flat series (${FLAT_POINTS.toLocaleString('en')} points a cell, noise 0.5-2%) ==\n`,
  table(['shape', 'points', ...detectors.map(([d]) => d)], flatRows),
  `\n== 10% steps at 2% noise found within ±${MARGIN} (60 series a shape, 1 to 4 steps from the first generator, 1 from the second) ==\n`,
  table(['shape', 'steps', ...detectors.map(([d]) => d)], stepRows),
  `load average ${loadavg()[0]?.toFixed(1)} at the end\n`,
);
process.stderr.write(`\n${out.join('')}`);
process.stdout.write(`${JSON.stringify(bmf)}\n`);
