import { describe, expect, it } from 'vitest';
import type { AlertJson } from '../../api/types.js';
import { choices, filterAlerts, groupAlerts, pastLimit } from './alert-groups.js';

const dim = (name: string) => ({ uuid: `uuid-${name}`, name });
function alert(
  benchmark: string,
  day: number,
  status: 'active' | 'dismissed' = 'active',
  branch = 'main',
): AlertJson {
  return {
    uuid: `${benchmark}-${day}-${branch}`,
    benchmark: dim(benchmark),
    measure: dim('Latency'),
    threshold: { branch: dim(branch), testbed: dim('linux') },
    start_time: new Date(Date.UTC(2026, 0, day)).toISOString(),
    status,
    limit: 'upper',
    metric: { value: 150 },
    boundary: { upper_limit: 100, lower_limit: null, baseline: 90 },
  } as unknown as AlertJson;
}

describe('alerts grouped by series', () => {
  it('makes one group per series, newest run first, series with active alerts first', () => {
    const groups = groupAlerts([
      alert('sort', 3, 'dismissed'),
      alert('parse', 1),
      alert('parse', 5),
      alert('parse', 2, 'dismissed'),
      alert('parse', 9, 'active', 'dev'),
    ]);
    expect(groups.map((g) => [g.alerts.map((a) => a.uuid), g.active])).toEqual([
      [['parse-9-dev'], 1],
      [['parse-5-main', 'parse-2-main', 'parse-1-main'], 2],
      [['sort-3-main'], 0],
    ]);
  });

  it('filters by any dimension and offers the values found, by name', () => {
    const alerts = [alert('sort', 3), alert('parse', 1), alert('parse', 9, 'active', 'dev')];
    expect(filterAlerts(alerts, { branch: 'uuid-dev' }).map((a) => a.uuid)).toEqual(['parse-9-dev']);
    expect(filterAlerts(alerts, { benchmark: 'uuid-parse', branch: 'uuid-main' })).toHaveLength(1);
    expect(choices(alerts, 'benchmark').map((d) => d.name)).toEqual(['parse', 'sort']);
  });

  it('says how far past its limit a value went', () => {
    expect(pastLimit(alert('sort', 1))).toBe('+50 %');
  });
});
