import { ConflictError, NotFoundError } from '../errors.js';
import { iso } from '../schemas/common.js';
import type { FinishJob, Heartbeat } from '../schemas/jobs.js';
import type { ServiceContext } from '../services/context.js';
import type { JobRecord, RunnerRecord } from '../storage/records.js';
import type { ReadRepositories, TransactionOptions, WriteRepositories } from '../storage/storage.js';
import { jobsJson } from './json.js';
import { appendLog, JOB_LOGS_KEPT } from './log.js';
import { loseExpiredAttempt, releaseJobs } from './release.js';
import type { JobSignal } from './signal.js';
import { claimWaitMs, heartbeatIntervalMs, heartbeatTimeoutMs } from './timing.js';

/**
 * Lease transactions read the job and update it only where it still is what they read (its state, runner and
 * attempt): READ COMMITTED is enough, and PostgreSQL's serializable checks would only make claims run again.
 */
const LEASE: TransactionOptions = { isolation: 'locked' };

/** How often a waiting claim looks for jobs that other API processes queued. */
const POLL_MS = 1000;

/** The running job `uuid` whose current attempt `attempt` the runner holds; 404 or 409 otherwise. */
export async function heldJob(
  r: ReadRepositories,
  runner: RunnerRecord,
  uuid: string,
  attempt: number,
): Promise<JobRecord> {
  const job = await r.jobs.find({ uuid: uuid.toLowerCase() });
  if (!job) throw new NotFoundError(`job "${uuid}" not found`);
  if (job.runner_id !== runner.id || job.attempt !== attempt)
    throw new ConflictError(
      `runner "${runner.slug}" no longer holds job ${job.uuid} (attempt ${attempt}; the job is ${job.state}, attempt ${job.attempt}): its lease ran out; drop the job`,
    );
  return job;
}

/** The update that only applies while the runner's attempt is the job's running one. */
const leaseOf = (job: JobRecord) => ({
  id: job.id,
  state: 'running' as const,
  runner_id: job.runner_id,
  attempt: job.attempt,
});

/** Marks the runner's attempt succeeded with its report, in the transaction that stored the report. */
export async function completeJob(
  tx: WriteRepositories,
  job: JobRecord,
  reportId: number,
  now: Date,
): Promise<void> {
  const changed = await tx.jobs.update(leaseOf(job), {
    state: 'succeeded',
    report_id: reportId,
    finished: now,
    lease_expires: null,
    modified: now,
  });
  if (changed === 0)
    throw new ConflictError(`job ${job.uuid} ended while its report was being stored; nothing was stored`);
  await tx.jobLogs.prune(job.project_id, JOB_LOGS_KEPT);
}

/**
 * The runners' side of jobs: claim (a long poll), heartbeats that extend the lease and carry output, the end of a
 * failed attempt, and the sweep that returns the jobs of silent runners to the queue.
 */
