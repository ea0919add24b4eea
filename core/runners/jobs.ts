import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { readProjectData } from '../access/project-data.js';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { ConflictError, NotFoundError, UnauthorizedError } from '../errors.js';
import { iso } from '../schemas/common.js';
import type { jobListQuerySchema, NewJob } from '../schemas/jobs.js';
import type { ServiceContext } from '../services/context.js';
import type { JobRecord, ProjectRecord } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import { jobsJson } from './json.js';
import { appendLog, JOB_LOGS_KEPT } from './log.js';
import type { JobSignal } from './signal.js';

async function requireJob(r: ReadRepositories, project: ProjectRecord, uuid: string): Promise<JobRecord> {
  const job = await r.jobs.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!job) throw new NotFoundError(`job "${uuid}" not found`);
  return job;
}

async function jobJson(r: ReadRepositories, project: ProjectRecord, job: JobRecord) {
  const [json] = await jobsJson(r, project, [job]);
  if (!json) throw new NotFoundError(`job "${job.uuid}" not found`);
  return json;
}

/**
 * A project's jobs as its users see them: queue one (members who may write to the project, logged in), list,
 * view, read the log, cancel. Runners take jobs through JobLeases.
 */
export class JobsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly signal: JobSignal,
  ) {}

  async queue(caller: Caller, projectRef: string, input: NewJob) {
    const json = await this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'create');
      // only members may write to a project: the check above leaves no anonymous caller
      if (caller.kind !== 'user') throw new UnauthorizedError('queuing a job needs a logged-in member');
      const now = this.ctx.now();
      const { spec, timeout } = input;
      const job = await tx.jobs.insert({
        uuid: randomUUID(),
        project_id: project.id,
        user_id: caller.user.id,
        spec,
        state: 'queued',
        definition: JSON.stringify(input),
        timeout_seconds: timeout,
        runner_id: null,
        attempt: 0,
        lease_expires: null,
        heartbeat: null,
        reason: null,
        report_id: null,
        log_bytes: 0,
        log_dropped: 0,
        created: now,
        modified: now,
        started: null,
        finished: null,
      });
      return jobJson(tx, project, job);
    });
    this.signal.notify();
    return json;
  }

  async list(caller: Caller, projectRef: string, query: z.output<typeof jobListQuerySchema>) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const page = await r.jobs.list(
        {
          project_id: project.id,
          ...(query.state ? { state: query.state } : {}),
          ...(query.spec ? { spec: query.spec } : {}),
        },
        {
          page: query.page,
          perPage: query.per_page,
          sort: query.sort,
          direction: query.direction,
          ...(query.search ? { search: query.search } : {}),
        },
      );
      return { items: await jobsJson(r, project, page.items), total: page.total };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      return jobJson(r, project, await requireJob(r, project, uuid));
    });
  }

  /** The job's output after a position, oldest first: poll with the last position read to follow it. */
  async log(caller: Caller, projectRef: string, uuid: string, after: number, perPage: number) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      const job = await requireJob(r, project, uuid);
      const pieces = await r.jobLogs.after(job.id, after, perPage);
      return pieces.map((piece) => ({
        position: piece.id,
        attempt: piece.attempt,
        text: piece.text,
        created: iso(piece.created),
      }));
    });
  }

  /** Cancels a queued or running job (its runner stops the command at its next heartbeat). */
  async cancel(caller: Caller, projectRef: string, uuid: string) {
    return this.ctx.storage.transaction(
      async (tx) => {
        const { project } = await requireProject(tx, caller, projectRef, 'create');
        const job = await requireJob(tx, project, uuid);
        const now = this.ctx.now();
        const who = caller.kind === 'user' ? caller.user.slug : 'anonymous';
        const ended = () =>
          new ConflictError(`job ${job.uuid} is ${job.state}: only a queued or running job can be canceled`);
        if (job.state !== 'queued' && job.state !== 'running') throw ended();
        const changed = await tx.jobs.update(
          { id: job.id, state: job.state, attempt: job.attempt },
          {
            state: 'canceled',
            reason: `canceled by ${who}`,
            finished: now,
            lease_expires: null,
            modified: now,
          },
        );
        if (changed === 0) throw ended();
        const held = (await tx.jobs.find({ id: job.id })) ?? job;
        await tx.jobs.update(
          { id: job.id },
          await appendLog(tx, held, job.attempt, `\n[benchtrack] canceled by ${who}\n`, 0, now),
        );
        await tx.jobLogs.prune(project.id, JOB_LOGS_KEPT);
        return jobJson(tx, project, (await tx.jobs.find({ id: job.id })) as JobRecord);
      },
      { isolation: 'locked' },
    );
  }
}
