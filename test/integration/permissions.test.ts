import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../core/index.js';
import { bearer, createProject, lastLinkTo, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The permission matrix: for each endpoint, each kind of caller, on a public and a private project, the
 * status code. Later issues add their endpoints to ENDPOINTS.
 */
const CALLERS = ['anonymous', 'unrelated', 'member', 'leader', 'admin', 'revoked', 'expired'] as const;
type CallerName = (typeof CALLERS)[number];
type Row = Record<CallerName, number>;

interface Endpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `project` is the slug of the project under test (public or private); `n` is unique per call. */
  readonly path: (project: string, n: number) => string;
  readonly body?: (n: number) => object;
  /** Give each call its own project (for destructive endpoints). */
  readonly fresh?: boolean;
  /** Creates what the call needs (as the leader), e.g. the branch a DELETE removes. */
  readonly prepare?: (project: string, n: number) => Promise<void>;
  readonly public: Row;
  /** Omitted for endpoints that do not involve a project. */
  readonly private?: Row;
}

const row = (anonymous: number, unrelated: number, member: number, leader: number, admin: number): Row => ({
  anonymous,
  unrelated,
  member,
  leader,
  admin,
  revoked: 401,
  expired: 401,
});

const ENDPOINTS: Endpoint[] = [
  { name: 'list projects', method: 'GET', path: () => '/v0/projects', public: row(200, 200, 200, 200, 200) },
  {
    name: 'view project',
    method: 'GET',
    path: (p) => `/v0/projects/${p}`,
    public: row(200, 200, 200, 200, 200),
    private: row(404, 404, 200, 200, 200),
  },
  {
    name: 'project allowed',
    method: 'GET',
    path: (p) => `/v0/projects/${p}/allowed/view`,
    public: row(400, 200, 200, 200, 200),
    private: row(400, 404, 200, 200, 200),
  },
  {
    name: 'update project',
    method: 'PATCH',
    path: (p) => `/v0/projects/${p}`,
    body: (n) => ({ url: `https://example.com/${n}` }),
    public: row(400, 403, 403, 200, 200),
    private: row(400, 404, 403, 200, 200),
  },
  {
    name: 'delete project',
    method: 'DELETE',
    path: (p) => `/v0/projects/${p}`,
    fresh: true,
    public: row(400, 403, 403, 204, 204),
    private: row(400, 404, 403, 204, 204),
  },
  {
    name: 'view organization',
    method: 'GET',
    path: () => '/v0/organizations/acme',
    public: row(400, 404, 200, 200, 200),
  },
  {
    name: 'update organization',
    method: 'PATCH',
    path: () => '/v0/organizations/acme',
    body: () => ({ name: 'Acme' }),
    public: row(400, 404, 403, 200, 200),
  },
  {
    name: 'list members',
    method: 'GET',
    path: () => '/v0/organizations/acme/members',
    public: row(400, 404, 200, 200, 200),
  },
  {
    name: 'invite member',
    method: 'POST',
    path: () => '/v0/organizations/acme/members',
    body: (n) => ({ email: `invitee${n}@example.com`, role: 'member' }),
    public: row(400, 404, 403, 202, 202),
  },
  {
    name: 'list organization projects',
    method: 'GET',
    path: () => '/v0/organizations/acme/projects',
    public: row(400, 404, 200, 200, 200),
  },
  {
    name: 'create project',
    method: 'POST',
    path: () => '/v0/organizations/acme/projects',
    body: (n) => ({ name: `Created ${n}` }),
    public: row(400, 404, 201, 201, 201),
  },
  { name: 'list users', method: 'GET', path: () => '/v0/users', public: row(400, 403, 403, 403, 200) },
  ...dimensionEndpoints(),
  {
    name: 'list thresholds',
    method: 'GET',
    path: (p) => `/v0/projects/${p}/thresholds`,
    public: row(200, 200, 200, 200, 200),
    private: row(404, 404, 200, 200, 200),
  },
  {
    name: 'create threshold',
    method: 'POST',
    path: (p) => `/v0/projects/${p}/thresholds`,
    prepare: (p, n) => asLeader('POST', `/v0/projects/${p}/testbeds`, { name: `tb-${n}` }),
    body: (n) => ({
      branch: 'main',
      testbed: `tb-${n}`,
      measure: 'latency',
      test: 't_test',
      upper_boundary: 0.99,
    }),
    public: row(401, 403, 201, 201, 201),
    private: row(404, 404, 201, 201, 201),
  },
  ...reportEndpoints(),
  {
    name: 'view server config',
    method: 'GET',
    path: () => '/v0/server/config',
    public: row(400, 403, 403, 403, 200),
  },
];

