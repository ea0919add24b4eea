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
} from '../../../../kit/index.js';
import { execute, query, type Connection } from '../sql.js';
import { tableReader, tableWriter, type TableSpec } from '../table.js';

const TIMES = ['created', 'modified'] as const;

export const runners: TableSpec = {
  name: 'runner',
  columns: ['id', 'uuid', 'organization_id', 'name', 'slug', 'key_hash', 'archived', 'last_seen', ...TIMES],
  search: ['name', 'slug', 'uuid'],
};
export const runnerSpecs: TableSpec = {
  name: 'runner_spec',
  columns: ['runner_id', 'spec'],
  key: ['runner_id', 'spec'],
};
export const jobs: TableSpec = {
  name: 'job',
  columns: [
    'id',
    'uuid',
    'project_id',
    'user_id',
    'spec',
    'state',
    'definition',
    'timeout_seconds',
    'runner_id',
    'attempt',
    'lease_expires',
    'heartbeat',
    'reason',
    'report_id',
    'log_bytes',
    'log_dropped',
    ...TIMES,
    'started',
    'finished',
  ],
  search: ['uuid', 'spec'],
};
export const jobLogs: TableSpec = {
  name: 'job_log',
  columns: ['id', 'job_id', 'attempt', 'text', 'created'],
};

/** The queued jobs a scope may take (alias `j`), read through the partial index of the queue. */
const QUEUED = `j.state = 'queued' AND j.spec = ANY($specs::text[])
  AND ($organization::int IS NULL OR j.project_id IN (SELECT id FROM project WHERE organization_id = $organization::int))`;

const scopeParams = (scope: ClaimScope) => ({
  specs: [...scope.specs],
  organization: scope.organizationId,
});

function jobsReader(connection: Connection): JobsReader {
  return {
    ...tableReader<JobRecord>(connection, jobs),
    async claimable(scope) {
      if (scope.specs.length === 0) return false;
      const rows = await query<{ one: number }>(
        connection,
        `SELECT 1 AS one FROM job j WHERE ${QUEUED} LIMIT 1`,
        scopeParams(scope),
      );
      return rows.length > 0;
    },
  };
}

function jobsWriter(connection: Connection): JobsWriter {
  return {
    ...tableWriter<JobRecord, never>(connection, jobs),
    ...jobsReader(connection),
    async claim(runnerId, scope, lease) {
      if (scope.specs.length === 0) return undefined;
      // concurrent claims of any process skip the row one of them locked and take the next queued job
      const [row] = await query<JobRecord>(
        connection,
        `UPDATE job SET state = 'running', runner_id = $runner::int, attempt = attempt + 1,
            lease_expires = $expires::timestamptz, heartbeat = $now::timestamptz, started = $now::timestamptz,
            modified = $now::timestamptz
          WHERE id = (SELECT j.id FROM job j WHERE ${QUEUED} ORDER BY j.created, j.id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        { ...scopeParams(scope), runner: runnerId, expires: lease.expires, now: lease.now },
      );
      return row;
    },
  };
}

function jobLogsReader(connection: Connection): JobLogsReader {
  return {
    ...tableReader<JobLogRecord>(connection, jobLogs),
    after: (jobId, afterId, limit) =>
      query<JobLogRecord>(
        connection,
        `SELECT * FROM job_log WHERE job_id = $job::int AND id > $after::int ORDER BY id LIMIT $limit::int`,
        { job: jobId, after: afterId, limit },
      ),
  };
}

function jobLogsWriter(connection: Connection): JobLogsWriter {
  return {
    ...tableWriter<JobLogRecord, never>(connection, jobLogs),
    ...jobLogsReader(connection),
    prune: (projectId, keep) =>
      execute(
        connection,
        `DELETE FROM job_log WHERE job_id IN (SELECT id FROM job WHERE project_id = $project::int AND id <
            (SELECT min(id) FROM (SELECT id FROM job WHERE project_id = $project::int ORDER BY id DESC LIMIT $keep::int) newest))`,
        { project: projectId, keep },
      ),
  };
}

export function runnerReaders(
  connection: Connection,
): Pick<ReadRepositories, 'runners' | 'runnerSpecs' | 'jobs' | 'jobLogs'> {
  return {
    runners: tableReader(connection, runners),
    runnerSpecs: tableReader(connection, runnerSpecs),
    jobs: jobsReader(connection),
    jobLogs: jobLogsReader(connection),
  };
}

export function runnerWriters(
  connection: Connection,
): Pick<WriteRepositories, 'runners' | 'runnerSpecs' | 'jobs' | 'jobLogs'> {
  return {
    runners: tableWriter(connection, runners),
    runnerSpecs: tableWriter(connection, runnerSpecs),
    jobs: jobsWriter(connection),
    jobLogs: jobLogsWriter(connection),
  };
}
