import { availableParallelism } from 'node:os';
import type { TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { WorkerError, type Logger } from '../core/index.js';

/** Worker tasks by name; each is a module `workers/tasks/<name>` whose default export is a pure function. */
export type TaskName = 'probe' | 'boundaries' | 'plot-image' | 'perf-shape' | 'change-points';

export interface WorkerPoolOptions {
  /** Threads kept alive even when idle. */
  readonly minThreads?: number;
  /** Upper bound on threads; defaults to the number of cores minus one. */
  readonly maxThreads?: number;
  /** Milliseconds an idle thread above `minThreads` lives. */
  readonly idleTimeout?: number;
  /**
   * Milliseconds a task may take from the moment it is queued; past it, a queued task is dropped and a running
   * one has its thread stopped and replaced. Either way the caller gets a WorkerError.
   */
  readonly taskTimeLimit?: number;
}

/** A task's default time limit: well above any legitimate task (a 5,000-series boundary job takes about 1 s). */
export const TASK_TIME_LIMIT_MS = 30_000;
/** How long `close` lets running tasks finish before it stops their threads. */
export const CLOSE_GRACE_MS = 2_000;
/** Seconds a client is asked to wait (Retry-After) after a task failed. */
const RETRY_AFTER_SECONDS = 5;

/** The pool's state, as the health endpoint reports it. */
export interface WorkerPoolHealth {
  /** `stuck`: a task is past its time limit and its thread would not stop; `closed`: the pool takes no work. */
  readonly status: 'ok' | 'stuck' | 'closed';
  readonly threads: number;
  readonly max_threads: number;
  /** Tasks queued or running. */
  readonly tasks_in_flight: number;
  /** Age of the oldest task queued or running, in ms (0 when idle). */
  readonly oldest_task_ms: number;
  readonly task_time_limit_ms: number;
  /** Tasks stopped at their time limit, and threads that died, since the start. */
  readonly tasks_timed_out: number;
  readonly threads_crashed: number;
}

/** True when this module runs as TypeScript source (development and tests) rather than compiled JavaScript. */
const SOURCE = import.meta.url.endsWith('.ts');
const EXTENSION = SOURCE ? '.ts' : '.js';

/** The file URL of a task module, as the workers load it. */
export function taskUrl(name: TaskName): string {
  return new URL(`./tasks/${name}${EXTENSION}`, import.meta.url).href;
}

/**
 * The Piscina pool of the API process: all pool settings live here. Tasks are loaded by module specifier; in
 * development the workers run TypeScript through tsx, in production the compiled JavaScript.
 */
export class WorkerPool {
  readonly #piscina: Piscina;
  readonly #timeLimit: number;
  /** Submission time of every task in flight. */
  readonly #inFlight = new Set<{ readonly since: number }>();
  #timedOut = 0;
  #crashed = 0;
  #closed = false;

  constructor(
    private readonly logger: Logger,
    options: WorkerPoolOptions = {},
  ) {
    // One core stays with the main thread: with every core busy in workers, the event loop's delays grow
    // (npm run bench -- boundaries measures them).
    const maxThreads = options.maxThreads ?? Math.max(1, availableParallelism() - 1);
    this.#timeLimit = options.taskTimeLimit ?? TASK_TIME_LIMIT_MS;
    this.#piscina = new Piscina({
      minThreads: Math.min(options.minThreads ?? 1, maxThreads),
      maxThreads,
      idleTimeout: options.idleTimeout ?? 60_000,
      closeTimeout: CLOSE_GRACE_MS,
      // tsx resolved from here, not from the working directory: the API may run from anywhere
      execArgv: SOURCE ? ['--import', import.meta.resolve('tsx')] : [],
    });
    this.#piscina.on('error', (error: unknown) => this.logger.error({ err: error }, 'worker thread failed'));
    this.logger.debug({ maxThreads, source: SOURCE }, 'worker pool started');
  }

  /**
   * Runs a task in a worker. Buffers in `transferList` move to the worker (they are detached here). A task past
   * its time limit, or whose thread dies, rejects with a WorkerError; the pool replaces the thread.
   */
  async run<Output>(
    task: TaskName,
    input: unknown,
    transferList: readonly TransferListItem[] = [],
  ): Promise<Output> {
    if (this.#closed) throw new Error('the worker pool is closed');
    const entry = { since: performance.now() };
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.#timeLimit);
    this.#inFlight.add(entry);
    try {
      return await this.#piscina.run(input, {
        filename: taskUrl(task),
        transferList: [...transferList] as never,
        signal: deadline.signal,
      });
    } catch (error) {
      throw this.#failure(task, error, deadline.signal.aborted);
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(entry);
    }
  }

  /** A timeout or a dead thread as a WorkerError (counted and logged); anything a task threw, unchanged. */
  #failure(task: TaskName, error: unknown, timedOut: boolean): unknown {
    const details = { task, retry_after_seconds: RETRY_AFTER_SECONDS };
    if (timedOut) {
      this.#timedOut++;
      this.logger.error({ task, limit_ms: this.#timeLimit }, 'worker task timed out: thread replaced');
      return new WorkerError(
        `the ${task} task did not finish within ${this.#timeLimit} ms and was stopped; retry later, and narrow the request (fewer points or series) if it fails again`,
        details,
      );
    }
    if (!threadDied(error)) return error;
    this.#crashed++;
    this.logger.error({ err: error, task }, 'worker thread died: thread replaced');
    return new WorkerError(
      `the worker thread running the ${task} task died (${(error as Error).message}); retry later`,
      details,
    );
  }

  get threads(): number {
    return this.#piscina.threads.length;
  }

  /** The most threads the pool runs at once: how many pieces a large job is worth splitting into. */
  get maxThreads(): number {
    return this.#piscina.maxThreads;
  }

  health(): WorkerPoolHealth {
    const now = performance.now();
    const oldest = Math.max(0, ...[...this.#inFlight].map((entry) => now - entry.since));
    // a thread that ignores termination (stuck in native code) outlives its task's limit by more than a spawn
    const stuck = oldest > this.#timeLimit + 5_000;
    return {
      status: this.#closed ? 'closed' : stuck ? 'stuck' : 'ok',
      threads: this.threads,
      max_threads: this.maxThreads,
      tasks_in_flight: this.#inFlight.size,
      oldest_task_ms: Math.round(oldest),
      task_time_limit_ms: this.#timeLimit,
      tasks_timed_out: this.#timedOut,
      threads_crashed: this.#crashed,
    };
  }

  /**
   * Drops queued tasks, lets running ones finish for {@link CLOSE_GRACE_MS} at most, then stops every thread
   * (a stuck task does not hold the shutdown). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#piscina.close({ force: true });
    this.logger.debug('worker pool stopped');
  }
}

/** Whether a task failed because its thread exited or crashed, not because the task threw. */
function threadDied(error: unknown): boolean {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return (
    code === 'ERR_WORKER_OUT_OF_MEMORY' ||
    (typeof message === 'string' && message.startsWith('worker exited with code'))
  );
}
