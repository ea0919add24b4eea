import { describe, expect, it } from 'vitest';
import { IGNORE_SUFFIXES, stripIgnoreSuffix } from './ignore.js';

describe('stripIgnoreSuffix', () => {
  it.each([
    ['parse_benchtrack_ignore', 'parse'],
    ['ParseBenchtrackIgnore', 'Parse'],
    ['parse-benchtrack-ignore', 'parse'],
    ['a::b/c_benchtrack_ignore', 'a::b/c'],
  ])('strips the suffix of %s', (name, stripped) => {
    expect(stripIgnoreSuffix(name)).toEqual({ name: stripped, ignored: true });
  });

  it.each([
    'parse',
    'parse_benchtrack_ignore_not',
    'parse_Benchtrack_Ignore',
    'parsebenchtrackignore',
    'parse_bencher_ignore',
  ])('keeps %s as it is', (name) => {
    expect(stripIgnoreSuffix(name)).toEqual({ name, ignored: false });
  });

  it('strips one suffix only', () => {
    expect(stripIgnoreSuffix('x_benchtrack_ignore_benchtrack_ignore')).toEqual({
      name: 'x_benchtrack_ignore',
      ignored: true,
    });
  });

  it('keeps a name that is nothing but a suffix, since stripping would leave it empty', () => {
    for (const suffix of IGNORE_SUFFIXES) {
      expect(stripIgnoreSuffix(suffix)).toEqual({ name: suffix, ignored: false });
    }
  });
});
