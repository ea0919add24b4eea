import { availableParallelism, loadavg } from 'node:os';
import { pino } from 'pino';
import { parsePlotImageInput, type PlotImageInput } from '../core/index.js';
import { renderPlotImage } from '../workers/render-image.js';
import { WorkerPool } from '../workers/pool.js';
import { renderImageBytes } from '../workers/tasks/plot-image.js';
import { rasterize, rasterizePlot } from '../workers/tasks/render/rasterize.js';
import { buildPlotLayers, buildPlotSvg } from '../workers/tasks/render/svg.js';
import { summarize, time, type Timing } from './lib/measure.js';
import { benchImage, copyImage } from './lib/plot-data.js';
import { BenchReport, formatNumber } from './lib/report.js';

/**
 * Plot images (aim: a PNG of 8 lines x 1,000 points under 100 ms uncached). Seeded
 * data: 8 series of 1,000 noisy points over a year (3% noise, occasional slow outliers, one step change), 1200 x
 * 600 pixels; once lines only, once with boundary bands, limit lines and alert markers. Each image is timed
 * through the worker pool (one warm thread; the time includes moving the input there and the PNG back), inline on
 * the main thread, and split into building the layers (the SVG under the lines, the lines' pixel chains) and
 * rasterizing them (sharp for the layers, stroke.ts for the lines, sharp's PNG encoding); `svg` is the SVG format's
 * whole document. The reference, in the same run: librsvg rasterizing that whole document, lines included (the
 * PNG path until 2026-11-27), timed on the same already-built SVG as `rasterize` is on the already-built layers.
 *
 * `npm run bench -- plot-image`, 2-vCPU VM, Node 20.20, sharp 0.35.5 (libvips 8.18.7, librsvg 2.63.2, cairo
 * 1.18.6), while other work kept the load average at 2.4-2.9 (so each figure is a shared core's), four runs,
 * p50 / p99 in ms:
 *   8 x 1,000, lines only:      pool 87-102 / 155-216, inline 96-125 / 104-241; SVG 8-10 / 11-22,
 *                               rasterize (incl. PNG encoding) 86-109 / 108-232; 0.72x-0.88x of one path per line.
 *   8 x 1,000 with limits and   pool 143-170 / 184-236, inline 139-158 / 162-202; SVG 13-25 / 26-45,
 *   about 100 alert markers:    rasterize 117-143 / 132-191; 0.92x-1.15x of one path per line.
 * Lines only are at the 100 ms aim at p50 on this shared machine (87-102 ms), not at p99. Where the time goes
 * (raw rasterizing, same SVG, measured apart): stroking the 8,000 anti-aliased segments 55-65 ms, text 12-15 ms,
 * PNG encoding at zlib level 3 about 10 ms (level 6: 23-30 ms), building the SVG 3-5 ms unloaded; bands, limit
 * lines and markers add about 30, 25 and 15 ms.
 *
 * 2026-11-24, same machine shared with other engineers, before and after bevel joins and butt caps on the lines
 * (commit 58d4575), p50 / p99 in ms:
 *   before, 10:47 UTC, load 4.8-5.5:   lines only pool 112 / 296, inline 76 / 163, SVG 18 / 39, rasterize 67 / 145
 *                                      (0.84x of one path per line); with limits pool 177 / 415, rasterize 139 / 315.
 *   after, 11:14 UTC, load 11.1-12.4:  lines only pool 127 / 460, inline 146 / 357, SVG 14 / 33, rasterize 86 / 240
 *                                      (1.03x of one path per line); with limits pool 142 / 365, rasterize 281 / 586.
 * At these loads the runs compare badly; the join change was measured interleaved on one SVG instead (raw
 * rasterizing, CPU per image p50, load 6-7): round 44.1 / 58.2 ms against bevel 41.1 / 51.4 ms in runs of 30 and
 * 60 rounds; bevel joins with round caps 44.6 ms (no gain), miter joins 42.2 ms (same as bevel, but a miter tip
 * reaches past a spike's point). Lines stroke 30-35 ms of the raw rasterizing (the SVG without them 11 ms at the
 * minimum against 43 ms), text about 4 ms, an empty 1200 x 600 SVG 4 ms.
 *
 * 2026-11-27, same machine shared with three other engineers, before and after the PNG path drew its lines in
 * JavaScript (main d312f4a, then commit 81d1fdf), p50 / p99 in ms:
 *   before, 07:10 UTC, load 10.5:  lines only pool 142 / 240, inline 141 / 205, SVG 26 / 44, rasterize 161 / 364;
 *                                  with limits pool 347 / 766, rasterize 254 / 430.
 *   after, 08:13 UTC, load 9.3:    lines only pool 96 / 409, inline 79 / 198, layers 7.9 / 13, rasterize 74 / 147
 *                                  (0.48x of librsvg rasterizing the whole SVG); with limits pool 226 / 390,
 *                                  layers 74 / 160, rasterize 194 / 553 (0.67x).
 *   limit lines in JavaScript too, 08:45 UTC, commit 2c715d5, load 11.1-14.4: lines only pool 134 / 273,
 *                                  inline 76 / 188, rasterize 91 / 368 (0.49x); with limits pool 122 / 274,
 *                                  inline 95 / 191, rasterize 114 / 524 (0.57x).
 * Stages and the comparisons behind them: docs/performance.md, "The PNG's lines drawn in JavaScript".
 *
 * 2026-11-27 10:44 UTC, commit ef4f0fa, no other jobs (load average 3.4-4.7 with the perf and console benches just
 * before): lines only pool 43.0 / 50.9, inline 41.6 / 55.4, layers 7.6 / 11.3, rasterize 35.4 / 45.2 (0.46x of
 * librsvg); with limits pool 80.2 / 102.4, inline 66.8 / 101.4, layers 19.4 / 20.6, rasterize 57.8 / 65.7 (0.52x).
 */
