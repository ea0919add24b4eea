import { publicUserJson } from '../schemas/accounts.js';
import { iso } from '../schemas/common.js';
import type { JobJson } from '../schemas/jobs.js';
import type { RunnerJson } from '../schemas/runners.js';
import type { JobRecord, RunnerRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';

const isoOrNull = (date: Date | null) => (date ? iso(date) : null);

/** Rows of `table` with these ids, by id (one query for a page of runners or jobs). */
async function byId<R extends { id: number }>(
  table: { all(where: { id: number[] }): Promise<R[]> },
  ids: readonly (number | null)[],
): Promise<Map<number, R>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  return new Map((await table.all({ id: wanted })).map((row) => [row.id, row]));
}

/**
 * The wire form of runners: their specs, the job each runs, and a state from the newest of its claims and
 * heartbeats (`idle` within the heartbeat timeout, `offline` after).
 */
export async function runnersJson(
  r: ReadRepositories,
  runners: readonly RunnerRecord[],
  now: Date,
  heartbeatTimeoutMs: number,
): Promise<RunnerJson[]> {
  if (runners.length === 0) return [];
  const ids = runners.map((runner) => runner.id);
  const [specs, running, organizations] = await Promise.all([
    r.runnerSpecs.all({ runner_id: ids }),
    r.jobs.all({ runner_id: ids, state: 'running' }),
    byId(
      r.organizations,
      runners.map((runner) => runner.organization_id),
    ),
  ]);
  const projects = await byId(
    r.projects,
    running.map((job) => job.project_id),
  );
  return runners.map((runner) => {
    const job = running.find((candidate) => candidate.runner_id === runner.id);
    const project = job && projects.get(job.project_id);
    const seen = runner.last_seen?.getTime() ?? -Infinity;
    const state = runner.archived
      ? 'archived'
      : job
        ? 'running'
        : now.getTime() - seen <= heartbeatTimeoutMs
          ? 'idle'
          : 'offline';
    return {
      uuid: runner.uuid,
      name: runner.name,
      slug: runner.slug,
      organization: runner.organization_id ? (organizations.get(runner.organization_id)?.uuid ?? null) : null,
      specs: specs
        .filter((spec) => spec.runner_id === runner.id)
        .map((spec) => spec.spec)
        .sort(),
      state,
      job: job && project ? { uuid: job.uuid, project: project.uuid } : null,
      last_heartbeat: isoOrNull(runner.last_seen),
      archived: runner.archived,
      created: iso(runner.created),
      modified: iso(runner.modified),
    };
  });
}

/** The wire form of jobs of one project: the definition as queued, with who queued it, its runner and report. */
export async function jobsJson(
  r: ReadRepositories,
  project: { uuid: string },
  jobs: readonly JobRecord[],
): Promise<JobJson[]> {
  const [users, runners, reports] = await Promise.all([
    byId(
      r.users,
      jobs.map((job) => job.user_id),
    ),
    byId(
      r.runners,
      jobs.map((job) => job.runner_id),
    ),
    byId(
      r.reports,
      jobs.map((job) => job.report_id),
    ),
  ]);
  return jobs.map((job) => {
    const user = job.user_id === null ? undefined : users.get(job.user_id);
    const runner = job.runner_id === null ? undefined : runners.get(job.runner_id);
    return {
      ...(JSON.parse(job.definition) as Omit<JobJson, 'uuid'>),
      uuid: job.uuid,
      project: project.uuid,
      user: user ? publicUserJson(user) : null,
      state: job.state,
      runner: runner ? { uuid: runner.uuid, name: runner.name, slug: runner.slug } : null,
      attempt: job.attempt,
      reason: job.reason,
      report: job.report_id === null ? null : (reports.get(job.report_id)?.uuid ?? null),
      log: { bytes: job.log_bytes, dropped: job.log_dropped },
      last_heartbeat: isoOrNull(job.heartbeat),
      created: iso(job.created),
      modified: iso(job.modified),
      started: isoOrNull(job.started),
      finished: isoOrNull(job.finished),
    };
  });
}
