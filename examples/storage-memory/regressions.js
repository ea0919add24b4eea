// @ts-check
// Regressions, their series, alerts and events; the filtered list; and the prune that follows every cascade.
import { remove, table } from './tables.js';

/**
 * @typedef {import('./tables.js').View} View
 * @typedef {import('./tables.js').Row} Row
 */

/** Open regressions first (untriaged, suspected, then acknowledged), then the closed ones. */
const STATUS_RANK = /** @type {Record<string, number>} */ ({ untriaged: 0, suspected: 1, acknowledged: 2 });

/** @param {View} view */
export function regressionRepositories(view) {
  /** @param {import('./tables.js').TableName} name */
  const rows = (name) => [...view.rows(name).values()];
  /** @param {import('benchtrack/plugin-kit').RegressionFilter} filter */
  const matching = (filter) => {
    const term = filter.search?.toLowerCase();
    const series = rows('regressionSeries');
    const benchmarks = view.rows('benchmarks');
    return rows('regressions').filter((r) => {
      if (r.project_id !== filter.project_id) return false;
      if (filter.statuses && !filter.statuses.includes(r.status)) return false;
      if (filter.kind !== undefined && r.kind !== filter.kind) return false;
      if (filter.branch_id !== undefined && r.branch_id !== filter.branch_id) return false;
      if (filter.testbed_id !== undefined && r.testbed_id !== filter.testbed_id) return false;
      if (filter.assignee_id !== undefined && r.assignee_id !== filter.assignee_id) return false;
      const own = series.filter((s) => s.regression_id === r.id);
      if (
        (filter.benchmark_id !== undefined || filter.measure_id !== undefined) &&
        !own.some(
          (s) =>
            (filter.benchmark_id === undefined || s.benchmark_id === filter.benchmark_id) &&
            (filter.measure_id === undefined || s.measure_id === filter.measure_id),
        )
      )
        return false;
      if (!term) return true;
      const texts = [r.uuid, r.note, r.issue_url, ...own.map((s) => benchmarks.get(s.benchmark_id)?.name)];
      return texts.some((t) => t != null && String(t).toLowerCase().includes(term));
    });
  };
  return {
    regressions: {
      ...table(view, 'regressions'),
      /**
       * @param {import('benchtrack/plugin-kit').RegressionFilter} filter
       * @param {{ page: number, perPage: number, sort: string, direction: 'asc' | 'desc' }} options
       */
      async listFiltered(filter, options) {
        const found = matching(filter);
        const versions = view.rows('versions');
        const sign = options.direction === 'asc' ? 1 : -1;
        /** @type {(r: Row) => number} */
        const time = (r) => r[options.sort === 'modified' ? 'modified' : 'created'].getTime();
        found.sort((a, b) => {
          if (options.sort === 'status')
            return (
              (STATUS_RANK[a.status] ?? 3) - (STATUS_RANK[b.status] ?? 3) ||
              b.created.getTime() - a.created.getTime() ||
              b.id - a.id
            );
          if (options.sort === 'version') {
            const number = (/** @type {Row} */ r) => versions.get(r.first_bad_version_id)?.number ?? 0;
            return sign * (number(a) - number(b) || a.id - b.id);
          }
          return sign * (time(a) - time(b) || a.id - b.id);
        });
        const first = (Math.max(options.page, 1) - 1) * options.perPage;
        return { items: found.slice(first, first + options.perPage), total: found.length };
      },
      /** @param {import('benchtrack/plugin-kit').RegressionFilter} filter */
      async countByStatus(filter) {
        /** @type {Record<string, number>} */
        const counts = {};
        for (const r of matching(filter)) counts[r.status] = (counts[r.status] ?? 0) + 1;
        return counts;
      },
      /**
       * What one grouping or analysis added, in the order the contract gives.
       * @param {import('benchtrack/plugin-kit').RegressionWrites} writes
       */
      async write({ now, series, alerts, events }) {
        const seriesTable = table(view, 'regressionSeries');
        const alertTable = table(view, 'regressionAlerts');
        const eventTable = table(view, 'regressionEvents');
        for (const s of series) {
          const key = { regression_id: s.regression_id, series_id: s.series_id };
          const { state, before_value, after_value, p_value } = s;
          if (await seriesTable.find(key))
            await seriesTable.update(key, { state, before_value, after_value, p_value, modified: now });
          else await seriesTable.insert({ ...s, created: now, modified: now });
        }
        for (const a of alerts) await alertTable.insert(a);
        for (const e of events) await eventTable.insert({ ...e, created: now });
      },
    },
    regressionSeries: table(view, 'regressionSeries'),
    regressionAlerts: table(view, 'regressionAlerts'),
    regressionEvents: table(view, 'regressionEvents'),
  };
}

/** Removes what refers to deleted alerts, series, branches and testbeds. @param {View} view */
export function pruneRegressions(view) {
  const has = (/** @type {import('./tables.js').TableName} */ name, /** @type {unknown} */ id) =>
    view.rows(name).has(id);
  remove(view, 'regressionAlerts', (a) => !has('alerts', a.alert_id));
  remove(view, 'regressionSeries', (s) => !has('series', s.series_id));
  const withSeries = new Set([...view.rows('regressionSeries').values()].map((s) => s.regression_id));
  remove(
    view,
    'regressions',
    (r) => !has('branches', r.branch_id) || !has('testbeds', r.testbed_id) || !withSeries.has(r.id),
  );
  for (const name of /** @type {const} */ (['regressionSeries', 'regressionAlerts', 'regressionEvents']))
    remove(view, name, (row) => !has('regressions', row.regression_id));
}
