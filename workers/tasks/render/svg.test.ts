import { describe, expect, it } from 'vitest';
import { parsePlotImageInput, type PlotImageInput } from '../../../core/index.js';
import { LIGHT } from './palette.js';
import { axisTitle, buildPlotSvg, FONT_FAMILY, NO_DATA_MESSAGE } from './svg.js';

const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);

function series(label: string, values: number[], extra: Partial<PlotImageInput['series'][number]> = {}) {
  return {
    label,
    x: Float64Array.from(values, (_, i) => START + i * DAY),
    y: Float64Array.from(values),
    ...extra,
  };
}

function svgOf(input: Partial<PlotImageInput>): string {
  return buildPlotSvg(
    parsePlotImageInput({
      xAxis: 'date_time',
      yAxis: 'auto',
      measure: { name: 'Latency', units: 'nanoseconds (ns)' },
      series: [],
      ...input,
    }),
  );
}

/** The text content of every <text> element. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

describe('buildPlotSvg', () => {
  it('declares its size and the DejaVu Sans font family on the root element', () => {
    const svg = svgOf({ width: 800, height: 400, series: [series('a', [1, 2, 3])] });
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="400" viewBox="0 0 800 400"/,
    );
    expect(FONT_FAMILY).toBe('DejaVu Sans');
    expect(svg).toContain('font-family="DejaVu Sans"');
    expect(svg).not.toMatch(/font-family="(?!DejaVu Sans")/);
  });

  it('shows the title, the y axis title with units, the legend labels and time tick labels', () => {
    const svg = svgOf({ title: 'Parser', series: [series('main / linux / parse', [5, 6, 7, 6, 5])] });
    const shown = texts(svg);
    expect(shown).toContain('Parser');
    expect(shown).toContain('Latency (nanoseconds (ns))');
    expect(shown).toContain('main / linux / parse');
    // four days on 1,100 pixels: ticks every 12 hours, the date under each midnight
    expect(shown).toEqual(
      expect.arrayContaining(['00:00', '12:00', 'Jan 1, 2024', 'Jan 2, 2024', 'Time (UTC)']),
    );
  });

  it('says once, under the title, the label parts every series shares', () => {
    const shown = texts(
      svgOf({
        title: 'T',
        series: [series('main / linux / parse', [1, 2]), series('main / linux / sort', [2, 1])],
      }),
    );
    expect(shown).toEqual(expect.arrayContaining(['T', 'main / linux', 'parse', 'sort']));
    expect(shown).not.toContain('main / linux / parse');
  });

  it('escapes every name it draws', () => {
    const nasty = `<script>&"x"'y'`;
    const svg = svgOf({
      title: nasty,
      measure: { name: nasty, units: '<u>' },
      series: [series(nasty, [1, 2])],
    });
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<u>');
    expect(svg).toContain('&lt;script&gt;&amp;&quot;x&quot;&apos;y&apos;');
    expect(
      svg.match(/<[^>]*>/g)?.every((tag) => /^<\/?[a-z]+( [a-zA-Z-]+="[^"&<>]*")*\s*\/?>$/.test(tag)),
    ).toBe(true);
  });

  it('draws a centered message, the title and the legend when there is no data', () => {
    const svg = svgOf({ title: 'Nothing', series: [series('main / linux / none', [])] });
    const shown = texts(svg);
    expect(shown).toContain(NO_DATA_MESSAGE);
    expect(shown).toContain('Nothing');
    expect(shown).toContain('main / linux / none');
    expect(svg).not.toContain('stroke-linejoin');
    expect(texts(svgOf({ series: [] }))).toContain(NO_DATA_MESSAGE);
  });

  it('treats a selection of only NaN and infinite values as empty', () => {
    const svg = svgOf({
      series: [series('a', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])],
    });
    expect(texts(svg)).toContain(NO_DATA_MESSAGE);
  });

  it('skips NaN and infinite points and draws the rest', () => {
    const svg = svgOf({ series: [series('a', [1, Number.NaN, 5, Number.POSITIVE_INFINITY, 2])] });
    expect(texts(svg)).not.toContain(NO_DATA_MESSAGE);
    expect(svg).not.toMatch(/NaN|Infinity/);
    const line = svg.match(/<g stroke="#0072B2"><path d="M([^"]*)"\/><\/g>/)?.[1] ?? '';
    expect(line.split(' ')).toHaveLength(3);
  });

  it('puts a dot on every point of a sparse series, even points on a straight stretch', () => {
    const svg = svgOf({ series: [series('a', [1, 2, 3, 4, 5, 4])] });
    expect(svg.match(/r="2.5"/g)).toHaveLength(6);
    const dense = svgOf({
      series: [
        series(
          'a',
          Array.from({ length: 1000 }, (_, i) => i % 7),
        ),
      ],
    });
    expect(dense).not.toContain('r="2.5"');
  });

  it('switches auto to a log axis for data spanning three orders of magnitude, all positive', () => {
    const wide = texts(svgOf({ series: [series('a', [10, 100, 1000, 10_000, 100_000])] }));
    expect(wide).toEqual(expect.arrayContaining(['10', '100', '1k', '10k', '100k']));
    const withZero = texts(svgOf({ series: [series('a', [0, 100, 1000, 10_000, 100_000])] }));
    expect(withZero).toEqual(expect.arrayContaining(['0', '20k', '40k', '60k', '80k', '100k']));
    const forced = texts(svgOf({ yAxis: 'log', series: [series('a', [3, 30, 300])] }));
    expect(forced).toEqual(expect.arrayContaining(['10', '100']));
  });

  it('draws values at the limits of a double with finite coordinates and readable labels', () => {
    for (const [yAxis, values] of [
      ['auto', [1e300, 1]],
      ['log', [1.797e308, 1]],
      ['linear', [Number.MAX_VALUE, -Number.MAX_VALUE]],
    ] as const) {
      const svg = svgOf({ yAxis, series: [series('a', [...values])] });
      expect(svg, `${yAxis} ${values.join(', ')}`).not.toMatch(/NaN|Infinity|e\+/);
      expect(texts(svg).some((text) => /^-?\d(\.\d+)?e(29|30)\d$/.test(text ?? ''))).toBe(true);
    }
  });

  it('gives each of eight series its own color', () => {
    const svg = svgOf({ series: LIGHT.series.map((_, i) => series(`s${i}`, [i, i + 1, i])) });
    for (const color of LIGHT.series) expect(svg).toContain(`<g stroke="${color}">`);
    expect(new Set(LIGHT.series).size).toBe(8);
  });

  it('draws the boundary band, limit lines and alert markers, and explains them in the legend', () => {
    const lower = Float64Array.from([Number.NaN, 4, 4, 4]);
    const upper = Float64Array.from([Number.NaN, 6, 6, 6]);
    const alert = Uint8Array.from([0, 0, 0, 1]);
    const svg = svgOf({ series: [series('a', [5, 5, 5, 9], { lower, upper, alert })] });
    expect(svg).toContain('fill-opacity="0.13"');
    expect(svg).toContain('stroke-dasharray="5 4"');
    expect(svg.match(/r="6"/g)).toHaveLength(2);
    expect(texts(svg)).toEqual(expect.arrayContaining(['Boundary limits', 'Alert']));
    expect(texts(svgOf({ series: [series('a', [5, 5])] }))).not.toContain('Alert');
  });

  it('labels a version axis with whole versions', () => {
    const svg = svgOf({
      xAxis: 'version',
      series: [{ label: 'v', x: Float64Array.from([3, 4, 5, 6, 7]), y: Float64Array.from([1, 2, 3, 2, 1]) }],
    });
    const shown = texts(svg);
    expect(shown).toContain('Branch version');
    expect(shown).toEqual(expect.arrayContaining(['3', '4', '5', '6', '7']));
    expect(shown).not.toContain('4.5');
  });

  it('spans the requested x range and leaves out points outside it', () => {
    const svg = svgOf({
      xRange: { start: START + DAY, end: START + 31 * DAY },
      series: [series('a', [100, 1, 1, 1])],
    });
    expect(texts(svg)).not.toContain('100');
    expect(texts(svg)).toContain('Jan 29');
  });

  it('sorts points that arrive out of order', () => {
    const x = Float64Array.from([START + 2 * DAY, START, START + DAY]);
    const svg = svgOf({ series: [{ label: 'a', x, y: Float64Array.from([3, 1, 2]) }] });
    const sorted = svgOf({ series: [{ label: 'a', x: x.slice().sort(), y: Float64Array.from([1, 2, 3]) }] });
    expect(svg).toBe(sorted);
  });

  it('shortens a long title and long legend labels to fit', () => {
    const long = 'x'.repeat(250);
    const shown = texts(svgOf({ width: 400, title: long, series: [series(`${long}/bench_1`, [1, 2])] }));
    expect(shown.some((t) => t?.endsWith('…') && t.length < 100)).toBe(true);
    expect(shown.some((t) => t?.includes('…') && t.endsWith('bench_1'))).toBe(true);
  });

  it("adds each line's change from its baseline to the legend where every label still fits whole", () => {
    const lines = [
      series('main / linux / parse', [1, 2], { change: 29.0812 }),
      series('main / linux / sort', [2, 1], { change: -1.5 }),
      series('main / linux / scan', [2, 2]),
    ];
    expect(texts(svgOf({ width: 1200, series: lines }))).toEqual(
      expect.arrayContaining(['parse  +29.08%', 'sort  -1.50%', 'scan']),
    );
    // too narrow for the figures beside whole labels: the labels alone, as without them
    const long = lines.map((l, i) => ({
      ...l,
      label: `main / linux / ${'very_long_benchmark_name_'.repeat(2)}${i}`,
    }));
    const narrow = texts(svgOf({ width: 320, series: long }));
    expect(narrow.filter((t) => t?.includes('%'))).toEqual([]);
    expect(narrow).toEqual(texts(svgOf({ width: 320, series: long.map(({ change: _, ...l }) => l) })));
  });

  it('is deterministic', () => {
    const input = { title: 't', series: [series('a', [1, 5, 2, 8, 3])] };
    expect(svgOf(input)).toBe(svgOf(input));
  });
});

describe('axisTitle', () => {
  it('puts the units in parentheses, or leaves them out when empty', () => {
    expect(axisTitle({ name: 'Latency', units: 'nanoseconds (ns)' })).toBe('Latency (nanoseconds (ns))');
    expect(axisTitle({ name: 'Score', units: ' ' })).toBe('Score');
  });
});

describe('change points', () => {
  const values = [10, 11, 10, 11, 20, 21, 20, 21];
  const changes = [{ index: 4, before: 10.5, after: 20.5 }];

  it('draw a dashed marker at the first point of the new regime and the levels before and after it', () => {
    const svg = svgOf({ series: [series('a', values, { changes })] });
    const group =
      /<g class="change-points" fill="none" stroke="([^"]+)"><path d="M([\d.]+) ([\d.]+)V([\d.]+)" stroke-width="1" stroke-dasharray="2 3"\/><path d="M([\d.]+) ([\d.]+)H([\d.]+)M([\d.]+) ([\d.]+)H([\d.]+)"/.exec(
        svg,
      );
    expect(group, svg).not.toBeNull();
    const [, , markerX, , , x0, yBefore, x1, x2, yAfter, x3] = (group as RegExpExecArray).map(Number);
    expect(group?.[1]).toBe(LIGHT.series[0]);
    // the marker and the end of "before" / start of "after" are at the 5th point; levels span their segments
    expect(x1).toBe(markerX);
    expect(x2).toBe(markerX);
    expect(x0).toBeLessThan(markerX as number);
    expect(x3).toBeGreaterThan(markerX as number);
    // screen y grows downward: the higher level is drawn above the lower one
    expect(yAfter).toBeLessThan(yBefore as number);
    expect(texts(svg)).toContain('Change point (levels before and after)');
  });

  it('are not drawn, nor in the legend, without change points', () => {
    const svg = svgOf({ series: [series('a', values)] });
    expect(svg).not.toContain('change-points');
    expect(texts(svg)).not.toContain('Change point (levels before and after)');
  });

  it('must point inside the series', () => {
    expect(() =>
      svgOf({ series: [series('a', values, { changes: [{ index: 8, before: 1, after: 2 }] })] }),
    ).toThrow('series[0].changes[0].index: must be below the number of points (8), got 8');
  });
});
