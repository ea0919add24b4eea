import { describe, expect, it } from 'vitest';
import { alertLimit } from './alert.js';

describe('alertLimit', () => {
  const both = { lower_limit: 90, upper_limit: 110 };

  it('raises a lower alert strictly below the lower limit and an upper alert strictly above the upper', () => {
    expect(alertLimit(89.999, both)).toBe('lower');
    expect(alertLimit(110.001, both)).toBe('upper');
    expect(alertLimit(100, both)).toBeNull();
  });

  it('never alerts on equality', () => {
    expect(alertLimit(90, both)).toBeNull();
    expect(alertLimit(110, both)).toBeNull();
    expect(alertLimit(5, { lower_limit: 5, upper_limit: 5 })).toBeNull();
  });

  it('tests only the sides that exist', () => {
    expect(alertLimit(-1e9, { lower_limit: null, upper_limit: 110 })).toBeNull();
    expect(alertLimit(1e9, { lower_limit: 90, upper_limit: null })).toBeNull();
    expect(alertLimit(1e9, { lower_limit: null, upper_limit: null })).toBeNull();
  });

  it('checks the lower limit first when limits cross', () => {
    expect(alertLimit(100, { lower_limit: 105, upper_limit: 95 })).toBe('lower');
  });

  it('does not alert on a non-finite value', () => {
    expect(alertLimit(Number.NaN, both)).toBeNull();
  });
});
