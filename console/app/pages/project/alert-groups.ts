import type { AlertJson } from '../../api/types.js';
import { formatPercent, percentOf } from '../../lib/format.js';

/** The dimensions alerts can be filtered by, as URL parameters of the alerts page. */
export const ALERT_FILTERS = ['branch', 'testbed', 'benchmark', 'measure'] as const;
export type AlertFilter = (typeof ALERT_FILTERS)[number];
export type AlertFilters = Partial<Record<AlertFilter, string>>;

export function dimensionOf(alert: AlertJson, kind: AlertFilter): { uuid: string; name: string } {
  if (kind === 'branch') return alert.threshold.branch;
  if (kind === 'testbed') return alert.threshold.testbed;
  return alert[kind];
}

/** The alerts of one series (branch, testbed, benchmark, measure), the most recent run first. */
export interface AlertGroup {
  readonly key: string;
  readonly alerts: readonly AlertJson[];
  readonly active: number;
}

/** One group per series: series with active alerts first, then by their most recent run. */
export function groupAlerts(alerts: readonly AlertJson[]): AlertGroup[] {
  const groups = new Map<string, AlertJson[]>();
  for (const alert of alerts) {
    const key = ALERT_FILTERS.map((k) => dimensionOf(alert, k).uuid).join('.');
    groups.set(key, [...(groups.get(key) ?? []), alert]);
  }
  const ran = (a: AlertJson) => Date.parse(a.start_time);
  return [...groups.entries()]
    .map(([key, list]) => ({
      key,
      alerts: list.sort((a, b) => ran(b) - ran(a)),
      active: list.filter((a) => a.status === 'active').length,
    }))
    .sort((a, b) => Number(b.active > 0) - Number(a.active > 0) || ran(b.alerts[0]!) - ran(a.alerts[0]!));
}

/**
 * How far the value is from the baseline, in percent of the baseline ("+29.1 %"): the figure people triage by,
 * and the one the CLI prints ("+29.08% from baseline").
 */
export function fromBaseline(alert: AlertJson): string {
  return formatPercent(percentOf(alert.metric.value, alert.boundary.baseline));
}

/** How far the value went past its limit, in percent of the limit ("+52.1 %"). */
export function pastLimit(alert: AlertJson): string {
  const limit = alert.limit === 'upper' ? alert.boundary.upper_limit : alert.boundary.lower_limit;
  return formatPercent(percentOf(alert.metric.value, limit));
}
