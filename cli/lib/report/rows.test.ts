import { describe, expect, it } from 'vitest';
import { formatChange, formatFigure, measureLabel } from './rows.js';

describe('report figures', () => {
  it('shows six significant digits with separators, exponents for the very large and small', () => {
    expect(formatFigure(1234567.891)).toBe('1,234,570');
    expect(formatFigure(0.1 + 0.2)).toBe('0.3');
    expect(formatFigure(12.5)).toBe('12.5');
    expect(formatFigure(2e-7)).toBe('2.000e-7');
    expect(formatFigure(0)).toBe('0');
    expect(formatFigure(null)).toBe('');
  });

  it('signs percent changes and leaves them out without a baseline', () => {
    expect(formatChange(12.345)).toBe('+12.35%');
    expect(formatChange(-0.5)).toBe('-0.50%');
    expect(formatChange(null)).toBe('');
  });

  it('labels a measure with the short form of its units', () => {
    expect(measureLabel({ name: 'Latency', units: 'nanoseconds (ns)' })).toBe('Latency (ns)');
    expect(measureLabel({ name: 'Peak memory', units: 'bytes (B)' })).toBe('Peak memory (B)');
    expect(measureLabel({ name: 'Score', units: 'points' })).toBe('Score (points)');
  });
});
