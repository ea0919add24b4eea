// @ts-check
// The repositories of one transaction or read, over a View. Reads get the same objects: a write in a read is
// refused by the view.
import { jobRepositories } from './jobs.js';
import { notificationRepositories } from './notifications.js';
import { metricRepositories } from './metrics.js';
import { pruneRegressions, regressionRepositories } from './regressions.js';
import { DIMENSION_TABLES, matches, page, remove, sortRows, table, TABLES } from './tables.js';

/**
 * @typedef {import('./tables.js').View} View
 * @typedef {import('./tables.js').Row} Row
 * @typedef {import('benchtrack/plugin-kit').DimensionKind} DimensionKind
 */

/** The repositories `storage.transaction` and `storage.read` hand their callback. @param {View} view */
export function repositories(view) {
  /** @param {import('./tables.js').TableName} name */
  const rows = (name) => [...view.rows(name).values()];
  /** Organization ids the user has a role in. @param {number | null} userId */
  const organizationsOf = (userId) =>
    new Set(rows('roles').flatMap((r) => (r.user_id === userId ? [r.organization_id] : [])));

  /** @param {number} headId @returns {Row[]} the head's versions, highest number first */
  function versionsOf(headId) {
    const versions = view.rows('versions');
    const linked = rows('headVersions').flatMap((hv) =>
      hv.head_id === headId ? [versions.get(hv.version_id)] : [],
    );
    return sortRows(/** @type {Row[]} */ (linked.filter(Boolean)), ['number'], -1);
  }

  return {
    meta: {
      /** @param {string} key */
      get: async (key) => view.rows('meta').get(key)?.value,
      /** @param {string} key @param {string} value */
      async set(key, value) {
        view.edit('meta').set(key, Object.freeze({ key, value }));
      },
    },
    users: table(view, 'users'),
    tokens: table(view, 'tokens'),
    organizations: {
      ...table(view, 'organizations'),
      /** @param {number} userId @param {object} where @param {object} options */
      async listForUser(userId, where, options) {
        const mine = organizationsOf(userId);
        return page(
          rows('organizations').filter((o) => mine.has(o.id) && matches(o, where)),
          TABLES.organizations,
          options,
        );
      },
      /** @param {number} organizationId @param {object} options */
      async members(organizationId, options) {
        const users = view.rows('users');
        const members = rows('roles')
          .filter((r) => r.organization_id === organizationId)
          .map((r) => ({
            ...users.get(r.user_id),
            role: r.role,
            role_created: r.created,
            role_modified: r.modified,
          }));
        return page(members, TABLES.users, options);
      },
      licensed: async () =>
        sortRows(
          rows('organizations').filter((o) => o.license),
          ['id'],
        ),
    },
    roles: table(view, 'roles'),
    invitations: table(view, 'invitations'),
    projects: {
      ...table(view, 'projects'),
      /** @param {{ userId: number | null, admin: boolean }} viewer @param {object} where @param {object} options */
      async listVisible(viewer, where, options) {
        const mine = organizationsOf(viewer.userId);
        const visible = rows('projects').filter(
          (p) =>
            (p.visibility === 'public' || viewer.admin || mine.has(p.organization_id)) && matches(p, where),
        );
        return page(visible, TABLES.projects, options);
      },
      /**
       * @param {readonly number[]} projectIds
       * @param {{ since: Date, regressionStatuses: readonly string[] }} options
       */
      async activity(projectIds, { since, regressionStatuses }) {
        const of = (/** @type {number} */ id) => (/** @type {Row} */ row) => row.project_id === id;
        return new Map(
          projectIds.map((id) => {
            const reports = rows('reports').filter(of(id));
            const last = reports.reduce(
              (/** @type {Date | null} */ newest, r) =>
                newest && newest >= r.start_time ? newest : r.start_time,
              null,
            );
            /** @type {Map<string, number>} */
            const days = new Map();
            for (const r of reports) {
              if (r.start_time < since) continue;
              const day = r.start_time.toISOString().slice(0, 10);
              days.set(day, (days.get(day) ?? 0) + 1);
            }
            const sorted = [...days].sort(([a], [b]) => (a < b ? -1 : 1));
            return [
              id,
              {
                last,
                days: sorted.map(([day, count]) => ({ day, reports: count })),
                alerts: rows('alerts').filter((a) => of(id)(a) && a.status === 'active').length,
                regressions: rows('regressions').filter(
                  (r) => of(id)(r) && regressionStatuses.includes(r.status),
                ).length,
              },
            ];
          }),
        );
      },
      /** @param {number} projectId */
      async deleteWithData(projectId) {
        const ofProject = (/** @type {Row} */ row) => row.project_id === projectId;
        const thresholds = new Set(
          rows('thresholds')
            .filter(ofProject)
            .map((t) => t.id),
        );
        const branches = new Set(
          rows('branches')
            .filter(ofProject)
            .map((b) => b.id),
        );
        const heads = new Set(
          rows('heads')
            .filter((h) => branches.has(h.branch_id))
            .map((h) => h.id),
        );
        const jobs = new Set(
          rows('jobs')
            .filter(ofProject)
            .map((j) => j.id),
        );
        remove(view, 'jobLogs', (l) => jobs.has(l.job_id));
        remove(view, 'models', (m) => thresholds.has(m.threshold_id));
        remove(view, 'headVersions', (hv) => heads.has(hv.head_id));
        remove(view, 'heads', (h) => heads.has(h.id));
        for (const name of /** @type {const} */ ([
          'alerts',
          'metrics',
          'reports',
          'thresholds',
          'series',
          'versions',
          'branches',
          'testbeds',
          'benchmarks',
          'measures',
          'plots',
          'jobs',
          'webhooks',
          'notifications',
          'deliveries',
          'deliveryAttempts',
          'notificationPreferences',
        ]))
          remove(view, name, ofProject);
        remove(view, 'projects', (p) => p.id === projectId);
        pruneRegressions(view);
      },
    },
    branches: table(view, 'branches'),
    heads: {
      ...table(view, 'heads'),
      /** @param {number} headId */
      latestVersion: async (headId) => versionsOf(headId)[0],
      /** @param {number} headId @param {string} hash */
      versionByHash: async (headId, hash) => versionsOf(headId).find((v) => v.hash === hash),
      /** @param {number} headId @param {number} upTo @param {number} limit */
      versionIds: async (headId, upTo, limit) =>
        versionsOf(headId)
          .filter((v) => v.number <= upTo)
          .slice(0, limit)
          .map((v) => v.id),
    },
    headVersions: {
      ...table(view, 'headVersions'),
      /** @param {number} headId @param {readonly number[]} versionIds */
      async link(headId, versionIds) {
        const links = view.edit('headVersions');
        for (const id of versionIds)
          links.set(`${headId}:${id}`, Object.freeze({ head_id: headId, version_id: id }));
      },
    },
    versions: table(view, 'versions'),
    testbeds: table(view, 'testbeds'),
    benchmarks: table(view, 'benchmarks'),
    measures: table(view, 'measures'),
    series: table(view, 'series'),
    thresholds: table(view, 'thresholds'),
    models: table(view, 'models'),
    dimensions: dimensions(view),
    ...metricRepositories(view, versionsOf),
    plots: table(view, 'plots'),
    usage: usage(view),
    stats: stats(view),
    ...regressionRepositories(view),
    runners: table(view, 'runners'),
    runnerSpecs: table(view, 'runnerSpecs'),
    ...jobRepositories(view),
    ...notificationRepositories(view),
    // write transactions run one at a time (index.js), so no two ever contend for a lock
    locks: { hold: () => Promise.resolve(), tryHold: () => Promise.resolve(true) },
  };
}

