import { describe, expect, it } from 'vitest';
import {
  explorerHref,
  explorerQuery,
  hiddenIndices,
  hiddenKeys,
  parseSelection,
  perfQuery,
  permutations,
  selectionQuery,
  timeBounds,
} from './selection.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('explorer selection in the URL', () => {
  it('reads every parameter and writes it back the same', () => {
    const text = `branches=${A}&testbeds=${B}&benchmarks=${A},${B}&measures=${A}&range=30d&x_axis=version&y_axis=log&bounds=false&changes=true&hidden=0.0.1.0&tab=measures`;
    const selection = parseSelection(new URLSearchParams(text));
    expect(selection).toMatchObject({
      branches: [A],
      testbeds: [B],
      benchmarks: [A, B],
      measures: [A],
      range: '30d',
      x_axis: 'version',
      y_axis: 'log',
      bounds: false,
      changes: true,
      hidden: ['0.0.1.0'],
      tab: 'measures',
    });
    expect(selectionQuery(selection).toString().replace(/%2C/g, ',')).toBe(text);
  });

  it('defaults to all time, dates on x, a linear y axis, boundaries shown, no change points and the benchmarks tab', () => {
    const selection = parseSelection(new URLSearchParams(''));
    expect(selection).toMatchObject({
      range: 'all',
      x_axis: 'date_time',
      y_axis: 'auto',
      bounds: true,
      changes: false,
      tab: 'benchmarks',
    });
    expect(selectionQuery(selection).toString()).toBe('');
    expect(permutations(selection)).toBe(0);
  });

  it('keeps at most two measures and ignores unknown values', () => {
    const selection = parseSelection(
      new URLSearchParams(`measures=${A},${B},${A}&x_axis=nope&hidden=-1,x,2,0.1.0.0&tab=other`),
    );
    expect(selection.measures).toEqual([A, B]);
    expect(selection.x_axis).toBe('date_time');
    expect(selection.hidden).toEqual(['0.1.0.0']);
    expect(selection.tab).toBe('benchmarks');
  });

  it('keeps hidden series by identity, whatever the answer leaves out', () => {
    const selection = parseSelection(
      new URLSearchParams(`branches=${A},${B}&testbeds=${A}&benchmarks=${A}&measures=${A}&hidden=0.0.0.0`),
    );
    const series = (branch: string) => ({
      branch: { uuid: branch },
      testbed: { uuid: A },
      benchmark: { uuid: A },
      measure: { uuid: A },
    });
    // branch A hidden; an answer without it hides nothing, and B stays the one shown
    expect(hiddenIndices(selection, [series(A), series(B)])).toEqual(new Set([0]));
    expect(hiddenIndices(selection, [series(B)])).toEqual(new Set());
    // hiding B in an answer without A keeps A hidden as well
    expect(hiddenKeys(selection, [series(B)], [0])).toEqual(['0.0.0.0', '1.0.0.0']);
    expect(hiddenKeys(selection, [series(A), series(B)], [])).toEqual([]);
  });

  it('counts permutations as the API does (branches x testbeds x benchmarks x measures)', () => {
    const selection = parseSelection(
      new URLSearchParams(`branches=${A},${B}&testbeds=${A}&benchmarks=${A},${B}&measures=${A},${B}`),
    );
    expect(permutations(selection)).toBe(8);
  });

  it('turns a relative range into a start time from now, and keeps explicit dates', () => {
    const now = Date.UTC(2026, 0, 31);
    expect(timeBounds(parseSelection(new URLSearchParams('range=7d')), now)).toEqual({
      start_time: now - 7 * 86_400_000,
    });
    expect(timeBounds(parseSelection(new URLSearchParams('start_time=5&end_time=9')), now)).toEqual({
      start_time: 5,
      end_time: 9,
    });
    expect(timeBounds(parseSelection(new URLSearchParams('')), now)).toEqual({});
  });

  it('builds the perf API query and links with readable commas', () => {
    const selection = parseSelection(
      new URLSearchParams(`branches=${A}&testbeds=${A}&benchmarks=${A},${B}&measures=${B}`),
    );
    expect(perfQuery(selection)).toEqual({ branches: A, testbeds: A, benchmarks: `${A},${B}`, measures: B });
    // the explorer asks for Arrow, or JSON without the threshold model of every point (it shows boundaries and
    // alerts only)
    expect(explorerQuery(selection, 'arrow')).toEqual({
      ...perfQuery(selection),
      format: 'arrow',
      fields: 'plot',
    });
    expect(explorerQuery(selection, 'json')).toEqual({ ...perfQuery(selection), threshold_models: 'false' });
    expect(explorerHref('/perf/p', { benchmarks: [A, B] })).toBe(`/perf/p?benchmarks=${A},${B}`);
    expect(explorerHref('/perf/p', {})).toBe('/perf/p');
  });
});
