import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, logIn, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freshPostgresDatabase, onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';

const DAY = 86_400_000;
// 04:00 UTC, after the default collection time (03:07:22): the server takes today's snapshot as it starts
const TODAY = Date.UTC(2026, 7, 10, 4);
let clock = TODAY - 40 * DAY;
let t: TestApp;
let admin: Session;
let user: Session;

const as = (session: Session) => bearer(session.token);

async function project(session: Session, organization: string, slug: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/organizations/${organization}/projects`,
    headers: as(session),
    payload: { name: slug, slug },
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function report(session: Session, slug: string, benchmarks: number) {
  const results = Object.fromEntries(
    Array.from({ length: benchmarks }, (_, i) => [`b${i}`, { latency: { value: i + 1 } }]),
  );
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/projects/${slug}/reports`,
    headers: as(session),
    payload: {
      branch: 'main',
      testbed: 'ci',
      start_time: new Date(clock - 1000).toISOString(),
      end_time: new Date(clock).toISOString(),
      results: [JSON.stringify(results)],
      settings: { adapter: 'json' },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clock) });
  // the snapshot at start runs beside requests: let it read the empty database before anything is created
  await eventually(async () => expect(t.logText()).toContain('server statistics snapshot saved'), 10_000);
  // 40 days ago: the administrator (first user, with a personal organization), a project, a report of 4 metrics
  admin = await signUp(t, 'Ada Admin', 'ada@example.com');
  expect(admin.user.admin).toBe(true);
  await project(admin, admin.user.slug, 'old');
  await report(admin, 'old', 4);
  // 5 days ago: another user and project, two reports of 3 metrics
  clock = TODAY - 5 * DAY;
  user = await signUp(t, 'Bo User', 'bo@example.com');
  await project(user, user.user.slug, 'busy');
  await report(user, 'busy', 3);
  await report(user, 'busy', 3);
  // today: one more report of 2 metrics, and one in the old project
  clock = TODAY - 3600_000;
  admin = await logIn(t, 'ada@example.com');
  await report(user, 'busy', 2);
  await report(admin, 'old', 1);
  clock = TODAY;
});
afterAll(() => t.close());

describe('server statistics', () => {
  it('counts what was created today, this week, this month and in total, the top projects and daily ingest', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/server/stats', headers: as(admin) });
    expect(response.statusCode, response.body).toBe(200);
    const stats = response.json();
    expect(stats.timestamp).toBe(new Date(TODAY).toISOString());
    expect(stats.users).toEqual({ day: 0, week: 1, month: 1, total: 2 });
    expect(stats.organizations).toEqual({ day: 0, week: 1, month: 1, total: 2 });
    expect(stats.projects).toEqual({ day: 0, week: 1, month: 1, total: 2 });
    expect(stats.reports).toEqual({ day: 2, week: 4, month: 4, total: 5 });
    expect(stats.metrics).toEqual({ day: 3, week: 9, month: 9, total: 13 });
    expect(stats.top_projects.map((p: { slug: string; reports: number }) => [p.slug, p.reports])).toEqual([
      ['busy', 3],
      ['old', 1],
    ]);
    expect(stats.daily_metrics).toEqual([
      { day: '2026-08-05', metrics: 6 },
      { day: '2026-08-10', metrics: 3 },
    ]);
  });

  it('took the daily snapshot at start, because the collection time had passed', async () => {
    const stats = (await t.app.inject({ method: 'GET', url: '/v0/server/stats', headers: as(admin) })).json();
    // the server started 40 days before TODAY at 04:00, after that day's collection time, with an empty database
    expect(stats.snapshots).toEqual([
      { day: '2026-07-01', users: 0, organizations: 0, projects: 0, reports: 0, metrics: 0 },
    ]);
    expect(t.logText()).toContain('server statistics snapshot saved');
  });

  it('is for server administrators only', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/v0/server/stats', headers: as(user) })).statusCode,
    ).toBe(403);
  });
});

describe('the daily snapshot', () => {
  it('is taken at plus.stats.offset seconds after midnight UTC', async () => {
    // one second before the collection time of 00:00:30: nothing to catch up at start; the timer takes it
    const at = Date.UTC(2026, 8, 1, 0, 0, 29);
    const other = await createTestApp({ plus: { stats: { offset: 30 } } }, { now: () => new Date(at) });
    try {
      const first = await signUp(other, 'Root', 'root@example.com');
      const snapshots = async () =>
        (
          await other.app.inject({ method: 'GET', url: '/v0/server/stats', headers: bearer(first.token) })
        ).json().snapshots;
      await eventually(async () =>
        expect((await snapshots()).map((s: { day: string }) => s.day)).toEqual(['2026-09-01']),
      );
    } finally {
      await other.close();
    }
  });

  it('is not taken when plus.stats.enabled is false', async () => {
    const other = await createTestApp(
      { plus: { stats: { enabled: false } } },
      { now: () => new Date(TODAY) },
    );
    try {
      const first = await signUp(other, 'Root', 'root@example.com');
      const stats = await other.app.inject({
        method: 'GET',
        url: '/v0/server/stats',
        headers: bearer(first.token),
      });
      expect(stats.json().snapshots).toEqual([]);
      expect(other.logText()).not.toContain('server statistics snapshot saved');
    } finally {
      await other.close();
    }
  });
});

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe.runIf(onPostgres)('the daily snapshot, several API processes on one database', () => {
  const PROCESSES = 4;
  const SAVED = 'server statistics snapshot saved';
  const BUSY = 'server statistics snapshot: another process is taking it';
  const EXISTS = "server statistics snapshot: today's exists";

  it('is computed by exactly one of them, and by none started after it was saved', async () => {
    const database = await freshPostgresDatabase();
    const sql = postgres(database.url, { max: 2, onnotice: () => undefined });
    const apps: TestApp[] = [];
    const release = signal();
    try {
      // counting users waits behind this lock, so every process that computes the snapshot shows as waiting
      const locked = signal();
      const blocker = sql.begin(async (tx) => {
        await tx.unsafe('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
        locked.resolve();
        await release.promise;
      });
      await locked.promise;
      const computing = async () =>
        Number(
          (
            await sql.unsafe<{ n: string }[]>(
              `SELECT count(*)::text AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM users%'`,
            )
          )[0]?.n,
        );
      const started = await Promise.all(
        Array.from({ length: PROCESSES }, () =>
          createTestApp({ database: { url: database.url } }, { now: () => new Date(TODAY) }),
        ),
      );
      apps.push(...started);
      await eventually(() =>
        expect(apps.filter((app) => app.logText().includes(BUSY))).toHaveLength(PROCESSES - 1),
      );
      expect(await computing()).toBe(1);
      release.resolve();
      await blocker;
      await eventually(() => expect(apps.filter((app) => app.logText().includes(SAVED))).toHaveLength(1));
      expect(await sql.unsafe(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM stats_snapshot`)).toEqual([
        { day: '2026-08-10' },
      ]);

      const later = await createTestApp({ database: { url: database.url } }, { now: () => new Date(TODAY) });
      apps.push(later);
      await eventually(() => expect(later.logText()).toContain(EXISTS));
      expect(later.logText()).not.toContain(SAVED);
    } finally {
      release.resolve();
      await Promise.all(apps.map((app) => app.close()));
      await sql.end();
      await database.drop();
    }
  });
});
