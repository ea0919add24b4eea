// @ts-check
// Jobs and their logs: the claim of the oldest queued job of a runner's specs, and a log read piece by piece.
import { sortRows, table } from './tables.js';

/**
 * @typedef {import('./tables.js').View} View
 * @typedef {import('./tables.js').Row} Row
 * @typedef {import('benchtrack/plugin-kit').ClaimScope} ClaimScope
 */

/** @param {View} view */
export function jobRepositories(view) {
  /** @param {ClaimScope} scope @returns {Row[]} the queued jobs the scope may take, oldest first */
  function queued(scope) {
    const projects = view.rows('projects');
    const jobs = [...view.rows('jobs').values()].filter(
      (j) =>
        j.state === 'queued' &&
        scope.specs.includes(j.spec) &&
        (scope.organizationId === null ||
          projects.get(j.project_id)?.organization_id === scope.organizationId),
    );
    return sortRows(jobs, ['created', 'id']);
  }
  const jobs = table(view, 'jobs');
  const logs = table(view, 'jobLogs');
  return {
    jobs: {
      ...jobs,
      /** @param {ClaimScope} scope */
      claimable: async (scope) => queued(scope).length > 0,
      /**
       * Write transactions run one at a time (index.js): nothing takes the job between the choice and the update.
       * @param {number} runnerId @param {ClaimScope} scope @param {{ now: Date, expires: Date }} lease
       */
      async claim(runnerId, scope, lease) {
        const [job] = queued(scope);
        if (!job) return undefined;
        const claimed = Object.freeze({
          ...job,
          state: 'running',
          runner_id: runnerId,
          attempt: job.attempt + 1,
          lease_expires: lease.expires,
          heartbeat: lease.now,
          started: lease.now,
          modified: lease.now,
        });
        view.edit('jobs').set(job.id, claimed);
        return claimed;
      },
    },
    jobLogs: {
      ...logs,
      /** @param {number} jobId @param {number} afterId @param {number} limit */
      after: async (jobId, afterId, limit) =>
        sortRows(
          [...view.rows('jobLogs').values()].filter((l) => l.job_id === jobId && l.id > afterId),
          ['id'],
        ).slice(0, limit),
      /** @param {number} projectId @param {number} keep */
      async prune(projectId, keep) {
        const newest = sortRows(
          [...view.rows('jobs').values()].filter((j) => j.project_id === projectId),
          ['id'],
          -1,
        ).slice(0, keep);
        const oldestKept = newest.at(-1)?.id ?? 0;
        const doomed = new Set(
          [...view.rows('jobs').values()]
            .filter((j) => j.project_id === projectId && j.id < oldestKept)
            .map((j) => j.id),
        );
        return logs.delete({ job_id: [...doomed] });
      },
    },
  };
}
