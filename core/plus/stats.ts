import { isAdmin, type Caller } from '../access/permissions.js';
import { ForbiddenError } from '../errors.js';
import type { ServerStatsJson, WindowCounts } from '../schemas/plus.js';
import type { ServiceContext } from '../services/context.js';
import type { LockKey, ReadRepositories } from '../storage/storage.js';
import { utcDay } from './plan.js';

const DAY_MS = 86_400_000;
const WINDOWS = { day: 1, week: 7, month: 30 } as const;
const TOP_PROJECTS = 10;
const HISTORY_DAYS = 365;
/** The daily snapshot's lock: one process of those sharing a database computes it. */
const SNAPSHOT_TASK: LockKey = { kind: 'maintenance', id: 1 };

type Counted = 'users' | 'organizations' | 'projects' | 'reports' | 'metrics';
type Snapshot = Omit<ServerStatsJson, 'snapshots'>;

/** The first instant of the UTC day `days - 1` days before `now`'s: windows of whole UTC days, today included. */
function windowStart(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/**
 * Server statistics, computed from the database and kept only there: `GET /v0/server/stats` (administrators) and
 * the daily snapshot. Nothing is ever sent anywhere.
 */
export class StatsService {
  constructor(private readonly ctx: ServiceContext) {}

  async get(caller: Caller): Promise<ServerStatsJson> {
    if (!isAdmin(caller)) throw new ForbiddenError('server statistics are for server administrators');
    const now = this.ctx.now();
    return this.ctx.storage.read(async (r) => {
      const stats = await compute(r, now);
      const saved = await r.stats.snapshots(utcDay(new Date(now.getTime() - HISTORY_DAYS * DAY_MS)));
      const snapshots = saved.map(({ day, stats: text }) => {
        const snapshot = JSON.parse(text) as Snapshot;
        return {
          day,
          users: snapshot.users.total,
          organizations: snapshot.organizations.total,
          projects: snapshot.projects.total,
          reports: snapshot.reports.total,
          metrics: snapshot.metrics.total,
        };
      });
      return { ...stats, snapshots };
    });
  }

  /**
   * Saves today's snapshot unless one exists. Every API process on a shared database schedules it: the one that
   * takes the task's lock checks that today's does not exist and computes it; the others answer `busy` at once,
   * computing nothing (a process started later the same day finds it: `exists`).
   */
  async snapshot(): Promise<'saved' | 'exists' | 'busy'> {
    const now = this.ctx.now();
    const today = utcDay(now);
    return this.ctx.storage.transaction(
      async (tx) => {
        if (!(await tx.locks.tryHold(SNAPSHOT_TASK))) return 'busy';
        if ((await tx.stats.snapshots(today)).length > 0) return 'exists';
        const stats = await compute(tx, now);
        return (await tx.stats.saveSnapshot(today, JSON.stringify(stats))) ? 'saved' : 'exists';
      },
      // counts need no snapshot of their own: under the lock, statement by statement is exact enough for a day
      { isolation: 'locked' },
    );
  }
}

async function compute(r: ReadRepositories, now: Date): Promise<Snapshot> {
  const today = utcDay(now);
  const starts = Object.fromEntries(
    Object.entries(WINDOWS).map(([name, days]) => [name, windowStart(now, days)]),
  ) as Record<keyof typeof WINDOWS, Date>;
  const created = {
    day: await r.stats.created(starts.day),
    week: await r.stats.created(starts.week),
    month: await r.stats.created(starts.month),
    total: await r.stats.created(),
  };
  const metrics: WindowCounts = {
    day: await r.usage.metrics(null, today, today),
    week: await r.usage.metrics(null, utcDay(starts.week), today),
    month: await r.usage.metrics(null, utcDay(starts.month), today),
    total: await r.usage.metrics(null, '0001-01-01', today),
  };
  const counts = (what: Exclude<Counted, 'metrics'>): WindowCounts => ({
    day: created.day[what],
    week: created.week[what],
    month: created.month[what],
    total: created.total[what],
  });
  const top = await r.stats.topProjects(starts.month, TOP_PROJECTS);
  const projects = new Map(
    (await r.projects.all({ id: top.map((t) => t.project_id) })).map((p) => [p.id, p]),
  );
  return {
    timestamp: now.toISOString(),
    users: counts('users'),
    organizations: counts('organizations'),
    projects: counts('projects'),
    reports: counts('reports'),
    metrics,
    top_projects: top.flatMap((t) => {
      const project = projects.get(t.project_id);
      return project
        ? [{ uuid: project.uuid, name: project.name, slug: project.slug, reports: t.reports }]
        : [];
    }),
    daily_metrics: await r.usage.daily(utcDay(starts.month), today),
  };
}
