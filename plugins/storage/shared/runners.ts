import type {
  ClaimScope,
  JobLogRecord,
  JobLogsReader,
  JobLogsWriter,
  JobRecord,
  JobsReader,
  JobsWriter,
  ReadRepositories,
  WriteRepositories,
} from '../../../kit/index.js';
import { perDialect, type Db } from './sql.js';
import { tableReader, tableSpec, tableWriter } from './table.js';

const runners = tableSpec('runner', { search: ['name', 'slug', 'uuid'] });
const runnerSpecs = tableSpec('runner_spec', { key: ['runner_id', 'spec'] });
const jobs = tableSpec('job', { search: ['uuid', 'spec'] });
const jobLogs = tableSpec('job_log');

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

function jobsReader(db: Db): JobsReader {
  return {
    ...tableReader<JobRecord>(db, jobs),
    async claimable(scope) {
      if (scope.specs.length === 0) return false;
      const rows = await db.query(
        `SELECT 1 AS one FROM job j WHERE ${QUEUED(db.dialect)} LIMIT 1`,
        scopeParams(scope),
      );
      return rows.length > 0;
    },
  };
}

function jobLogsReader(db: Db): JobLogsReader {
  return {
    ...tableReader<JobLogRecord>(db, jobLogs),
    after: (jobId, afterId, limit) =>
      db.query<JobLogRecord>(
        'SELECT * FROM job_log WHERE job_id = $job::int AND id > $after::int ORDER BY id LIMIT $limit::int',
        { job: jobId, after: afterId, limit },
      ),
  };
}

/** The runner repositories that are a table and nothing more. */
export const RUNNER_TABLES = { runners, runnerSpecs };

export function runnerReaders(db: Db): Pick<ReadRepositories, 'jobs' | 'jobLogs'> {
  return { jobs: jobsReader(db), jobLogs: jobLogsReader(db) };
}

export function runnerWriters(db: Db): Pick<WriteRepositories, 'jobs' | 'jobLogs'> {
  const jobsWriter: JobsWriter = {
    ...tableWriter<JobRecord, never>(db, jobs),
    ...jobsReader(db),
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
  };
  const jobLogsWriter: JobLogsWriter = {
    ...tableWriter<JobLogRecord, never>(db, jobLogs),
    ...jobLogsReader(db),
    prune: (projectId, keep) =>
      db.execute(
        `DELETE FROM job_log WHERE job_id IN (SELECT id FROM job WHERE project_id = $project::int AND id <
          (SELECT min(id) FROM (SELECT id FROM job WHERE project_id = $project::int ORDER BY id DESC LIMIT $keep::int) newest))`,
        { project: projectId, keep },
      ),
  };
  return { jobs: jobsWriter, jobLogs: jobLogsWriter };
}
