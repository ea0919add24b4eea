import { describe, expect, it } from 'vitest';
import { formatTimeTick, timeAxisTitle } from './time-format.js';
import { chooseInterval, isTimeRange, tickTimes, timeTicks } from './time-ticks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const utc = (...parts: [number, number, number?, number?, number?, number?]) =>
  Date.UTC(parts[0], parts[1] - 1, parts[2] ?? 1, parts[3] ?? 0, parts[4] ?? 0, parts[5] ?? 0);
const iso = (ms: number) => new Date(ms).toISOString();

describe('formatTimeTick', () => {
  const t = utc(2024, 3, 5, 14, 30, 15);
  it('labels each unit as finely as it needs, in UTC, with the coarser part as context', () => {
    expect(formatTimeTick(t, 'second')).toEqual({ label: '14:30:15', context: 'Mar 5, 2024' });
    expect(formatTimeTick(t, 'minute')).toEqual({ label: '14:30', context: 'Mar 5, 2024' });
    expect(formatTimeTick(t, 'hour')).toEqual({ label: '14:30', context: 'Mar 5, 2024' });
    expect(formatTimeTick(t, 'day')).toEqual({ label: 'Mar 5', context: '2024' });
    expect(formatTimeTick(t, 'week')).toEqual({ label: 'Mar 5', context: '2024' });
    expect(formatTimeTick(t, 'month')).toEqual({ label: 'Mar', context: '2024' });
    expect(formatTimeTick(t, 'year')).toEqual({ label: '2024', context: '' });
  });

  it('pads hours and minutes', () => {
    expect(formatTimeTick(utc(2024, 12, 31, 0, 5), 'minute').label).toBe('00:05');
  });

  it('titles the axis by whether labels show times of day', () => {
    expect(timeAxisTitle('hour')).toBe('Time (UTC)');
    expect(timeAxisTitle('month')).toBe('Date (UTC)');
  });
});

describe('chooseInterval', () => {
  it.each([
    [10 * MINUTE, 'minute'],
    [6 * HOUR, 'minute'],
    [DAY, 'hour'],
    [10 * DAY, 'day'],
    [50 * DAY, 'week'],
    [120 * DAY, 'month'],
    [365 * DAY, 'month'],
    [10 * 365 * DAY, 'year'],
    [30_000, 'second'],
  ])('shows a span of %d ms on 1000 px in %s ticks', (span, unit) => {
    expect(chooseInterval(span, 1000, 12).unit).toBe(unit);
  });

  it('spaces ticks at least a label apart, and coarser on a narrow axis', () => {
    const wide = chooseInterval(365 * DAY, 1000, 12);
    const narrow = chooseInterval(365 * DAY, 300, 12);
    expect((wide.ms / (365 * DAY)) * 1000).toBeGreaterThanOrEqual(70);
    expect(narrow.ms).toBeGreaterThan(wide.ms);
  });
});

describe('tickTimes', () => {
  it('puts hour ticks on round UTC hours', () => {
    const ticks = tickTimes(utc(2024, 1, 1, 5, 17), utc(2024, 1, 1, 11), {
      unit: 'hour',
      step: 3,
      ms: 3 * HOUR,
    });
    expect(ticks.map(iso)).toEqual(['2024-01-01T06:00:00.000Z', '2024-01-01T09:00:00.000Z']);
  });

  it('counts days within each month, skipping a 31st that would crowd the 1st', () => {
    const ticks = tickTimes(utc(2024, 1, 26), utc(2024, 2, 4), { unit: 'day', step: 2, ms: 2 * DAY });
    expect(ticks.map((t) => new Date(t).getUTCDate())).toEqual([27, 29, 1, 3]);
  });

  it('puts week ticks on Mondays', () => {
    const ticks = tickTimes(utc(2024, 3, 1), utc(2024, 3, 31), { unit: 'week', step: 1, ms: 7 * DAY });
    expect(ticks.map((t) => new Date(t).getUTCDay())).toEqual([1, 1, 1, 1]);
    expect(iso(ticks[0] as number)).toBe('2024-03-04T00:00:00.000Z');
  });

  it('puts month and year ticks on the first of the month', () => {
    const quarters = tickTimes(utc(2023, 11, 15), utc(2024, 8, 1), { unit: 'month', step: 3, ms: 90 * DAY });
    expect(quarters.map(iso)).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2024-04-01T00:00:00.000Z',
      '2024-07-01T00:00:00.000Z',
    ]);
    const years = tickTimes(utc(2011, 6, 1), utc(2031, 1, 1), { unit: 'year', step: 5, ms: 5 * 365 * DAY });
    expect(years.map((t) => new Date(t).getUTCFullYear())).toEqual([2015, 2020, 2025, 2030]);
  });
});

describe('timeTicks', () => {
  it('shows the context line on the first tick and where it changes only', () => {
    const { ticks, domain } = timeTicks(utc(2023, 12, 20), utc(2024, 1, 20), 1000, 12);
    expect(domain).toEqual([utc(2023, 12, 20), utc(2024, 1, 20)]);
    const contexts = ticks.filter((t) => t.context !== undefined);
    expect(contexts.map((t) => t.context)).toEqual(['2023', '2024']);
    expect(ticks[0]?.context).toBe('2023');
  });

  it('labels a year of data by month with the year under January', () => {
    const { ticks, unit } = timeTicks(utc(2024, 1, 1), utc(2024, 12, 31), 1000, 12);
    expect(unit).toBe('month');
    expect(ticks.map((t) => t.label)).toEqual([
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
    expect(ticks[0]?.context).toBe('2024');
    expect(ticks.slice(1).every((t) => t.context === undefined)).toBe(true);
  });

  it('keeps ticks inside the domain, which is not widened', () => {
    const min = utc(2024, 5, 3, 7, 12);
    const max = utc(2024, 5, 3, 9, 48);
    const { ticks } = timeTicks(min, max, 800, 12);
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks.every((t) => t.value >= min && t.value <= max)).toBe(true);
  });
});

describe('isTimeRange', () => {
  it('accepts what a Date can show', () => {
    expect(isTimeRange(0, Date.now())).toBe(true);
    expect(isTimeRange(-1e16, 0)).toBe(false);
    expect(isTimeRange(0, Number.POSITIVE_INFINITY)).toBe(false);
  });
});
