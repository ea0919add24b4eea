import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { runnerOfKey } from '../../../core/runners/keys.js';
import { claimedJobSchema, heartbeatAnswerSchema } from '../../../core/schemas/jobs.js';
import { reportSchema } from '../../../core/schemas/reports.js';
import { ApiError } from '../api-error.js';
import { ApiClient } from '../client.js';
import { UsageError } from '../errors.js';
import { collectResults } from '../run/execute.js';
import { checkout } from './checkout.js';
import { PendingOutput } from './output.js';
import { networkSandbox, type NetworkSandbox } from './sandbox.js';

type Job = z.output<typeof claimedJobSchema>;

export interface AgentOptions {
  readonly host: string;
  readonly key: string;
  /** Seconds a job may run at most on this runner, whatever it asks for. */
  readonly timeout?: number | undefined;
  readonly noNetwork: boolean;
  /** Where each job's work directory is made. */
  readonly workDir?: string | undefined;
  /** Stop after one job. */
  readonly once: boolean;
  readonly insecureHost?: boolean | undefined;
  readonly nativeTls?: boolean | undefined;
}

/** Seconds a claim waits for a job (the server may wait less). */
const CLAIM_WAIT = 25;
/** Output goes to the API at least this often while it comes; heartbeats without output follow the lease. */
const OUTPUT_EVERY_MS = 1000;

/** Why a job stopped before its report: the stop decides whether its attempt is ended here. */
class Stop extends Error {
  constructor(
    readonly kind: 'timeout' | 'lost' | 'ended' | 'shutdown' | 'unauthorized',
    message: string,
  ) {
    super(message);
  }
}

const say = (message: string) => process.stderr.write(`benchtrack runner: ${message}\n`);

/** The command's environment: the agent's, without its own settings (the runner key above all). */
function jobEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCHTRACK_')));
}

/**
 * `benchtrack runner up`: claims one job at a time (a long poll), runs it in a fresh work directory with the
 * repository at the job's commit, sends heartbeats with its output, submits the results as a report finishing
 * the job (or ends the attempt as failed or timed out), removes the work directory, and asks for the next.
 */
