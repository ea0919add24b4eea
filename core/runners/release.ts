import { JOB_ATTEMPTS_MAX } from '../schemas/jobs.js';
import type { JobRecord, RunnerRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { appendLog } from './log.js';

/**
 * Ends the current attempt of a running job whose runner is gone (`why`): the job returns to the queue, or fails
 * after its last attempt. The update names the attempt, so of the runner's own report, a heartbeat, the sweep of
 * another process and this, one wins and the others change nothing. Answers the job's new state, or undefined
 * when the attempt had already ended. A note in the job's log says what happened.
 */
export async function loseAttempt(
  tx: WriteRepositories,
  job: JobRecord,
  why: string,
  now: Date,
): Promise<'queued' | 'failed' | undefined> {
  const last = job.attempt >= JOB_ATTEMPTS_MAX;
  const changed = await tx.jobs.update(
    { id: job.id, state: 'running', attempt: job.attempt, runner_id: job.runner_id },
    last
      ? {
          state: 'failed',
          reason: `${why} (attempt ${job.attempt} of ${JOB_ATTEMPTS_MAX})`,
          finished: now,
          lease_expires: null,
          modified: now,
        }
      : { state: 'queued', runner_id: null, lease_expires: null, modified: now },
  );
  if (changed === 0) return undefined;
  // the row as it is now that this transaction holds it: a heartbeat may have added output since `job` was read
  const held = (await tx.jobs.find({ id: job.id })) ?? job;
  const note = `\n[benchtrack] attempt ${job.attempt} of ${JOB_ATTEMPTS_MAX} ended: ${why}; ${last ? 'the job failed' : 'the job is queued again'}\n`;
  await tx.jobs.update({ id: job.id }, await appendLog(tx, held, job.attempt, note, 0, now));
  return last ? 'failed' : 'queued';
}

/**
 * Ends the attempt of `job` (as the sweep read it) if its lease is still out at `now`: a heartbeat may have extended
 * it since the read.
 */
export async function loseExpiredAttempt(
  tx: WriteRepositories,
  job: JobRecord,
  why: string,
  now: Date,
): Promise<'queued' | 'failed' | undefined> {
  const held = await tx.jobs.find({ id: job.id });
  if (!held || held.attempt !== job.attempt || held.runner_id !== job.runner_id) return undefined;
  if (!held.lease_expires || held.lease_expires.getTime() >= now.getTime()) return undefined;
  return loseAttempt(tx, held, why, now);
}

/** Ends the attempts of every job the runner runs (it starts afresh, or is archived); answers how many were queued again. */
export async function releaseJobs(
  tx: WriteRepositories,
  runner: RunnerRecord,
  why: string,
  now: Date,
): Promise<number> {
  let queued = 0;
  for (const job of await tx.jobs.all({ runner_id: runner.id, state: 'running' }))
    if ((await loseAttempt(tx, job, why, now)) === 'queued') queued++;
  return queued;
}
