import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlotImageInput, type PlotImageInput } from '../core/index.js';
import { buildPlotLayers, buildPlotSvg } from '../workers/tasks/render/svg.js';
import { rasterizePlot } from '../workers/tasks/render/rasterize.js';
import { benchImage, history, YEAR_START } from './lib/plot-data.js';
import { Random } from './lib/random.js';

/**
 * Renders sample plot images (SVG and PNG) for looking at them: `npx tsx bench/plot-samples.ts [dir]`, default
 * /tmp/benchtrack-plots. Seeded, so every run draws the same pictures.
 */
const dir = process.argv[2] ?? '/tmp/benchtrack-plots';
const DAY = 86_400_000;
const random = new Random(2024);

const samples: Record<string, PlotImageInput> = {
  'year-regression': {
    title: 'Parser latency, main branch',
    xAxis: 'date_time',
    yAxis: 'auto',
    measure: { name: 'Latency', units: 'nanoseconds (ns)' },
    series: [
      history(random, 'main / ubuntu-22.04-x64 / bench::parse::small_json', {
        points: 365,
        start: YEAR_START,
        step: DAY,
        level: 1_250_000,
        cv: 0.02,
        shift: { at: 250, factor: 1.3 },
        limits: true,
      }),
      history(random, 'main / ubuntu-22.04-x64 / bench::parse::medium_json', {
        points: 365,
        start: YEAR_START,
        step: DAY,
        level: 2_100_000,
        cv: 0.015,
      }),
      history(random, 'main / macos-14-arm64 / bench::parse::small_json', {
        points: 365,
        start: YEAR_START,
        step: DAY,
        level: 900_000,
        cv: 0.04,
      }),
    ],
  },
  'log-axis': {
    title: 'Sort <T> & friends: "quoted" names',
    xAxis: 'date_time',
    yAxis: 'auto',
    measure: { name: 'Latency', units: 'nanoseconds (ns)' },
    series: [10, 10_000, 10_000_000].map((level, i) =>
      history(random, `feature/<simd> & "fast" / testbed-${i} / sort::n=${level}`, {
        points: 90,
        start: YEAR_START,
        step: DAY / 4,
        level,
        cv: 0.05,
      }),
    ),
  },
  empty: {
    title: 'A selection with no data',
    xAxis: 'date_time',
    yAxis: 'auto',
    measure: { name: 'Throughput', units: 'operations / second (ops/s)' },
    series: [{ label: 'main / default / nothing-here', x: new Float64Array(0), y: new Float64Array(0) }],
  },
  version: {
    title: 'Binary size by version',
    xAxis: 'version',
    yAxis: 'linear',
    measure: { name: 'File size', units: 'bytes (B)' },
    series: ['release', 'debug'].map((profile, i) =>
      history(random, `main / linux / size::${profile}`, {
        points: 48,
        start: 101,
        step: 1,
        level: 4_800_000 * (i + 1),
        cv: 0.004,
        shift: { at: 30, factor: 1.08 },
        limits: true,
      }),
    ),
  },
  hours: {
    title: 'One day of runs',
    xAxis: 'date_time',
    yAxis: 'linear',
    measure: { name: 'Latency', units: 'seconds (s)' },
    series: [
      history(random, 'pr-1234 / github-actions / e2e::checkout', {
        points: 40,
        start: YEAR_START + 7 * DAY + 3_600_000 * 5,
        step: 1_800_000,
        level: 0.0042,
        cv: 0.05,
      }),
    ],
  },
  'eight-lines': benchImage(8, 1000, true),
  'eight-lines-small': {
    ...benchImage(8, 200, false),
    width: 480,
    height: 300,
    title: 'Eight lines, small image',
  },
  'long-labels': {
    title:
      'A very long title that goes on and on about the benchmark suite, its configuration and the machine it ran on, far past the width',
    xAxis: 'date_time',
    yAxis: 'linear',
    width: 640,
    height: 400,
    measure: { name: 'Instructions', units: 'instructions retired per iteration' },
    series: Array.from({ length: 6 }, (_, i) =>
      history(
        random,
        `feature/very-long-branch-name-${i} / self-hosted-runner-with-a-long-name / crate::module::submodule::bench_${i}`,
        {
          points: 30,
          start: YEAR_START,
          step: 31 * DAY,
          level: 50_000 + i * 5000,
          cv: 0.01,
        },
      ),
    ),
  },
};

mkdirSync(dir, { recursive: true });
for (const [name, input] of Object.entries(samples)) {
  const image = parsePlotImageInput(input);
  writeFileSync(join(dir, `${name}.svg`), buildPlotSvg(image));
  writeFileSync(join(dir, `${name}.png`), await rasterizePlot(buildPlotLayers(image)));
  process.stderr.write(`wrote ${join(dir, `${name}.png`)}\n`);
}