/** What refers to a dimension, and deleting it with all of that. @param {View} view */
function dimensions(view) {
  /** @param {DimensionKind} kind @param {number} id */
  function referring(kind, id) {
    const reports = new Set(
      [...view.rows('reports').values()]
        .filter((r) => (kind === 'branch' || kind === 'testbed') && r[`${kind}_id`] === id)
        .map((r) => r.id),
    );
    const series = new Set(
      kind === 'branch'
        ? []
        : [...view.rows('series').values()].filter((s) => s[`${kind}_id`] === id).map((s) => s.id),
    );
    const thresholds = new Set(
      kind === 'benchmark'
        ? []
        : [...view.rows('thresholds').values()].filter((t) => t[`${kind}_id`] === id).map((t) => t.id),
    );
    /** @param {Row} m */
    const metric = (m) => reports.has(m.report_id) || series.has(m.series_id);
    return { reports, series, thresholds, metric };
  }
  return {
    /** @param {DimensionKind} kind @param {number} id */
    async usage(kind, id) {
      const { reports, thresholds, metric } = referring(kind, id);
      const metrics = [...view.rows('metrics').values()].filter(metric).length;
      return { reports: reports.size, metrics, thresholds: thresholds.size };
    },
    /** @param {DimensionKind} kind @param {number} id */
    async deleteWithData(kind, id) {
      const { reports, series, thresholds, metric } = referring(kind, id);
      const metrics = new Set([...view.rows('metrics').values()].filter(metric).map((m) => m.id));
      remove(
        view,
        'alerts',
        (a) => metrics.has(a.metric_id) || reports.has(a.report_id) || thresholds.has(a.threshold_id),
      );
      remove(view, 'metrics', (m) => metrics.has(m.id));
      remove(view, 'reports', (r) => reports.has(r.id));
      remove(view, 'series', (s) => series.has(s.id));
      remove(view, 'models', (m) => thresholds.has(m.threshold_id));
      remove(view, 'thresholds', (t) => thresholds.has(t.id));
      if (kind === 'branch') deleteHeads(view, id);
      const plots = view.edit('plots');
      for (const [key, plot] of plots) {
        /** @type {number[]} */
        const ids = plot[`${kind}_ids`];
        if (ids.includes(id))
          plots.set(key, Object.freeze({ ...plot, [`${kind}_ids`]: ids.filter((x) => x !== id) }));
      }
      remove(view, DIMENSION_TABLES[kind], (row) => row.id === id);
      pruneRegressions(view);
    },
  };
}