const ITERATIONS = 40;
const WARMUP = 4;

const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), {
  minThreads: 1,
  maxThreads: 1,
});

interface Figures {
  readonly pool: Timing;
  readonly inline: Timing;
  readonly svg: Timing;
  readonly layers: Timing;
  readonly rasterize: Timing;
  readonly librsvg: Timing;
}

async function measure(input: PlotImageInput): Promise<Figures> {
  // each pool run detaches the buffers it moves: copies made up front keep the copying out of the timing
  const copies = Array.from({ length: ITERATIONS + WARMUP }, () => copyImage(input));
  const options = { iterations: ITERATIONS, warmup: WARMUP };
  const pooled = await time(() => renderPlotImage(pool, copies.pop() as PlotImageInput), options);
  const inline = await time(() => renderImageBytes(input), options);
  const image = parsePlotImageInput(input);
  const svg = buildPlotSvg(image);
  const layers = buildPlotLayers(image);
  // the PNG path and its reference alternate, so a change in the machine's load weighs on both alike
  const drawn: number[] = [];
  const reference: number[] = [];
  const steps: [number[], () => Promise<unknown>][] = [
    [drawn, () => rasterizePlot(layers)],
    [reference, () => rasterize(svg)],
  ];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const [out, fn] of i % 2 ? steps : [...steps].reverse()) {
      const started = performance.now();
      await fn();
      if (i >= WARMUP) out.push(performance.now() - started);
    }
  }
  return {
    pool: pooled,
    inline,
    svg: await time(() => buildPlotSvg(parsePlotImageInput(input)), options),
    layers: await time(() => buildPlotLayers(parsePlotImageInput(input)), options),
    rasterize: summarize(drawn),
    librsvg: summarize(reference),
  };
}

const cases: [string, PlotImageInput][] = [
  ['8x1000', benchImage(8, 1000, false)],
  ['8x1000_limits', benchImage(8, 1000, true)],
];
const results: [string, Figures][] = [];
for (const [name, input] of cases) results.push([name, await measure(input)]);
await pool.close();

const report = new BenchReport(
  `plot images: 1200 x 600 PNG, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)}`,
);
const ms = (t: Timing) => `p50 ${formatNumber(t.p50Ms)} ms, p99 ${formatNumber(t.p99Ms)} ms`;
for (const [name, figures] of results) {
  for (const part of ['pool', 'inline', 'svg', 'layers', 'rasterize'] as const) {
    const t = figures[part];
    report.add(
      `plot_image/${name}/${part}`,
      'latency',
      { value: t.p50Ms * 1e6, upper_value: t.p99Ms * 1e6 },
      ms(t),
    );
  }
  report.ratio(
    `plot_image/${name}/rasterize`,
    'librsvg rasterizing the whole SVG',
    figures.rasterize.p50Ms,
    figures.librsvg.p50Ms,
  );
}
report.print();