export async function runAgent(options: AgentOptions): Promise<number> {
  const runner = runnerOfKey(options.key);
  if (!runner)
    throw new UsageError(
      '--key is not a runner key (btr_...): `benchtrack runner create` or `rotate-key` prints one',
    );
  const sandbox = options.noNetwork ? await networkSandbox() : undefined;
  if (options.workDir) await mkdir(options.workDir, { recursive: true });
  const client = new ApiClient({
    host: options.host,
    token: options.key,
    insecureHost: options.insecureHost,
    nativeTls: options.nativeTls,
    timeout: CLAIM_WAIT + 30,
    attempts: 5,
    retryAfter: 1,
    maxRetryAfter: 10,
  });
  const shutdown = new AbortController();
  const stop = () => shutdown.abort(new Stop('shutdown', 'the runner is stopping'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  say(
    `runner ${runner} asks ${client.host.origin} for jobs${sandbox ? ` (no network: ${sandbox.tool})` : ''}`,
  );
  let pause = 1;
  try {
    while (!shutdown.signal.aborted) {
      let job: Job | undefined;
      try {
        const answer = await client.post(`/v0/runners/${runner}/claim`, {
          body: { wait: CLAIM_WAIT },
          schema: claimedJobSchema.optional(),
          signal: shutdown.signal,
        });
        job = answer.data;
        pause = 1;
      } catch (error) {
        if (shutdown.signal.aborted) break;
        if (error instanceof ApiError && (error.status === 401 || error.status === 404)) throw error;
        say(`cannot ask for a job (${(error as Error).message.split('\n')[0]}); again in ${pause} s`);
        await sleep(pause * 1000, undefined, { signal: shutdown.signal }).catch(() => undefined);
        pause = Math.min(pause * 2, 30);
        continue;
      }
      // a job claimed as the runner stops is left to run out its lease
      if (!job || shutdown.signal.aborted) continue;
      const outcome = await new JobRun(client, runner, job, options, sandbox, shutdown.signal).run();
      if (outcome === 'unauthorized')
        throw new UsageError(
          'the runner key stopped working (rotated, or the runner archived): start with the current key',
        );
      if (options.once) break;
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}

/** One claimed job, from checkout to report. */
class JobRun {
  readonly #output = new PendingOutput();
  readonly #stop = new AbortController();
  /** The heartbeat being sent: one at a time, in order. */
  #sending: Promise<void> = Promise.resolve();
  #done = false;

  constructor(
    private readonly client: ApiClient,
    private readonly runner: string,
    private readonly job: Job,
    private readonly options: AgentOptions,
    private readonly sandbox: NetworkSandbox | undefined,
    private readonly shutdown: AbortSignal,
  ) {}

  get #path(): string {
    return `/v0/runners/${this.runner}/jobs/${this.job.uuid}`;
  }

  async run(): Promise<'done' | 'unauthorized'> {
    const { job, shutdown } = this;
    const stopping = () => this.#stop.abort(shutdown.reason);
    shutdown.addEventListener('abort', stopping, { once: true });
    const limit = Math.min(job.timeout, this.options.timeout ?? Infinity);
    say(`job ${job.uuid} (spec ${job.spec}, attempt ${job.attempt}): ${job.command.join(' ')}`);
    const dir = await mkdtemp(join(this.options.workDir ?? tmpdir(), 'benchtrack-job-'));
    const deadline = setTimeout(
      () => this.#stop.abort(new Stop('timeout', `the job ran longer than its limit of ${limit} s`)),
      limit * 1000,
    );
    const beats = this.#beat();
    try {
      await checkout(job.repository, job.hash, dir, (text) => this.#output.write(text), this.#stop.signal);
      const collected = await collectResults(
        {
          command: job.command,
          exec: job.exec,
          shell: job.shell,
          flag: job.flag,
          files: job.file,
          fileSizes: job.file_size,
          buildTime: job.build_time,
          iterations: job.iterations,
          allowFailure: job.allow_failure,
          echo: false,
          sandbox: {
            cwd: dir,
            env: jobEnvironment(),
            output: (chunk) => this.#output.write(chunk),
            signal: this.#stop.signal,
            wrap: this.sandbox?.wrap ?? [],
          },
        },
        () => Promise.resolve(undefined),
      );
      // the last output goes before the report; heartbeats keep the lease while the report is stored
      if (!this.#output.empty) await this.#send();
      const start = job.backdate !== undefined ? new Date(job.backdate * 1000) : collected.startTime;
      const report = await this.client.post(`/v0/projects/${job.project}/reports`, {
        body: {
          branch: job.branch,
          testbed: job.spec,
          hash: job.hash,
          ...(job.start_point ? { start_point: job.start_point } : {}),
          ...(job.thresholds ? { thresholds: job.thresholds } : {}),
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + Math.round(collected.elapsedMs)).toISOString(),
          results: collected.results,
          settings: job.settings,
          job: { uuid: job.uuid, attempt: job.attempt },
        },
        schema: reportSchema,
        // the server answers a repeated report of one attempt with the first
        idempotent: true,
      });
      say(`job ${job.uuid} succeeded: report ${report.data.uuid}`);
      return 'done';
    } catch (error) {
      return await this.#failed(error);
    } finally {
      shutdown.removeEventListener('abort', stopping);
      this.#done = true;
      await beats;
      clearTimeout(deadline);
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Ends the attempt after an error, unless the job is no longer this runner's to end. */
  async #failed(error: unknown): Promise<'done' | 'unauthorized'> {
    this.#done = true;
    const reason =
      error instanceof Stop
        ? error
        : this.#stop.signal.reason instanceof Stop
          ? this.#stop.signal.reason
          : undefined;
    if (reason && reason.kind !== 'timeout') {
      say(`job ${this.job.uuid} stopped: ${reason.message}`);
      return reason.kind === 'unauthorized' ? 'unauthorized' : 'done';
    }
    if (error instanceof ApiError && [401, 404, 409].includes(error.status)) {
      say(`job ${this.job.uuid}: ${error.message.split('\n')[0]}`);
      return error.status === 401 ? 'unauthorized' : 'done';
    }
    const message =
      reason?.message ??
      (error instanceof ApiError
        ? `the API refused the report: ${error.detail}`
        : error instanceof Error
          ? error.message
          : String(error));
    say(`job ${this.job.uuid} ${reason ? 'timed out' : 'failed'}: ${message}`);
    await this.#sending;
    try {
      await this.client.post(`${this.#path}/finish`, {
        body: {
          attempt: this.job.attempt,
          state: reason ? 'timed_out' : 'failed',
          reason: (message ?? 'failed').slice(0, 2000),
          ...this.#output.take(),
        },
      });
    } catch (finishError) {
      say(`could not end job ${this.job.uuid}: ${(finishError as Error).message.split('\n')[0]}`);
    }
    return 'done';
  }

  /** Heartbeats until the job ends: every second while output comes, and at the lease's interval anyway. */
  async #beat(): Promise<void> {
    let last = Date.now();
    const interval = this.job.lease.heartbeat_interval * 1000;
    while (!this.#done) {
      await sleep(Math.min(OUTPUT_EVERY_MS, interval));
      if (this.#done) break;
      if (this.#output.empty && Date.now() - last < interval) continue;
      last = Date.now();
      await this.#send();
    }
  }

  #send(): Promise<void> {
    this.#sending = this.#sending.then(() => this.#sendNow());
    return this.#sending;
  }

  async #sendNow(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    const taken = this.#output.take();
    try {
      const answer = await this.client.post(`${this.#path}/heartbeat`, {
        body: { attempt: this.job.attempt, ...taken },
        schema: heartbeatAnswerSchema,
      });
      if (answer.data.state !== 'running')
        this.#stop.abort(new Stop('ended', `the job is ${answer.data.state}`));
    } catch (error) {
      // 409: the lease ran out; 404: the job is gone (its project was deleted)
      if (error instanceof ApiError && (error.status === 409 || error.status === 404))
        this.#stop.abort(new Stop('lost', error.detail));
      else if (error instanceof ApiError && error.status === 401)
        this.#stop.abort(new Stop('unauthorized', 'the runner key stopped working'));
      else this.#output.restore(taken);
    }
  }
}
