import type { ClaimScope, JobLogRecord, JobRecord } from '../../../kit/index.js';
import { perDialect } from './sql.js';
import { extended, table, tableSpec, type Shared } from './table.js';

/** The queued jobs a scope may take (alias `j`); the specs are never empty (the caller checks). */
const QUEUED = perDialect(
  (d) => `j.state = 'queued' AND ${d.inList('j.spec', '$specs', 'text')} AND ($organization::int IS NULL
    OR j.project_id IN (SELECT id FROM project WHERE organization_id = $organization::int))`,
);

/**
 * Hands the oldest queued job to a runner. With several writers, concurrent claims skip the row one of them
 * locked and take the next job; with one writer nothing else can take the row between the choice and the update.
 */
const CLAIM = perDialect(
  (d) => `UPDATE job SET state = 'running', runner_id = $runner::int, attempt = attempt + 1,
      lease_expires = $expires::${d.timestamp}, heartbeat = $now::${d.timestamp}, started = $now::${d.timestamp},
      modified = $now::${d.timestamp}
    WHERE id = (SELECT j.id FROM job j WHERE ${QUEUED(d)} ORDER BY j.created, j.id LIMIT 1${d.capabilities.skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
    RETURNING *`,
);

const scopeParams = (scope: ClaimScope) => ({ specs: [...scope.specs], organization: scope.organizationId });

export const RUNNERS = {
  runners: table(tableSpec('runner', { search: ['name', 'slug', 'uuid'] })),
  runnerSpecs: table(tableSpec('runner_spec', { key: ['runner_id', 'spec'] })),
  jobs: extended(
    tableSpec('job', { search: ['uuid', 'spec'] }),
    (db) => ({
      async claimable(scope) {
        if (scope.specs.length === 0) return false;
        const rows = await db.query(
          `SELECT 1 AS one FROM job j WHERE ${QUEUED(db.dialect)} LIMIT 1`,
          scopeParams(scope),
        );
        return rows.length > 0;
      },
    }),
    (db) => ({
      async claim(runnerId, scope, lease) {
        if (scope.specs.length === 0) return undefined;
        const [row] = await db.query<JobRecord>(CLAIM(db.dialect), {
          ...scopeParams(scope),
          runner: runnerId,
          expires: lease.expires,
          now: lease.now,
        });
        return row;
      },
    }),
  ),
  jobLogs: extended(
    tableSpec('job_log'),
    (db) => ({
      after: (jobId, afterId, limit) =>
        db.query<JobLogRecord>(
          'SELECT * FROM job_log WHERE job_id = $job::int AND id > $after::int ORDER BY id LIMIT $limit::int',
          { job: jobId, after: afterId, limit },
        ),
    }),
    (db) => ({
      prune: (projectId, keep) =>
        db.execute(
          `DELETE FROM job_log WHERE job_id IN (SELECT id FROM job WHERE project_id = $project::int AND id <
            (SELECT min(id) FROM (SELECT id FROM job WHERE project_id = $project::int ORDER BY id DESC LIMIT $keep::int) newest))`,
          { project: projectId, keep },
        ),
    }),
  ),
} satisfies Partial<Shared>;