export class JobLeases {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly signal: JobSignal,
  ) {}

  /**
   * Waits up to `waitSeconds` (at most half the heartbeat timeout) for a queued job of the runner's specs and
   * hands it over. A runner that asks for a job runs none: the jobs it held from an earlier start go back to the
   * queue first.
   */
  async claim(runner: RunnerRecord, waitSeconds: number, abort?: AbortSignal) {
    const timeoutMs = heartbeatTimeoutMs(this.ctx.config);
    const deadline = Date.now() + claimWaitMs(waitSeconds, timeoutMs);
    const { specs, released } = await this.ctx.storage.transaction(async (tx) => {
      const now = this.ctx.now();
      await tx.runners.update({ id: runner.id }, { last_seen: now });
      const released = await releaseJobs(tx, runner, `runner "${runner.slug}" started again`, now);
      return { specs: (await tx.runnerSpecs.all({ runner_id: runner.id })).map((s) => s.spec), released };
    }, LEASE);
    if (released > 0) this.signal.notify();
    const scope = { specs, organizationId: runner.organization_id };
    for (;;) {
      // a runner that hung up would not learn of a job claimed for it: its lease would have to run out
      if (abort?.aborted) return undefined;
      if (await this.ctx.storage.read((r) => r.jobs.claimable(scope))) {
        const claimed = await this.ctx.storage.transaction(async (tx) => {
          const now = this.ctx.now();
          const job = await tx.jobs.claim(runner.id, scope, {
            now,
            expires: new Date(now.getTime() + timeoutMs),
          });
          if (job)
            await tx.jobs.update(
              { id: job.id },
              await appendLog(
                tx,
                job,
                job.attempt,
                `[benchtrack] attempt ${job.attempt} on runner "${runner.slug}"\n`,
                0,
                now,
              ),
            );
          return job;
        }, LEASE);
        if (claimed) return this.#claimed(claimed, timeoutMs);
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await this.signal.wait(Math.min(left, POLL_MS), abort);
    }
  }

  async #claimed(job: JobRecord, timeoutMs: number) {
    const [json] = await this.ctx.storage.read(async (r) => {
      const project = await r.projects.find({ id: job.project_id });
      return jobsJson(r, project ?? { uuid: '' }, [job]);
    });
    return {
      ...(json as NonNullable<typeof json>),
      lease: {
        expires: iso(job.lease_expires ?? this.ctx.now()),
        heartbeat_interval: heartbeatIntervalMs(timeoutMs) / 1000,
      },
    };
  }

  /**
   * Extends the lease and appends the output that came with the heartbeat. A job canceled, timed out or failed
   * meanwhile answers its state (the runner stops the command); a lease that ran out is a 409.
   */
  async heartbeat(runner: RunnerRecord, uuid: string, beat: Heartbeat) {
    const timeoutMs = heartbeatTimeoutMs(this.ctx.config);
    return this.ctx.storage.transaction(async (tx) => {
      const now = this.ctx.now();
      const job = await heldJob(tx, runner, uuid, beat.attempt);
      await tx.runners.update({ id: runner.id }, { last_seen: now });
      const expires = new Date(now.getTime() + timeoutMs);
      const changed = await tx.jobs.update(leaseOf(job), {
        lease_expires: expires,
        heartbeat: now,
        modified: now,
      });
      if (changed === 0) {
        const state = (await tx.jobs.find({ id: job.id }))?.state ?? job.state;
        return { state, lease_expires: null };
      }
      await this.#output(tx, job, beat, now);
      return { state: 'running' as const, lease_expires: iso(expires) };
    }, LEASE);
  }

  /** Ends the runner's attempt as failed or timed out: a job does not run again after its command failed. */
  async finish(runner: RunnerRecord, uuid: string, end: FinishJob) {
    await this.ctx.storage.transaction(async (tx) => {
      const now = this.ctx.now();
      const job = await heldJob(tx, runner, uuid, end.attempt);
      const changed = await tx.jobs.update(leaseOf(job), {
        state: end.state,
        reason: end.reason,
        finished: now,
        lease_expires: null,
        modified: now,
      });
      if (changed === 0)
        throw new ConflictError(`job ${job.uuid} is ${job.state}, not running: nothing to end`);
      await this.#output(tx, job, end, now);
      await tx.jobLogs.prune(job.project_id, JOB_LOGS_KEPT);
    }, LEASE);
  }

  async #output(tx: WriteRepositories, job: JobRecord, beat: Heartbeat, now: Date): Promise<void> {
    if (!beat.output && beat.dropped === 0) return;
    const held = (await tx.jobs.find({ id: job.id })) ?? job;
    await tx.jobs.update(
      { id: job.id },
      await appendLog(tx, held, job.attempt, beat.output ?? '', beat.dropped, now),
    );
  }

  /**
   * Returns to the queue (or fails, after the last attempt) every running job whose lease ran out, and times out
   * one that ran past its own timeout by more than the heartbeat timeout (its runner should have stopped it).
   * Safe in several processes at once: each change applies only to the attempt it read.
   */
  async sweep(): Promise<{ requeued: number; failed: number; timedOut: number }> {
    const timeoutMs = heartbeatTimeoutMs(this.ctx.config);
    const { running, runners } = await this.ctx.storage.read(async (r) => {
      const running = await r.jobs.all({ state: 'running' });
      const ids = [...new Set(running.map((job) => job.runner_id ?? 0))];
      return { running, runners: await r.runners.all({ id: ids }) };
    });
    const counts = { requeued: 0, failed: 0, timedOut: 0 };
    const now = this.ctx.now();
    for (const job of running) {
      const runner = runners.find((candidate) => candidate.id === job.runner_id);
      const overdue = (job.started?.getTime() ?? Infinity) + job.timeout_seconds * 1000 + timeoutMs;
      if (job.lease_expires && job.lease_expires.getTime() < now.getTime()) {
        const why = `runner "${runner?.slug ?? '?'}" sent no heartbeat for ${this.ctx.config.current.runners.heartbeat_timeout}`;
        const outcome = await this.ctx.storage.transaction(
          (tx) => loseExpiredAttempt(tx, job, why, this.ctx.now()),
          LEASE,
        );
        if (outcome === 'queued') counts.requeued++;
        if (outcome === 'failed') counts.failed++;
      } else if (overdue < now.getTime()) {
        const changed = await this.ctx.storage.transaction(
          (tx) =>
            tx.jobs.update(leaseOf(job), {
              state: 'timed_out',
              reason: `ran longer than its timeout of ${job.timeout_seconds} s, and its runner did not stop it`,
              finished: this.ctx.now(),
              lease_expires: null,
              modified: this.ctx.now(),
            }),
          LEASE,
        );
        counts.timedOut += changed;
      }
    }
    if (counts.requeued > 0) this.signal.notify();
    return counts;
  }
}
