// @ts-check
// Reports, their metrics and alerts, batch lookups by name, and the history and perf answers. Every query scans
// the rows it needs: simple, and fast enough for the thousands of reports of a preview or a demo.
import { pruneRegressions } from './regressions.js';
import { randomUUID } from 'node:crypto';
import { historyColumns, perfColumns, perfLinesOf } from 'benchtrack/plugin-kit';
import { DIMENSION_TABLES, page, remove, sortRows, table } from './tables.js';

/**
 * @typedef {import('./tables.js').View} View
 * @typedef {import('./tables.js').Row} Row
 * @typedef {import('benchtrack/plugin-kit').MetricColumns} MetricColumns
 * @typedef {import('benchtrack/plugin-kit').PerfRequest} PerfRequest
 */

/** An absent optional number (NaN) or id (0) of MetricColumns, as stored: null. @param {number} value */
const orNull = (value) => (Number.isNaN(value) || value === 0 ? null : value);
const optional = (/** @type {number} */ value) => (Number.isNaN(value) ? null : value);

/**
 * @param {View} view
 * @param {(headId: number) => Row[]} versionsOf the head's versions, highest number first
 */
export function metricRepositories(view, versionsOf) {
  const metrics = () => [...view.rows('metrics').values()];
  /** A project's alerts the filter matches: the threshold's branch, testbed and measure, the metric's benchmark. */
  const alertsMatching = (/** @type {import('benchtrack/plugin-kit').AlertFilter} */ filter) =>
    [...view.rows('alerts').values()].filter((a) => {
      if (a.project_id !== filter.project_id) return false;
      if (filter.status !== undefined && a.status !== filter.status) return false;
      const threshold = view.rows('thresholds').get(a.threshold_id);
      for (const key of /** @type {const} */ (['branch_id', 'testbed_id', 'measure_id']))
        if (filter[key] !== undefined && threshold?.[key] !== filter[key]) return false;
      if (filter.benchmark_id === undefined) return true;
      const metric = view.rows('metrics').get(a.metric_id);
      return view.rows('series').get(metric?.series_id)?.benchmark_id === filter.benchmark_id;
    });

  /** A stored metric as MetricRecord: with its series' benchmark and measure. @param {Row} m */
  function record(m) {
    const series = view.rows('series').get(m.series_id);
    return {
      id: m.id,
      uuid: m.uuid,
      report_id: m.report_id,
      iteration: m.iteration,
      series_id: m.series_id,
      benchmark_id: series?.benchmark_id,
      measure_id: series?.measure_id,
      value: m.value,
      lower_value: m.lower_value,
      upper_value: m.upper_value,
      threshold_id: m.threshold_id,
      model_id: m.model_id,
      baseline: m.baseline,
      lower_limit: m.lower_limit,
      upper_limit: m.upper_limit,
    };
  }

  /**
   * The metrics of each of these series that pass `keep`, in one scan.
   * @param {Int32Array} series @param {(m: Row) => boolean} keep
   */
  function metricsOf(series, keep) {
    const wanted = new Set(series);
    /** @type {Map<number, Row[]>} */
    const bySeries = new Map();
    for (const m of view.rows('metrics').values()) {
      if (!wanted.has(m.series_id) || !keep(m)) continue;
      const list = bySeries.get(m.series_id);
      if (list) list.push(m);
      else bySeries.set(m.series_id, [m]);
    }
    return bySeries;
  }

  /**
   * Per permutation of a perf request, its metrics in answer order (version number, start time, iteration).
   * @param {PerfRequest} request
   */
  function perfMetrics(request) {
    const versions = view.rows('versions');
    const start = request.start ?? -Infinity;
    const end = request.end ?? Infinity;
    const bySeries = metricsOf(request.series, (m) => m.start >= start && m.end <= end);
    return Array.from(request.series, (seriesId, i) => {
      const onHead = new Set(versionsOf(/** @type {number} */ (request.heads[i])).map((v) => v.id));
      const found = (bySeries.get(seriesId) ?? [])
        .filter((m) => onHead.has(m.version_id))
        .map((m) => ({ ...m, number: versions.get(m.version_id)?.number }));
      return sortRows(found, ['number', 'start', 'iteration', 'report_id']);
    });
  }

  /** The alert of each alerted metric. */
  const alertsByMetric = () => new Map([...view.rows('alerts').values()].map((a) => [a.metric_id, a]));

  const reportsTable = table(view, 'reports');
  const alertsTable = table(view, 'alerts');
  const dimensionsTable = (/** @type {import('benchtrack/plugin-kit').DimensionKind} */ kind) => [
    ...view.rows(DIMENSION_TABLES[kind]).values(),
  ];

  /** @param {PerfRequest} request */
  async function perf(request) {
    const reports = view.rows('reports');
    const alerts = alertsByMetric();
    const points = perfMetrics(request).flatMap((found, permutation) =>
      found.map((m) => {
        const alert = alerts.get(m.id);
        return {
          permutation,
          report: reports.get(m.report_id)?.uuid,
          iteration: m.iteration,
          start: m.start,
          end: m.end,
          version: m.number,
          hash: view.rows('versions').get(m.version_id)?.hash ?? null,
          uuid: m.uuid,
          value: m.value,
          lower: m.lower_value,
          upper: m.upper_value,
          threshold: m.threshold_id,
          model: m.model_id,
          baseline: m.baseline,
          lowerLimit: m.lower_limit,
          upperLimit: m.upper_limit,
          alert: alert?.uuid ?? null,
          alertLimit: alert?.boundary_limit ?? null,
          alertStatus: alert?.status ?? null,
          alertModified: alert?.modified.getTime() ?? null,
        };
      }),
    );
    if (request.cap !== undefined && points.length > request.cap) return perfColumns([], request);
    return perfColumns(points.slice(0, request.limit), request);
  }

  return {
    reports: {
      ...reportsTable,
      /** @param {import('benchtrack/plugin-kit').ReportFilter} filter @param {{ page: number, perPage: number, direction: 'asc' | 'desc' }} options */
      async listFiltered(filter, options) {
        const branches = view.rows('branches');
        const testbeds = view.rows('testbeds');
        const found = [...view.rows('reports').values()].filter(
          (r) =>
            r.project_id === filter.project_id &&
            (filter.branch_id === undefined || r.branch_id === filter.branch_id) &&
            (filter.testbed_id === undefined || r.testbed_id === filter.testbed_id) &&
            (!filter.from || r.start_time >= filter.from) &&
            (!filter.to || r.end_time <= filter.to) &&
            Boolean(branches.get(r.branch_id)?.archived || testbeds.get(r.testbed_id)?.archived) ===
              filter.archived,
        );
        return page(found, { order: ['start_time', 'id'] }, { ...options, sort: 'start_time' });
      },
      /** @param {readonly number[]} reportIds */
      async summaries(reportIds) {
        const wanted = new Set(reportIds);
        /** @type {Map<number, { benchmarks: Set<number>, measures: number }[]>} */
        const iterations = new Map(reportIds.map((id) => [id, []]));
        for (const m of metrics()) {
          if (!wanted.has(m.report_id)) continue;
          const list = /** @type {{ benchmarks: Set<number>, measures: number }[]} */ (
            iterations.get(m.report_id)
          );
          const at = (list[m.iteration] ??= { benchmarks: new Set(), measures: 0 });
          at.benchmarks.add(view.rows('series').get(m.series_id)?.benchmark_id);
          at.measures++;
        }
        const alerts = [...view.rows('alerts').values()];
        return new Map(
          reportIds.map((id) => {
            const mine = alerts.filter((a) => a.report_id === id);
            const summary = {
              report_id: id,
              iterations: Array.from(iterations.get(id) ?? [], (i) => ({
                benchmarks: i?.benchmarks.size ?? 0,
                measures: i?.measures ?? 0,
              })),
              alerts: { active: mine.filter((a) => a.status === 'active').length, total: mine.length },
            };
            return [id, summary];
          }),
        );
      },
    },
    metrics: {
      /** @param {readonly number[]} reportIds */
      byReports: async (reportIds) =>
        sortRows(
          metrics()
            .filter((m) => reportIds.includes(m.report_id))
            .map(record),
          ['report_id', 'iteration', 'benchmark_id', 'measure_id'],
        ),
      /** @param {number} projectId @param {string} uuid */
      async byUuid(projectId, uuid) {
        const found = metrics().find((m) => m.project_id === projectId && m.uuid === uuid);
        return found && record(found);
      },
      /** @param {readonly bigint[]} ids */
      async byIds(ids) {
        const rows = view.rows('metrics');
        return ids.flatMap((id) => {
          const m = rows.get(id);
          return m ? [record(m)] : [];
        });
      },
      /** @param {import('benchtrack/plugin-kit').HistoryRequest} request */
      async history({ headId, series, maxSamples, since }) {
        const onHead = new Set(versionsOf(headId).map((v) => v.id));
        const bySeries = metricsOf(series, (m) => onHead.has(m.version_id));
        for (const list of bySeries.values()) sortRows(list, ['start', 'report_id', 'iteration'], -1);
        return historyColumns(
          Array.from(series, (id, i) =>
            (bySeries.get(id) ?? [])
              .filter((m) => m.start >= /** @type {number} */ (since[i]))
              .slice(0, maxSamples[i])
              .map((m) => ({ value: m.value, id: m.id })),
          ),
        );
      },
      perf,
      /** What an image draws of the perf answer: nothing here is cheaper than the answer itself. @param {PerfRequest} request */
      async perfLines(request) {
        return perfLinesOf(await perf(request));
      },
      /** The points perf answers, counted up to the limit without building them. @param {PerfRequest} request */
      async perfCount(request) {
        const count = perfMetrics(request).reduce((sum, found) => sum + found.length, 0);
        return Math.min(count, request.limit ?? count);
      },
      /** @param {import('benchtrack/plugin-kit').ReportRecord} report @param {MetricColumns} columns */
      async append(report, columns) {
        const ids = new BigInt64Array(columns.uuid.length);
        const rows = view.edit('metrics');
        for (let i = 0; i < ids.length; i++) {
          const id = BigInt(view.next('metrics'));
          ids[i] = id;
          rows.set(
            id,
            Object.freeze({
              id,
              uuid: columns.uuid[i],
              project_id: report.project_id,
              report_id: report.id,
              version_id: report.version_id,
              start: report.start_time.getTime(),
              end: report.end_time.getTime(),
              iteration: columns.iteration[i],
              series_id: columns.series[i],
              value: columns.value[i],
              lower_value: optional(/** @type {number} */ (columns.lower[i])),
              upper_value: optional(/** @type {number} */ (columns.upper[i])),
              threshold_id: orNull(/** @type {number} */ (columns.threshold[i])),
              model_id: orNull(/** @type {number} */ (columns.model[i])),
              baseline: optional(/** @type {number} */ (columns.baseline[i])),
              lower_limit: optional(/** @type {number} */ (columns.lowerLimit[i])),
              upper_limit: optional(/** @type {number} */ (columns.upperLimit[i])),
            }),
          );
        }
        return ids;
      },
      /** @param {number} reportId */
      async deleteReport(reportId) {
        remove(view, 'alerts', (a) => a.report_id === reportId);
        remove(view, 'metrics', (m) => m.report_id === reportId);
        pruneRegressions(view);
      },
    },
    alerts: {
      ...alertsTable,
      /**
       * Active first, then the most recently changed (sort by status), or by creation or change time.
       * @param {import('benchtrack/plugin-kit').AlertFilter} filter
       * @param {{ page: number, perPage: number, sort: 'status' | 'created' | 'modified', direction: 'asc' | 'desc' }} options
       */
      async listForProject(filter, options) {
        const found = alertsMatching(filter);
        const sign = options.direction === 'desc' ? -1 : 1;
        if (options.sort === 'status') {
          sortRows(found, ['modified', 'id'], -1);
          sortRows(found, ['status'], sign);
        } else sortRows(found, [options.sort, 'id'], sign);
        const first = (Math.max(options.page, 1) - 1) * options.perPage;
        return { items: found.slice(first, first + options.perPage), total: found.length };
      },
      /** @param {import('benchtrack/plugin-kit').AlertFilter} filter */
      async countByStatus(filter) {
        /** @type {Record<string, number>} */
        const counts = {};
        for (const a of alertsMatching({ ...filter, status: undefined }))
          counts[a.status] = (counts[a.status] ?? 0) + 1;
        return counts;
      },
      /** @param {import('benchtrack/plugin-kit').AlertFilter} filter */
      async idsMatching(filter) {
        return alertsMatching(filter).map((a) => a.id);
      },
      /**
       * @param {import('benchtrack/plugin-kit').ReportRecord} report
       * @param {readonly { metric_id: bigint, threshold_id: number, model_id: number, boundary_limit: 'lower' | 'upper', change?: { before: number, after: number, p_value: number } }[]} raised
       * @param {Date} now
       */
      async raise(report, raised, now) {
        const alerts = [];
        for (const a of raised)
          alerts.push(
            await alertsTable.insert({
              uuid: randomUUID(),
              project_id: report.project_id,
              report_id: report.id,
              metric_id: a.metric_id,
              head_id: report.head_id,
              threshold_id: a.threshold_id,
              model_id: a.model_id,
              boundary_limit: a.boundary_limit,
              status: 'active',
              change_before: a.change?.before ?? null,
              change_after: a.change?.after ?? null,
              change_p_value: a.change?.p_value ?? null,
              created: now,
              modified: now,
            }),
          );
        return alerts;
      },
    },
    named: {
      /** @param {import('benchtrack/plugin-kit').DimensionKind} kind @param {number} projectId @param {readonly string[]} keys */
      async findMany(kind, projectId, keys) {
        const wanted = new Set(keys);
        return dimensionsTable(kind).filter(
          (d) =>
            d.project_id === projectId && (wanted.has(d.name) || wanted.has(d.slug) || wanted.has(d.uuid)),
        );
      },
      /** @param {import('benchtrack/plugin-kit').DimensionKind} kind @param {readonly number[]} ids */
      byIds: async (kind, ids) => dimensionsTable(kind).filter((d) => ids.includes(d.id)),
      /**
       * @param {'benchmark' | 'measure'} kind @param {number} projectId
       * @param {readonly { name: string, slug: string, units?: string }[]} rows @param {Date} now
       */
      async insertMany(kind, projectId, rows, now) {
        const into = table(view, DIMENSION_TABLES[kind]);
        const inserted = [];
        for (const { name, slug, units } of rows) {
          const row = {
            uuid: randomUUID(),
            project_id: projectId,
            name,
            slug,
            archived: false,
            created: now,
            modified: now,
          };
          inserted.push(await into.insert(kind === 'measure' ? { ...row, units: units ?? 'units' } : row));
        }
        return inserted;
      },
      /** @param {number} projectId @param {number} testbedId @param {readonly (readonly [number, number])[]} pairs */
      async ensureSeries(projectId, testbedId, pairs) {
        const key = (/** @type {number} */ b, /** @type {number} */ m) => `${b}:${m}`;
        const known = new Map(
          [...view.rows('series').values()]
            .filter((s) => s.testbed_id === testbedId)
            .map((s) => [key(s.benchmark_id, s.measure_id), s.id]),
        );
        const series = table(view, 'series');
        const ids = new Int32Array(pairs.length);
        for (const [i, [benchmark_id, measure_id]] of pairs.entries()) {
          let id = known.get(key(benchmark_id, measure_id));
          if (id === undefined) {
            id = (
              await series.insert({ project_id: projectId, testbed_id: testbedId, benchmark_id, measure_id })
            ).id;
            known.set(key(benchmark_id, measure_id), id);
          }
          ids[i] = /** @type {number} */ (id);
        }
        return ids;
      },
    },
  };
}
