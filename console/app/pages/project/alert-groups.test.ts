import { describe, expect, it } from 'vitest';
import type { AlertJson } from '../../api/types.js';
import { fromBaseline, groupAlerts, pastLimit } from './alert-groups.js';

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

  it('says how far past its limit a value went', () => {
    expect(pastLimit(alert('sort', 1))).toBe('+50 %');
    // and from its baseline, as the CLI computes it: (150 - 90) / 90
    expect(fromBaseline(alert('sort', 1))).toBe('+66.7 %');
  });
});
