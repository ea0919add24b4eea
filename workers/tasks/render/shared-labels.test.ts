import { describe, expect, it } from 'vitest';
import { ELLIPSIS, textWidth } from './text-width.js';
import { shortenLabel, splitSharedParts } from './shared-labels.js';

describe('splitSharedParts', () => {
  it('says the branch and testbed once when every series shares them', () => {
    expect(splitSharedParts(['main / linux / parse', 'main / linux / sort'])).toEqual({
      shared: 'main / linux',
      distinct: ['parse', 'sort'],
    });
  });

  it('keeps the differing parts in order wherever the shared ones are', () => {
    expect(
      splitSharedParts(['main / linux / parse', 'feature / linux / parse', 'main / macos / parse']),
    ).toEqual({
      shared: 'parse',
      distinct: ['main / linux', 'feature / linux', 'main / macos'],
    });
  });

  it('leaves labels whole for one series, identical labels, or labels of different shapes', () => {
    expect(splitSharedParts(['main / linux / parse'])).toEqual({
      shared: '',
      distinct: ['main / linux / parse'],
    });
    expect(splitSharedParts(['a / b', 'a / b'])).toEqual({ shared: '', distinct: ['a / b', 'a / b'] });
    expect(splitSharedParts(['a / b', 'a / b / c'])).toEqual({
      shared: '',
      distinct: ['a / b', 'a / b / c'],
    });
    expect(splitSharedParts(['plain', 'other'])).toEqual({ shared: '', distinct: ['plain', 'other'] });
  });
});

describe('shortenLabel', () => {
  const label = 'feature/very-long-branch-name-7 / crate::module::submodule::bench_3';

  it('keeps the start and end of every part', () => {
    const short = shortenLabel(label, 220, 12);
    expect(textWidth(short, 12)).toBeLessThanOrEqual(220);
    const [branch = '', bench = ''] = short.split(' / ');
    expect(branch).toContain(ELLIPSIS);
    expect(branch.endsWith('-7')).toBe(true);
    expect(bench.endsWith('bench_3')).toBe(true);
  });

  it('gives a short part its full width and the rest to the long one', () => {
    const short = shortenLabel('main / crate::module::submodule::deeply::nested::bench_3', 200, 12);
    expect(short.startsWith('main / ')).toBe(true);
    expect(short.endsWith('bench_3')).toBe(true);
    expect(textWidth(short, 12)).toBeLessThanOrEqual(200);
  });

  it('returns a label that fits unchanged', () => {
    expect(shortenLabel('main / parse', 500, 12)).toBe('main / parse');
  });
});