let t: TestApp;
const tokens: Partial<Record<CallerName, string>> = {};
let leader: Session;
let counter = 0;

async function asLeader(method: 'POST' | 'PATCH', url: string, payload: object): Promise<void> {
  const response = await t.app.inject({ method, url, headers: bearer(leader.token), payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

/** The five operations of branches, testbeds, benchmarks and measures. */
function dimensionEndpoints(): Endpoint[] {
  return (['branches', 'testbeds', 'benchmarks', 'measures'] as const).flatMap((path): Endpoint[] => {
    const body = (name: string) => (path === 'measures' ? { name, units: 'u' } : { name });
    const read = { public: row(200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200) };
    return [
      { name: `list ${path}`, method: 'GET', path: (p) => `/v0/projects/${p}/${path}`, ...read },
      { name: `view ${path}`, method: 'GET', path: (p) => `/v0/projects/${p}/${path}/fixed`, ...read },
      {
        name: `create ${path}`,
        method: 'POST',
        path: (p) => `/v0/projects/${p}/${path}`,
        body: (n) => body(`created-${n}`),
        public: row(401, 403, 201, 201, 201),
        private: row(404, 404, 201, 201, 201),
      },
      {
        name: `update ${path}`,
        method: 'PATCH',
        path: (p) => `/v0/projects/${p}/${path}/fixed`,
        body: () => ({ archived: false }),
        public: row(401, 403, 200, 200, 200),
        private: row(404, 404, 200, 200, 200),
      },
      {
        name: `delete ${path}`,
        method: 'DELETE',
        path: (p, n) => `/v0/projects/${p}/${path}/doomed-${n}`,
        prepare: (p, n) => asLeader('POST', `/v0/projects/${p}/${path}`, body(`doomed-${n}`)),
        public: row(401, 403, 403, 204, 204),
        private: row(404, 404, 403, 204, 204),
      },
    ];
  });
}

/** What the report, alert and plot endpoints act on, per project slug (made in beforeAll as the leader). */
const fixtures: Record<
  string,
  { report: string; metric: string; alert: string; plot: string; threshold: string }
> = {};
/** Reports and plots made by `prepare` for the call with the same `n` (destructive endpoints). */
const prepared = new Map<number, string>();
let clock = Date.UTC(2026, 0, 1);

function reportBody(value: number): object {
  clock += 60_000;
  return {
    branch: 'main',
    testbed: 'fixed',
    start_time: new Date(clock - 1000).toISOString(),
    end_time: new Date(clock).toISOString(),
    results: [JSON.stringify({ fixed: { latency: { value } } })],
    settings: { adapter: 'json' },
  };
}

const plotBody = (title: string) => ({
  title,
  window: 86_400 * 365,
  branches: ['main'],
  testbeds: ['fixed'],
  benchmarks: ['fixed'],
  measures: ['latency'],
});

async function leaderCreates(
  url: string,
  payload: object,
): Promise<Record<string, unknown> & { uuid: string }> {
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(leader.token), payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Reports, runs, metrics, alerts, perf queries, perf images and pinned plots. */
function reportEndpoints(): Endpoint[] {
  const read = { public: row(200, 200, 200, 200, 200), private: row(404, 404, 200, 200, 200) };
  const create = { public: row(401, 403, 201, 201, 201), private: row(404, 404, 201, 201, 201) };
  const edit = { public: row(401, 403, 200, 200, 200), private: row(404, 404, 200, 200, 200) };
  const of = (p: string) => fixtures[p] as (typeof fixtures)[string];
  const perfQuery = 'branches=main&testbeds=fixed&benchmarks=fixed&measures=latency';
  return [
    {
      name: 'create report',
      method: 'POST',
      path: (p) => `/v0/projects/${p}/reports`,
      body: () => reportBody(1),
      ...create,
    },
    { name: 'list reports', method: 'GET', path: (p) => `/v0/projects/${p}/reports`, ...read },
    { name: 'view report', method: 'GET', path: (p) => `/v0/projects/${p}/reports/${of(p).report}`, ...read },
    {
      name: 'delete report',
      method: 'DELETE',
      path: (p, n) => `/v0/projects/${p}/reports/${prepared.get(n)}`,
      prepare: async (p, n) => {
        prepared.set(n, (await leaderCreates(`/v0/projects/${p}/reports`, reportBody(1))).uuid);
      },
      public: row(401, 403, 403, 204, 204),
      private: row(404, 404, 403, 204, 204),
    },
    {
      name: 'run (project named in the body)',
      method: 'POST',
      path: () => '/v0/run',
      body: () => ({ ...reportBody(1), project: 'public-project' }),
      public: row(401, 403, 201, 201, 201),
    },
    {
      name: 'run (private project named in the body)',
      method: 'POST',
      path: () => '/v0/run',
      body: () => ({ ...reportBody(1), project: 'private-project' }),
      // A run for a slug nobody has claimed creates the project, so any refusal tells that the slug is taken:
      // anonymous callers are asked to sign in, as for a public project; signed-in strangers get 404.
      public: row(401, 404, 201, 201, 201),
    },
    {
      name: 'threshold models',
      method: 'GET',
      path: (p) => `/v0/projects/${p}/thresholds/${of(p).threshold}/models`,
      ...read,
    },
    { name: 'view metric', method: 'GET', path: (p) => `/v0/projects/${p}/metrics/${of(p).metric}`, ...read },
    { name: 'list alerts', method: 'GET', path: (p) => `/v0/projects/${p}/alerts`, ...read },
    { name: 'view alert', method: 'GET', path: (p) => `/v0/projects/${p}/alerts/${of(p).alert}`, ...read },
    {
      name: 'update alert',
      method: 'PATCH',
      path: (p) => `/v0/projects/${p}/alerts/${of(p).alert}`,
      body: () => ({ status: 'dismissed' }),
      ...edit,
    },
    {
      name: 'dismiss all alerts',
      method: 'PATCH',
      path: (p) => `/v0/projects/${p}/alerts`,
      body: () => ({ status: 'dismissed' }),
      ...edit,
    },
    { name: 'perf query', method: 'GET', path: (p) => `/v0/projects/${p}/perf?${perfQuery}`, ...read },
    {
      name: 'perf image',
      method: 'GET',
      path: (p, n) => `/v0/projects/${p}/perf/img?${perfQuery}&title=call-${n}`,
      ...read,
    },
    { name: 'list plots', method: 'GET', path: (p) => `/v0/projects/${p}/plots`, ...read },
    { name: 'view plot', method: 'GET', path: (p) => `/v0/projects/${p}/plots/${of(p).plot}`, ...read },
    { name: 'plot image', method: 'GET', path: (p) => `/v0/projects/${p}/plots/${of(p).plot}/img`, ...read },
    {
      name: 'create plot',
      method: 'POST',
      path: (p) => `/v0/projects/${p}/plots`,
      body: (n) => plotBody(`created-${n}`),
      ...create,
    },
    {
      name: 'update plot',
      method: 'PATCH',
      path: (p) => `/v0/projects/${p}/plots/${of(p).plot}`,
      body: (n) => ({ title: `renamed-${n}` }),
      ...edit,
    },
    {
      name: 'delete plot',
      method: 'DELETE',
      path: (p, n) => `/v0/projects/${p}/plots/${prepared.get(n)}`,
      prepare: async (p, n) => {
        prepared.set(n, (await leaderCreates(`/v0/projects/${p}/plots`, plotBody(`doomed-${n}`))).uuid);
      },
      public: row(401, 403, 204, 204, 204),
      private: row(404, 404, 204, 204, 204),
    },
  ];
}

beforeAll(async () => {
  t = await createTestApp();
  const admin = await signUp(t, 'Admin User', 'admin@example.com');
  leader = await signUp(t, 'Leader User', 'leader@example.com');
  const member = await signUp(t, 'Member User', 'member@example.com');
  const unrelated = await signUp(t, 'Unrelated User', 'unrelated@example.com');
  const org = await t.app.inject({
    method: 'POST',
    url: '/v0/organizations',
    headers: bearer(leader.token),
    payload: { name: 'Acme', slug: 'acme' },
  });
  expect(org.statusCode).toBe(201);
  await t.app.inject({
    method: 'POST',
    url: '/v0/organizations/acme/members',
    headers: bearer(leader.token),
    payload: { email: 'member@example.com', role: 'member' },
  });
  const invite = lastLinkTo(t, 'member@example.com').searchParams.get('token');
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/v0/auth/accept',
        headers: bearer(member.token),
        payload: { invite },
      })
    ).statusCode,
  ).toBe(200);
  await createProject(t, leader, 'acme', { name: 'Public', slug: 'public-project', visibility: 'public' });
  await createProject(t, leader, 'acme', { name: 'Private', slug: 'private-project', visibility: 'private' });
  for (const project of ['public-project', 'private-project']) {
    await asLeader('POST', `/v0/projects/${project}/branches`, { name: 'main' });
    for (const path of ['branches', 'testbeds', 'benchmarks'])
      await asLeader('POST', `/v0/projects/${project}/${path}`, { name: 'fixed' });
    await asLeader('POST', `/v0/projects/${project}/measures`, { name: 'fixed', units: 'u' });
    // A static limit of 10 that every later value of 100 crosses: the second report raises an alert.
    await leaderCreates(`/v0/projects/${project}/reports`, {
      ...reportBody(100),
      thresholds: { models: { latency: { test: 'static', upper_boundary: 10 } } },
    });
    const alerted = await leaderCreates(`/v0/projects/${project}/reports`, reportBody(100));
    const alerts = alerted.alerts as {
      uuid: string;
      metric: { uuid: string };
      threshold: { uuid: string };
    }[];
    expect(alerts).toHaveLength(1);
    fixtures[project] = {
      report: alerted.uuid,
      metric: (alerts[0] as { metric: { uuid: string } }).metric.uuid,
      alert: (alerts[0] as { uuid: string }).uuid,
      threshold: (alerts[0] as { threshold: { uuid: string } }).threshold.uuid,
      plot: (await leaderCreates(`/v0/projects/${project}/plots`, plotBody('fixture'))).uuid,
    };
  }

  const revoked = await t.app.inject({
    method: 'POST',
    url: `/v0/users/${leader.user.slug}/tokens`,
    headers: bearer(leader.token),
    payload: { name: 'r' },
  });
  await t.app.inject({
    method: 'DELETE',
    url: `/v0/users/${leader.user.slug}/tokens/${revoked.json().uuid}`,
    headers: bearer(leader.token),
  });
  const past = new Tokens({ current: t.config }, () => new Date(Date.now() - 40 * 24 * 3600 * 1000));
  Object.assign(tokens, {
    unrelated: unrelated.token,
    member: member.token,
    leader: leader.token,
    admin: admin.token,
    revoked: revoked.json().token,
    expired: (await past.issue('client', leader.user.uuid)).token,
  });
});
afterAll(() => t.close());

async function statusOf(
  endpoint: Endpoint,
  caller: CallerName,
  visibility: 'public' | 'private',
): Promise<number> {
  const n = counter++;
  let project = `${visibility}-project`;
  if (endpoint.fresh)
    project = (await createProject(t, leader, 'acme', { name: `Fresh ${n}`, visibility })).slug;
  await endpoint.prepare?.(project, n);
  const token = tokens[caller];
  const response = await t.app.inject({
    method: endpoint.method,
    url: endpoint.path(project, n),
    headers: token ? bearer(token) : {},
    ...(endpoint.body ? { payload: endpoint.body(n) } : {}),
  });
  return response.statusCode;
}

describe('permission matrix', () => {
  for (const endpoint of ENDPOINTS) {
    for (const visibility of endpoint.private ? (['public', 'private'] as const) : (['public'] as const)) {
      const expected = visibility === 'public' ? endpoint.public : (endpoint.private as Row);
      it(`${endpoint.method} ${endpoint.name}${endpoint.private ? ` (${visibility} project)` : ''}`, async () => {
        const actual: Partial<Row> = {};
        for (const caller of CALLERS) actual[caller] = await statusOf(endpoint, caller, visibility);
        expect(actual).toEqual(expected);
      });
    }
  }
});
