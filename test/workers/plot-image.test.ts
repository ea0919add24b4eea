import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { errorName, type PlotImageInput } from '../../core/index.js';
import { benchImage, copyImage } from '../../bench/lib/plot-data.js';
import { renderPlotImage } from '../../workers/render-image.js';
import { WorkerPool } from '../../workers/pool.js';
import { renderImageBytes } from '../../workers/tasks/plot-image.js';
import { FONT_FAMILY } from '../../workers/tasks/render/svg.js';

const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), { maxThreads: 2 });
afterAll(() => pool.close());

const run = promisify(execFile);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the PNG header: the IHDR chunk is always first, right after the signature. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect(String.fromCharCode(...png.subarray(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const small = (): PlotImageInput => ({
  title: 'Sort <T> & "friends"',
  width: 640,
  height: 360,
  xAxis: 'date_time',
  yAxis: 'auto',
  measure: { name: 'Latency', units: 'nanoseconds (ns)' },
  series: [
    {
      label: `feature/<simd> & 'fast' / \u0007bell / sort`,
      x: Float64Array.from({ length: 50 }, (_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000),
      y: Float64Array.from({ length: 50 }, (_, i) => 100 + (i % 7)),
    },
  ],
});

describe('plot-image task', () => {
  it('renders a PNG of the requested size in a worker, moving the input there', async () => {
    const input = small();
    const x = input.series[0]?.x as Float64Array;
    const png = await renderPlotImage(pool, input);
    expect(png).toBeInstanceOf(Uint8Array);
    expect(pngSize(png)).toEqual({ width: 640, height: 360 });
    expect(x.byteLength).toBe(0);
    const metadata = await sharp(png).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 640, height: 360 });
  });

  it('uses the default size of 1200 x 600', async () => {
    const { width: _w, height: _h, ...rest } = small();
    expect(pngSize(await renderPlotImage(pool, rest))).toEqual({ width: 1200, height: 600 });
  });

  it('gives the same bytes for the same input, in a worker or inline', async () => {
    const input = benchImage(8, 1000, true);
    const first = await renderPlotImage(pool, copyImage(input));
    const second = await renderPlotImage(pool, copyImage(input));
    const inline = await renderImageBytes(copyImage(input));
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    expect(Buffer.from(first).equals(Buffer.from(inline))).toBe(true);
  });

  it('renders an empty selection as a valid PNG that differs from a plot with data', async () => {
    const empty = { ...small(), series: [{ label: 'none', x: new Float64Array(0), y: new Float64Array(0) }] };
    const png = await renderPlotImage(pool, empty);
    expect(pngSize(png)).toEqual({ width: 640, height: 360 });
    expect(Buffer.from(png).equals(Buffer.from(await renderPlotImage(pool, small())))).toBe(false);
  });

  it('renders again in a new thread after an idle worker that loaded sharp has exited', async () => {
    // sharp is a native addon, and the API's main thread never loads it: run in a process of its own where only
    // workers do, let the first worker time out, and render in a second one
    const script = `
      const { pino } = await import('pino');
      const { WorkerPool } = await import(new URL('workers/pool.ts', process.env.ROOT).href);
      const { renderPlotImage } = await import(new URL('workers/render-image.ts', process.env.ROOT).href);
      const input = () => ({ xAxis: 'version', yAxis: 'auto', measure: { name: 'm', units: 'u' },
        series: [{ label: 'a', x: new Float64Array([1, 2]), y: new Float64Array([1, 2]) }] });
      const pool = new WorkerPool(pino({ level: 'silent' }), { minThreads: 0, maxThreads: 1, idleTimeout: 50 });
      const first = await renderPlotImage(pool, input());
      while (pool.threads > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await renderPlotImage(pool, input());
      await pool.close();
      process.stdout.write(JSON.stringify({ first: first.length, second: second.length }));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, ROOT: new URL('../../', import.meta.url).href },
      timeout: 60_000,
    });
    const sizes = JSON.parse(stdout) as { first: number; second: number };
    expect(sizes.first).toBeGreaterThan(1000);
    expect(sizes.second).toBe(sizes.first);
  });

  it('renders values at the limits of a double on every y axis type, in a few seconds', async () => {
    // 1e300 and 1 on an auto (log) axis padded the top decade to Infinity, and the tick loop never ended
    const cases: [PlotImageInput['yAxis'], number[]][] = [
      ['auto', [1e300, 1]],
      ['log', [1.797e308, 1]],
      ['log', [Number.MAX_VALUE, Number.MIN_VALUE]],
      ['linear', [Number.MAX_VALUE, -Number.MAX_VALUE]],
      ['linear', [1e17, 1e17 + 16]],
    ];
    for (const [yAxis, values] of cases) {
      const input: PlotImageInput = {
        ...small(),
        yAxis,
        series: [{ label: 'extreme', x: new Float64Array([1, 2]), y: Float64Array.from(values) }],
        xAxis: 'version',
      };
      expect(pngSize(await renderPlotImage(pool, input)), `${yAxis} ${values.join(', ')}`).toEqual({
        width: 640,
        height: 360,
      });
    }
  }, 20_000);

  it('rejects an invalid input with an InputError naming the field', async () => {
    const input = small();
    const series = input.series[0] as PlotImageInput['series'][number];
    const bad = { ...input, series: [{ ...series, y: new Float64Array(3) }] };
    const error = await renderPlotImage(pool, bad).catch((e: unknown) => e);
    expect(errorName(error)).toBe('InputError');
    expect((error as Error).message).toContain('series[0].y: must have as many entries as x (50), got 3');
  });
});

describe('fonts', () => {
  it('has DejaVu Sans installed, which every plot image names', () => {
    let families: string;
    try {
      families = execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' });
    } catch (error) {
      throw new Error(
        `fc-list failed (${(error as Error).message}): install fontconfig and fonts-dejavu-core (apt-get install -y fonts-dejavu-core)`,
        { cause: error },
      );
    }
    if (!families.split('\n').some((line) => line.split(',').includes(FONT_FAMILY))) {
      throw new Error(
        `the font "${FONT_FAMILY}" is missing, so plot image text would render as boxes: install fonts-dejavu-core (apt-get install -y fonts-dejavu-core)`,
      );
    }
  });

  it('draws glyphs, not boxes: narrow and wide letters get different widths', async () => {
    // a missing glyph is drawn as a box of one fixed width, whatever the letter
    const inked = async (text: string) => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="40"><rect width="600" height="40" fill="#fff"/><text x="10" y="28" font-family="${FONT_FAMILY}" font-size="20">${text}</text></svg>`;
      const { info } = await sharp(Buffer.from(svg))
        .trim({ threshold: 10 })
        .toBuffer({ resolveWithObject: true });
      return info.width;
    };
    const narrow = await inked('iiiiiiiiii');
    const wide = await inked('WWWWWWWWWW');
    expect(
      wide / narrow,
      `"W" and "i" render the same width: text renders as boxes; install fonts-dejavu-core (apt-get install -y fonts-dejavu-core)`,
    ).toBeGreaterThan(2.5);
  });
});
