import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ada: Session;
const P = '/v0/projects/perf';
let clock = Date.parse('2026-06-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clock) });
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Perf' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(ada.token), ...(payload ? { payload } : {}) });

const bmf = (values: Record<string, number>, measure = 'latency') =>
  JSON.stringify(
    Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { [measure]: { value } }])),
  );

/** Posts a report at the current clock (one minute later each time) and expects 201. */
async function report(body: Record<string, unknown>) {
  clock += 60_000;
  const response = await call('POST', `${P}/reports`, {
    branch: 'main',
    testbed: 'linux',
    start_time: new Date(clock - 1000).toISOString(),
    end_time: new Date(clock).toISOString(),
    settings: { adapter: 'json' },
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const counts = () =>
  t.storage.read(async (r) => ({
    reports: await r.reports.count({}),
    branches: await r.branches.count({}),
    benchmarks: await r.benchmarks.count({}),
  }));

describe('creating reports', () => {
  it('parses raw harness output with the adapter, one iteration per results string', async () => {
    const out = (a: number, b: number) =>
      `running 2 tests\ntest sort::quick ... bench:  ${a} ns/iter (+/- 10)\ntest sort::merge ... bench:  ${b} ns/iter (+/- 20)\n`;
    const json = await report({
      results: [out(100, 200), out(110, 220)],
      settings: { adapter: 'rust_bench' },
    });
    expect(json.adapter).toBe('rust_bench');
    expect(json.results).toHaveLength(2);
    expect(
      json.results[1].map((r: { iteration: number; benchmark: { name: string } }) => [
        r.iteration,
        r.benchmark.name,
      ]),
    ).toEqual([
      [1, 'sort::merge'],
      [1, 'sort::quick'],
    ]);
    expect(json.results[0][1].measures[0]).toMatchObject({
      measure: { slug: 'latency', units: 'nanoseconds (ns)' },
      metric: { value: 100, lower_value: 90, upper_value: 110 },
      threshold: null,
      boundary: null,
    });
    expect(json.counts).toEqual({
      results: [
        { benchmarks: 2, measures: 2 },
        { benchmarks: 2, measures: 2 },
      ],
      alerts: { active: 0, total: 0 },
    });
  });

  it('folds iterations into one when asked', async () => {
    const json = await report({
      results: [bmf({ fold: 10 }), bmf({ fold: 30 })],
      settings: { adapter: 'json', fold: 'mean' },
    });
    expect(json.results).toHaveLength(1);
    expect(json.results[0][0].measures[0].metric.value).toBe(20);
  });

  it('magic detection is stored as magic; custom measures are created on the fly', async () => {
    const json = await report({ results: [bmf({ custom: 5 }, 'widgets-per-second')], settings: {} });
    expect(json.adapter).toBe('magic');
    expect(json.results[0][0].measures[0].measure).toMatchObject({
      name: 'widgets-per-second',
      units: 'units',
    });
  });

  it('shares a version between reports on the same hash', async () => {
    const hash = 'a'.repeat(40);
    const first = await report({ results: [bmf({ v: 1 })], hash });
    const second = await report({ results: [bmf({ v: 1 })], hash });
    const third = await report({ results: [bmf({ v: 1 })], hash: 'b'.repeat(40) });
    expect(second.branch.head.version).toEqual(first.branch.head.version);
    expect(first.branch.head.version.hash).toBe(hash);
    expect(third.branch.head.version.number).toBe(first.branch.head.version.number + 1);
  });

  it('unarchives the branch, testbed, benchmark and measure it names', async () => {
    await report({ results: [bmf({ dusty: 1 }, 'dust')], branch: 'attic', testbed: 'shelf' });
    for (const path of ['branches/attic', 'testbeds/shelf', 'benchmarks/dusty', 'measures/dust']) {
      expect((await call('PATCH', `${P}/${path}`, { archived: true })).statusCode).toBe(200);
    }
    await report({ results: [bmf({ dusty: 2 }, 'dust')], branch: 'attic', testbed: 'shelf' });
    for (const path of ['branches/attic', 'testbeds/shelf', 'benchmarks/dusty', 'measures/dust']) {
      expect((await call('GET', `${P}/${path}`)).json().archived, path).toBe(false);
    }
  });

  it.each([
    [
      { results: ['{"b": {"latency": {"value": "fast"}}}'] },
      400,
      'benchmark "b" measure "latency": value must be a finite number',
    ],
    [{ results: ['{"b": {"latency": {"value": 1, "lower_bound": 0}}}'] }, 400, 'lower_value'],
    [
      { results: ['not a harness output'], settings: { adapter: 'rust_bench' } },
      400,
      'no benchmarks found by adapter "rust_bench"',
    ],
    [{ results: [bmf({ x: 1 })], settings: { adapter: 'cobol' } }, 400, 'unknown adapter "cobol"'],
    [{ results: [] }, 400, 'body.results: must hold at least one iteration'],
    [
      { results: [bmf({ x: 1 })], branch: '00000000-0000-4000-8000-000000000000' },
      404,
      'branch "00000000-0000-4000-8000-000000000000" not found',
    ],
    [
      {
        results: [bmf({ x: 1 })],
        thresholds: { models: { latency: { test: 't_test', upper_boundary: 2 } } },
      },
      400,
      'threshold upper_boundary must be in [0.5, 1.0) for t_test',
    ],
    [
      { results: [bmf({ x: 1 })], start_time: '2026-01-02T00:00:00Z', end_time: '2026-01-01T00:00:00Z' },
      400,
      'body.end_time: must not be before start_time',
    ],
    [{ results: [bmf({ x: 1 })], branch: 'b'.repeat(257) }, 400, 'is longer than 256 characters'],
    [{ results: [bmf({ x: 1 })], branch: 'line\nbreak' }, 400, 'body.branch: must not contain a line break'],
    [{ results: [bmf({ x: 1 })], testbed: 't'.repeat(65) }, 400, 'testbed name'],
  ])('rejects bad input with nothing changed %#', async (body, status, message) => {
    const before = await counts();
    const response = await call('POST', `${P}/reports`, {
      branch: 'brand-new-branch',
      testbed: 'linux',
      start_time: '2026-01-01T00:00:00Z',
      end_time: '2026-01-01T00:00:01Z',
      settings: { adapter: 'json' },
      ...body,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toContain(message);
    expect(await counts()).toEqual(before);
  });
});

describe('thresholds and alerts', () => {
  const tTest = { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 } };

  it('computes boundaries from the branch history and raises an alert on a crossed limit', async () => {
    for (const value of [100, 101, 102, 100, 101, 102]) {
      await report({
        branch: 'alerts',
        results: [bmf({ 'sort/1000': value, noisy_benchtrack_ignore: value * 10 })],
        thresholds: { models: tTest },
      });
    }
    const json = await report({
      branch: 'alerts',
      results: [bmf({ 'sort/1000': 150, noisy_benchtrack_ignore: 1500 })],
    });
    const [noisy, sort] = json.results[0];
    expect(noisy.benchmark.name).toBe('noisy');
    expect(sort.measures[0].boundary.baseline).toBe(101);
    expect(sort.measures[0].boundary.upper_limit).toBeCloseTo(104.25083122258128, 9);
    expect(noisy.measures[0].boundary.upper_limit).toBeCloseTo(1042.508312225813, 9);
    expect(json.alerts).toHaveLength(1);
    expect(json.alerts[0]).toMatchObject({
      limit: 'upper',
      status: 'active',
      benchmark: { name: 'sort/1000' },
      metric: { value: 150 },
    });
    expect(json.counts.alerts).toEqual({ active: 1, total: 1 });
  });

  it('never alerts on equality with a limit', async () => {
    await report({
      branch: 'equal',
      results: [bmf({ s: 100 })],
      thresholds: { models: { latency: { test: 'static', upper_boundary: 100 } } },
    });
    const json = await report({ branch: 'equal', results: [bmf({ s: 100 })] });
    expect(json.results[0][0].measures[0].boundary).toEqual({
      baseline: null,
      lower_limit: null,
      upper_limit: 100,
    });
    expect(json.alerts).toEqual([]);
  });

  it('lets iteration k see iterations before it in the same report', async () => {
    await report({
      branch: 'iters',
      results: [bmf({ s: 10 })],
      thresholds: { models: { latency: { test: 'percentage', upper_boundary: 0.5 } } },
    });
    const json = await report({ branch: 'iters', results: [bmf({ s: 20 }), bmf({ s: 30 })] });
    expect(json.results[0][0].measures[0].boundary.baseline).toBe(10);
    expect(json.results[1][0].measures[0].boundary.baseline).toBe(15);
  });

  it('measures the window from now and excludes older history', async () => {
    await report({
      branch: 'window',
      results: [bmf({ s: 1 })],
      thresholds: { models: { latency: { test: 'percentage', upper_boundary: 0.1, window: 90 } } },
    });
    await report({ branch: 'window', results: [bmf({ s: 1 })] });
    clock += 10 * 60_000;
    const json = await report({ branch: 'window', results: [bmf({ s: 5 })] });
    expect(json.results[0][0].measures[0].boundary).toEqual({
      baseline: null,
      lower_limit: null,
      upper_limit: null,
    });
    expect(json.alerts).toEqual([]);
  });

  it('places backdated reports in history by their time', async () => {
    await report({
      branch: 'backfill',
      results: [bmf({ s: 100 })],
      thresholds: { models: { latency: { test: 'percentage', upper_boundary: 0.1, max_sample_size: 2 } } },
    });
    const old = new Date(clock - 30 * 86_400_000);
    const backdated = await report({
      branch: 'backfill',
      results: [bmf({ s: 500 })],
      start_time: old.toISOString(),
      end_time: new Date(old.getTime() + 1000).toISOString(),
    });
    expect(backdated.start_time).toBe(old.toISOString());
    await report({ branch: 'backfill', results: [bmf({ s: 102 })] });
    const json = await report({ branch: 'backfill', results: [bmf({ s: 100 })] });
    // the two newest by time are 100 and 102; the backdated 500 is a month older
    expect(json.results[0][0].measures[0].boundary.baseline).toBe(101);
  });

  it('branches inherit history from their start point', async () => {
    const json = await report({
      branch: 'feature-a',
      start_point: { branch: 'alerts', clone_thresholds: true },
      results: [bmf({ 'sort/1000': 103 })],
    });
    expect(json.branch.head.start_point).not.toBeNull();
    expect(json.results[0][0].measures[0].boundary.baseline).toBeCloseTo(
      (100 + 101 + 102 + 100 + 101 + 102 + 150) / 7,
      9,
    );
  });

  it('thresholds.reset removes the models of thresholds not listed', async () => {
    await report({
      branch: 'reset',
      results: [bmf({ s: 1 }), bmf({ s: 1 }, 'throughput')],
      thresholds: {
        models: { latency: tTest.latency, throughput: { test: 'percentage', lower_boundary: 0.1 } },
      },
    });
    await report({
      branch: 'reset',
      results: [bmf({ s: 1 })],
      thresholds: { models: { latency: tTest.latency }, reset: true },
    });
    const list = (await call('GET', `${P}/thresholds?branch=reset`)).json();
    expect(
      list
        .map((th: { measure: { slug: string }; model: unknown }) => [th.measure.slug, th.model !== null])
        .sort(),
    ).toEqual([
      ['latency', true],
      ['throughput', false],
    ]);
  });
});

describe('alerts', () => {
  it('lists active first, dismisses, reactivates, dismisses all, and silences on a new head', async () => {
    const model = { latency: { test: 'static', upper_boundary: 10 } };
    await report({ branch: 'noisy', results: [bmf({ a: 1 })], thresholds: { models: model } });
    const first = await report({ branch: 'noisy', results: [bmf({ a: 20 })] });
    const second = await report({ branch: 'noisy', results: [bmf({ a: 30 })] });
    const [a1, a2] = [first.alerts[0].uuid, second.alerts[0].uuid];
    const dismissed = await call('PATCH', `${P}/alerts/${a1}`, { status: 'dismissed' });
    expect(dismissed.json().status).toBe('dismissed');
    const list = (await call('GET', `${P}/alerts?per_page=255`)).json() as { uuid: string; status: string }[];
    const mine = list.filter((a) => a.uuid === a1 || a.uuid === a2);
    expect(mine.map((a) => a.status)).toEqual(['active', 'dismissed']);
    expect(list.findIndex((a) => a.status !== 'active')).toBeGreaterThan(
      list.findLastIndex((a) => a.status === 'active'),
    );
    expect((await call('PATCH', `${P}/alerts/${a1}`, { status: 'active' })).json().status).toBe('active');
    const all = await call('PATCH', `${P}/alerts`, { status: 'dismissed' });
    expect(all.json().dismissed).toBeGreaterThanOrEqual(2);
    expect((await call('GET', `${P}/alerts?status=active`)).json()).toEqual([]);
    await call('PATCH', `${P}/alerts/${a2}`, { status: 'active' });
    await report({ branch: 'noisy', start_point: { branch: 'main', reset: true }, results: [bmf({ a: 1 })] });
    expect((await call('GET', `${P}/alerts/${a2}`)).json().status).toBe('silenced');
    expect((await call('PATCH', `${P}/alerts/${a2}`, { status: 'active' })).statusCode).toBe(409);
  });
});

describe('alerts of backdated reports', () => {
  it("carry their report's start time and version, not only when they were raised", async () => {
    const model = { latency: { test: 'static', upper_boundary: 10 } };
    await report({ branch: 'backdated', results: [bmf({ a: 1 })], thresholds: { models: model } });
    const hash = 'ab'.repeat(20);
    const raised = await report({
      branch: 'backdated',
      hash,
      start_time: '2025-03-04T05:06:07.000Z',
      end_time: '2025-03-04T05:07:07.000Z',
      results: [bmf({ a: 20 })],
    });
    const expected = {
      start_time: '2025-03-04T05:06:07.000Z',
      version: { number: raised.branch.head.version.number, hash },
    };
    expect(raised.alerts[0]).toMatchObject(expected);
    expect(raised.alerts[0].created).not.toBe(expected.start_time);
    expect((await call('GET', `${P}/alerts/${raised.alerts[0].uuid}`)).json()).toMatchObject(expected);
    const list = (await call('GET', `${P}/alerts?per_page=255`)).json() as { uuid: string }[];
    expect(list.find((a) => a.uuid === raised.alerts[0].uuid)).toMatchObject(expected);
  });
});

describe('reading reports and metrics', () => {
  it('lists newest first with filters and counts, results only with expand', async () => {
    const a = await report({ branch: 'list', testbed: 'mac', results: [bmf({ x: 1 })] });
    const b = await report({ branch: 'list', testbed: 'mac', results: [bmf({ x: 2 })] });
    const list = await call('GET', `${P}/reports?branch=list&testbed=mac`);
    expect(list.headers['x-total-count']).toBe('2');
    const items = list.json();
    expect(items.map((r: { uuid: string }) => r.uuid)).toEqual([b.uuid, a.uuid]);
    expect(items[0]).not.toHaveProperty('results');
    expect(items[0].counts).toEqual({
      results: [{ benchmarks: 1, measures: 1 }],
      alerts: { active: 0, total: 0 },
    });
    const expanded = (await call('GET', `${P}/reports?branch=list&expand=true&direction=asc`)).json();
    expect(expanded[0].results[0][0].measures[0].metric.value).toBe(1);
    const since = Date.parse(b.start_time);
    expect(
      (await call('GET', `${P}/reports?branch=list&start_time=${since}`))
        .json()
        .map((r: { uuid: string }) => r.uuid),
    ).toEqual([b.uuid]);
    expect(
      (await call('GET', `${P}/reports?branch=list&end_time=${since}`))
        .json()
        .map((r: { uuid: string }) => r.uuid),
    ).toEqual([a.uuid]);
  });

  it('shows one report in full, one metric with its context, and deletes a report with its metrics', async () => {
    const created = await report({ branch: 'one', results: [bmf({ m: 7 })] });
    const viewed = (await call('GET', `${P}/reports/${created.uuid}`)).json();
    expect(viewed).toEqual(created);
    const metricUuid = created.results[0][0].measures[0].metric.uuid;
    const metric = (await call('GET', `${P}/metrics/${metricUuid}`)).json();
    expect(metric).toMatchObject({
      uuid: metricUuid,
      report: created.uuid,
      iteration: 0,
      branch: { slug: 'one' },
      benchmark: { name: 'm' },
      measure: { slug: 'latency' },
      metric: { value: 7 },
      alert: null,
    });
    expect((await call('DELETE', `${P}/reports/${created.uuid}`)).statusCode).toBe(204);
    expect((await call('GET', `${P}/reports/${created.uuid}`)).statusCode).toBe(404);
    expect((await call('GET', `${P}/metrics/${metricUuid}`)).statusCode).toBe(404);
  });

  it.each([
    ['branches', 'branch', 'gone-branch', 'still has 1 report, 2 metrics'],
    ['testbeds', 'testbed', 'gone-testbed', 'still has 1 report, 2 metrics'],
    ['benchmarks', 'benchmark', 'gone-bench', 'still has 1 metric'],
    ['measures', 'measure', 'gone-measure', 'still has 1 metric'],
  ] as const)(
    'refuses to delete a %s with data (409 naming it), then deletes it with everything that uses it',
    async (path, kind, slug, usage) => {
      const names = {
        branch: 'keep-branch',
        testbed: 'keep-testbed',
        benchmark: 'keep-bench',
        measure: 'keep-measure',
      };
      const dims = { ...names, [kind]: slug };
      const created = await report({
        branch: dims.branch,
        testbed: dims.testbed,
        results: [
          JSON.stringify({
            [dims.benchmark]: { [dims.measure]: { value: 1 } },
            other: { 'other-measure': { value: 2 } },
          }),
        ],
      });
      const before = await counts();
      const refused = await call('DELETE', `${P}/${path}/${slug}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        `${kind} "${slug}" ${usage}; delete them first or repeat the request with ?cascade=true to delete everything that uses it`,
      );
      expect(await counts()).toEqual(before);
      expect((await call('GET', `${P}/reports/${created.uuid}`)).statusCode).toBe(200);

      expect((await call('DELETE', `${P}/${path}/${slug}?cascade=true`)).statusCode).toBe(204);
      expect((await call('GET', `${P}/${path}/${slug}`)).statusCode).toBe(404);
      const after = await call('GET', `${P}/reports/${created.uuid}`);
      if (kind === 'branch' || kind === 'testbed') expect(after.statusCode).toBe(404);
      else {
        // the report stays, with the results that did not use it
        const left = after.json().results[0].map((r: { benchmark: { name: string } }) => r.benchmark.name);
        expect(left).toEqual(['other']);
      }
    },
  );

  it('answers a report exactly as it reads back: alerts, unarchived dimensions, reused versions, start points', async () => {
    const same = async (posted: { uuid: string }) =>
      expect((await call('GET', `${P}/reports/${posted.uuid}`)).json()).toEqual(posted);
    const model = { latency: { test: 'percentage', upper_boundary: 0.1 } };
    const spike = (extra: object = {}) =>
      report({ branch: 'echo', results: [bmf({ e1: 500, e2: 500 })], ...extra });
    for (const value of [100, 101]) {
      await same(
        await report({
          branch: 'echo',
          results: [bmf({ e1: value, e2: value })],
          thresholds: { models: model },
        }),
      );
    }
    const alerted = await spike({ hash: 'c'.repeat(40) });
    expect(alerted.alerts).toHaveLength(2);
    expect(alerted.regressions.map((x: { how: string }) => x.how)).toEqual(['opened']);
    await same(alerted);
    await report({ branch: 'echo', results: [bmf({ e1: 100, e2: 100 })] });
    // the version of an earlier hash: not the head's newest
    const reused = await spike({ hash: 'c'.repeat(40) });
    expect(reused.alerts.length).toBeGreaterThan(0);
    expect(reused.regressions.length).toBeGreaterThan(0);
    await same(reused);
    await same(
      await report({
        branch: 'echo-child',
        start_point: { branch: 'echo', clone_thresholds: true },
        results: [bmf({ e1: 900 })],
      }),
    );
    for (const path of ['branches/echo', 'testbeds/linux', 'benchmarks/e1', 'measures/latency']) {
      expect((await call('PATCH', `${P}/${path}`, { archived: true })).statusCode).toBe(200);
    }
    clock += 60_000;
    const unarchived = await spike();
    expect(unarchived.branch.archived).toBe(false);
    await same(unarchived);
    const run = await call('POST', '/v0/run', {
      project: 'perf',
      branch: 'echo',
      testbed: 'linux',
      start_time: new Date(clock).toISOString(),
      end_time: new Date(clock).toISOString(),
      results: [bmf({ e1: 5000 })],
      settings: { adapter: 'json' },
    });
    expect(run.statusCode, run.body).toBe(201);
    await same(run.json());
  });

  it('omits user e-mails from reports', async () => {
    const created = await report({ results: [bmf({ e: 1 })] });
    expect(JSON.stringify(created)).not.toContain('ada@example.com');
    expect(created.user).toEqual({ uuid: ada.user.uuid, name: 'Ada Lovelace', slug: 'ada-lovelace' });
  });
});

describe('POST /v0/run', () => {
  const context = {
    'benchtrack.dev/v0/repo/name': 'rocket',
    'benchtrack.dev/v0/repo/hash': 'c0ffee0000000000000000000000000000000000',
    'benchtrack.dev/v0/branch/ref/name': 'feature/thrust',
    'benchtrack.dev/v0/branch/hash': 'd'.repeat(40),
    'benchtrack.dev/v0/testbed/os': 'linux',
    'benchtrack.dev/v0/testbed/fingerprint': 'abc123',
  };
  const run = (body: object, token?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v0/run',
      headers: token ? bearer(token) : {},
      payload: {
        start_time: '2026-06-01T00:00:00Z',
        end_time: '2026-06-01T00:00:01Z',
        results: [bmf({ r: 1 })],
        ...body,
      },
    });

  it('needs a project or a context that names the repository', async () => {
    const response = await run({});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('project is required');
  });

  it('creates the project on the fly from the context, and finds it again', async () => {
    const first = await run({ context });
    expect(first.statusCode, first.body).toBe(201);
    const json = first.json();
    expect(json.project.name).toBe('rocket');
    expect(json.branch.name).toBe('feature/thrust');
    expect(json.branch.head.version.hash).toBe('d'.repeat(40));
    expect(json.testbed.name).toBe('Linux');
    const again = (await run({ context })).json();
    expect(again.project.uuid).toBe(json.project.uuid);
  });

  it('returns the first report for a repeated idempotency key and creates nothing', async () => {
    const key = '0f6c1f6e-5f1e-4b8e-9f6a-2a9c2b1d3e4f';
    const first = (await run({ project: 'idempotent', idempotency_key: key }, ada.token)).json();
    const before = await counts();
    const second = await run(
      { project: 'idempotent', idempotency_key: key, results: [bmf({ other: 2 })] },
      ada.token,
    );
    expect(second.statusCode).toBe(201);
    expect(second.json().uuid).toBe(first.uuid);
    expect(await counts()).toEqual(before);
  });

  it('defaults branch to main and testbed to localhost without a context', async () => {
    const json = (await run({ project: 'no-context' }, ada.token)).json();
    expect([json.branch.name, json.testbed.name]).toEqual(['main', 'localhost']);
  });
});
