/** How the console writes dates, numbers and hashes. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDateTime(iso: string | number | Date): string {
  return dateTime.format(new Date(iso));
}

export function formatDate(iso: string | number | Date): string {
  return dateOnly.format(new Date(iso));
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e9 || abs < 1e-3)) return value.toExponential(3);
  return value.toLocaleString(undefined, { maximumSignificantDigits: 6 });
}

/** A signed change in percent ("+12.3 %", "−0.4 %"), or '—' when there is none. */
export function formatPercent(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return '—';
  const text = Math.abs(percent).toLocaleString(undefined, { maximumFractionDigits: 1 });
  return `${percent >= 0 ? '+' : '−'}${text} %`;
}

/** How far `value` is from `reference`, in percent of the reference. */
export function percentOf(value: number, reference: number | null | undefined): number | null {
  return reference === null || reference === undefined || reference === 0
    ? null
    : ((value - reference) / Math.abs(reference)) * 100;
}

export function shortHash(hash: string | null | undefined): string {
  return hash ? hash.slice(0, 7) : '—';
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** Seconds as the largest whole unit ("30 days", "6 hours"). */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86_400 * 365, 'year'],
    [86_400 * 7, 'week'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) return plural(seconds / size, name);
  }
  return plural(seconds, 'second');
}

/** How long ago, for what changes by the second (a runner's last heartbeat): "12 s ago", then minutes, then the date. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return formatDateTime(iso);
}