/** Deletes a branch's heads, their version links, and the project's versions no head links any more. */
function deleteHeads(/** @type {View} */ view, /** @type {number} */ branchId) {
  const branch = view.rows('branches').get(branchId);
  const heads = new Set(
    [...view.rows('heads').values()].filter((h) => h.branch_id === branchId).map((h) => h.id),
  );
  remove(view, 'headVersions', (hv) => heads.has(hv.head_id));
  const linked = new Set([...view.rows('headVersions').values()].map((hv) => hv.version_id));
  remove(view, 'versions', (v) => v.project_id === branch?.project_id && !linked.has(v.id));
  remove(view, 'heads', (h) => heads.has(h.id));
}

/** Metrics counted per organization and day. @param {View} view */
function usage(view) {
  /** @param {string} from @param {string} to */
  const between = (from, to) => [...view.rows('usage').values()].filter((u) => u.day >= from && u.day <= to);
  return {
    /** @param {number | null} organizationId @param {string} from @param {string} to */
    metrics: async (organizationId, from, to) =>
      between(from, to)
        .filter((u) => organizationId === null || u.organization_id === organizationId)
        .reduce((sum, u) => sum + u.metrics, 0),
    /** @param {string} from @param {string} to */
    async daily(from, to) {
      /** @type {Map<string, number>} */
      const days = new Map();
      for (const u of between(from, to)) days.set(u.day, (days.get(u.day) ?? 0) + u.metrics);
      return [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, metrics]) => ({ day, metrics }));
    },
    /**
     * One row per organization and day is enough here: transactions of one process run one at a time.
     * @param {number} organizationId @param {string} day @param {number} count
     */
    async recordMetrics(organizationId, day, count) {
      const key = `${organizationId}:${day}`;
      const metrics = (view.rows('usage').get(key)?.metrics ?? 0) + count;
      view.edit('usage').set(key, Object.freeze({ organization_id: organizationId, day, metrics }));
    },
  };
}

/** Counts for server statistics and their daily snapshots. @param {View} view */
function stats(view) {
  return {
    async created(since = new Date(0)) {
      /** @param {import('./tables.js').TableName} name */
      const count = (name) => [...view.rows(name).values()].filter((row) => row.created >= since).length;
      return {
        users: count('users'),
        organizations: count('organizations'),
        projects: count('projects'),
        reports: count('reports'),
      };
    },
    /** @param {Date} since @param {number} limit */
    async topProjects(since, limit) {
      /** @type {Map<number, number>} */
      const counts = new Map();
      for (const r of view.rows('reports').values())
        if (r.created >= since) counts.set(r.project_id, (counts.get(r.project_id) ?? 0) + 1);
      return [...counts]
        .map(([project_id, reports]) => ({ project_id, reports }))
        .sort((a, b) => b.reports - a.reports || a.project_id - b.project_id)
        .slice(0, limit);
    },
    /** @param {string} from */
    snapshots: async (from) =>
      sortRows(
        [...view.rows('snapshots').values()].filter((s) => s.day >= from),
        ['day'],
      ).map(({ day, stats }) => ({ day, stats })),
    /** @param {string} day @param {string} stats */
    async saveSnapshot(day, stats) {
      if (view.rows('snapshots').has(day)) return false;
      view.edit('snapshots').set(day, Object.freeze({ day, stats }));
      return true;
    },
  };
}
