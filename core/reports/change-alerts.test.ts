import { describe, expect, it } from 'vitest';
import { newlyConfirmed } from './change-alerts.js';

describe('newlyConfirmed', () => {
  it('needs two values from a change point on, in the answers with and without the new value', () => {
    expect(newlyConfirmed([], [28], 30, [])).toEqual([]);
    expect(newlyConfirmed([29], [29], 30, [])).toEqual([]);
    expect(newlyConfirmed([28], [29], 30, [])).toEqual([0]);
    expect(newlyConfirmed([28], [30], 30, [])).toEqual([]);
  });

  it('follows a point that moves by up to 3 between the two answers', () => {
    expect(newlyConfirmed([20], [23, 10], 30, [])).toEqual([0]);
    expect(newlyConfirmed([20], [24], 30, [])).toEqual([]);
  });

  it('confirms a point once: not again near an alerted one', () => {
    expect(newlyConfirmed([20], [20], 30, [17])).toEqual([]);
    expect(newlyConfirmed([20, 5], [20, 5], 30, [2])).toEqual([0]);
    expect(newlyConfirmed([20, 5], [20, 5], 30, [1])).toEqual([0, 1]);
  });
});
