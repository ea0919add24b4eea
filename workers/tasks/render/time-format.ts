/** The calendar unit of a time axis's tick interval; it decides how tick labels read. */
export type TimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The two lines of a time tick, in UTC. `label` is as fine as the tick interval (`14:30`, `Mar 5`, `Mar`,
 * `2024`); `context` is the coarser part it leaves out (`Mar 5, 2024` under times of day, the year under days
 * and months), shown by the axis only where it changes so it is not repeated under every tick.
 */
export function formatTimeTick(ms: number, unit: TimeUnit): { label: string; context: string } {
  const date = new Date(ms);
  const year = String(date.getUTCFullYear());
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
  switch (unit) {
    case 'second':
      return { label: `${time}:${pad(date.getUTCSeconds())}`, context: `${day}, ${year}` };
    case 'minute':
    case 'hour':
      return { label: time, context: `${day}, ${year}` };
    case 'day':
    case 'week':
      return { label: day, context: year };
    case 'month':
      return { label: MONTHS[date.getUTCMonth()] as string, context: year };
    case 'year':
      return { label: year, context: '' };
  }
}

/** Widest labels of each unit in DejaVu Sans, for spacing ticks before any is formatted. */
export const WIDEST_LABEL: Readonly<Record<TimeUnit, { label: string; context: string }>> = {
  second: { label: '00:00:00', context: 'May 30, 2000' },
  minute: { label: '00:00', context: 'May 30, 2000' },
  hour: { label: '00:00', context: 'May 30, 2000' },
  day: { label: 'May 30', context: '2000' },
  week: { label: 'May 30', context: '2000' },
  month: { label: 'May', context: '2000' },
  year: { label: '2000', context: '' },
};

/** The x axis title of a time axis: UTC said once, so no label needs a zone. */
export function timeAxisTitle(unit: TimeUnit): string {
  return unit === 'second' || unit === 'minute' || unit === 'hour' ? 'Time (UTC)' : 'Date (UTC)';
}
