import { describe, expect, it } from 'vitest';
import { bearer, createProject, signUp } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';

const bmf = (value: number) =>
  JSON.stringify(
    Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`bench-${i}`, { latency: { value: value + i } }]),
    ),
  );

/**
 * On PostgreSQL, reports are stored at READ COMMITTED under explicit locks (core/projects/ingest-order.ts), and
 * deleting what they write to holds their project exclusively. Without that lock, a deletion's snapshot misses the
 * reports that commit while it runs, and they are left pointing at a testbed, series or branch that is gone.
 */
describe('reports racing deletions', () => {
  it('leave no report, series or metric behind a testbed or branch deleted meanwhile', async () => {
    const t = await createTestApp();
    try {
      const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
      await createProject(t, ada, 'ada-lovelace', { name: 'Busy' });
      const post = (branch: string, value: number) => {
        const now = new Date().toISOString();
        return t.app.inject({
          method: 'POST',
          url: '/v0/projects/busy/reports',
          headers: { ...bearer(ada.token), 'content-type': 'application/json' },
          payload: {
            branch,
            testbed: 'ci',
            start_time: now,
            end_time: now,
            results: [bmf(value)],
            settings: { adapter: 'json' },
            thresholds: { models: { latency: { test: 'percentage', upper_boundary: 100 } } },
          },
        });
      };
      const remove = (path: string) =>
        t.app.inject({
          method: 'DELETE',
          url: `/v0/projects/busy/${path}?cascade=true`,
          headers: bearer(ada.token),
        });

      let streaming = true;
      const clients = Array.from({ length: 6 }, async (_, client) => {
        let stored = 0;
        for (let k = 0; streaming || k < 3; k++) {
          const response = await post(`lane-${client % 3}`, 1000 * client + k);
          expect(response.statusCode, response.body).toBe(201);
          stored++;
        }
        return stored;
      });
      const deletions: number[] = [];
      for (let round = 0; round < 8; round++) {
        await new Promise((done) => setTimeout(done, 60));
        const response = await remove(round % 2 === 0 ? 'testbeds/ci' : `branches/lane-${round % 3}`);
        deletions.push(response.statusCode);
      }
      streaming = false;
      expect((await Promise.all(clients)).reduce((a, b) => a + b, 0)).toBeGreaterThan(18);
      // some deletions found the testbed or branch gone (404) until a report created it again; none failed
      expect(deletions.every((status) => status === 204 || status === 404)).toBe(true);
      expect(deletions.filter((status) => status === 204).length).toBeGreaterThan(2);

      const stored = await t.storage.read(async (r) => {
        const project = (await r.projects.find({ slug: 'busy' }))!;
        const testbeds = new Set((await r.testbeds.all({ project_id: project.id })).map((x) => x.id));
        const branches = new Set((await r.branches.all({ project_id: project.id })).map((x) => x.id));
        const series = await r.series.all({ project_id: project.id });
        const seriesIds = new Set(series.map((s) => s.id));
        const reports = await r.reports.all({ project_id: project.id });
        // by report, joined to their series: a metric whose series is gone is missing from its report's count
        const metrics = await Promise.all(reports.map((report) => r.metrics.byReports([report.id])));
        return { testbeds, branches, series, seriesIds, reports, metrics };
      });
      expect(stored.reports.length).toBeGreaterThan(0);
      expect(stored.reports.filter((report) => !stored.testbeds.has(report.testbed_id))).toEqual([]);
      expect(stored.reports.filter((report) => !stored.branches.has(report.branch_id))).toEqual([]);
      expect(stored.series.filter((s) => !stored.testbeds.has(s.testbed_id))).toEqual([]);
      expect(stored.metrics.map((metrics) => metrics.length)).toEqual(stored.reports.map(() => 20));
      expect(stored.metrics.flat().filter((m) => !stored.seriesIds.has(m.series_id))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('test reports of two branches on one shared version against histories that include each other', async () => {
    const t = await createTestApp();
    try {
      const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
      await createProject(t, ada, 'ada-lovelace', { name: 'Shared' });
      const hash = 'a'.repeat(40);
      const post = async (branch: string, value: number, startPoint?: object) => {
        const now = new Date().toISOString();
        const response = await t.app.inject({
          method: 'POST',
          url: '/v0/projects/shared/reports',
          headers: { ...bearer(ada.token), 'content-type': 'application/json' },
          payload: {
            branch,
            testbed: 'ci',
            hash,
            ...(startPoint ? { start_point: startPoint } : {}),
            start_time: now,
            end_time: now,
            results: [JSON.stringify({ bench: { latency: { value } } })],
            settings: { adapter: 'json' },
            thresholds: {
              models: { latency: { test: 'percentage', upper_boundary: 100, max_sample_size: 1000 } },
            },
          },
        });
        expect(response.statusCode, response.body).toBe(201);
        const report = response.json() as {
          results: { measures: { boundary: { baseline: number | null } | null }[] }[][];
        };
        return report.results[0]?.[0]?.measures[0]?.boundary?.baseline ?? null;
      };
      // one version on both heads: `feature` starts from main at the hash, and every report names that hash
      await post('main', 1000);
      await post('feature', 1001.7, { branch: 'main', hash });
      const clients = Array.from({ length: 4 }, async (_, client) => {
        const baselines = [];
        for (let k = 0; k < 5; k++)
          baselines.push(
            await post(client % 2 === 0 ? 'main' : 'feature', 1000 + 10 * Math.sqrt(2 + 5 * client + k)),
          );
        return baselines;
      });
      const baselines = (await Promise.all(clients)).flat();
      // one after the other, each report sees every value before it, so no two see the same history; the values
      // are irrational, so no value is the mean of the ones before it and no two histories have one mean
      expect(new Set(baselines.map((b) => b?.toFixed(9))).size).toBe(baselines.length);
    } finally {
      await t.close();
    }
  });
});
