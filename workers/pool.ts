import { availableParallelism } from 'node:os';
import type { TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from '../core/index.js';

/** Worker tasks by name; each is a module `workers/tasks/<name>` whose default export is a pure function. */
export type TaskName = 'probe' | 'boundaries' | 'plot-image' | 'perf-shape' | 'change-points';

export interface WorkerPoolOptions {
  /** Threads kept alive even when idle. */
  readonly minThreads?: number;
  /** Upper bound on threads; defaults to the number of cores minus one. */
  readonly maxThreads?: number;
  /** Milliseconds an idle thread above `minThreads` lives. */
  readonly idleTimeout?: number;
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
  #closed = false;

  constructor(
    private readonly logger: Logger,
    options: WorkerPoolOptions = {},
  ) {
    // One core stays with the main thread: with every core busy in workers, the event loop's p99 delay
    // doubled (9-23 ms vs 4-7 ms with one worker on 2 cores, npm run bench -- boundaries).
    const maxThreads = options.maxThreads ?? Math.max(1, availableParallelism() - 1);
    this.#piscina = new Piscina({
      minThreads: Math.min(options.minThreads ?? 1, maxThreads),
      maxThreads,
      idleTimeout: options.idleTimeout ?? 60_000,
      // tsx resolved from here, not from the working directory: the API may run from anywhere
      execArgv: SOURCE ? ['--import', import.meta.resolve('tsx')] : [],
    });
    this.#piscina.on('error', (error: unknown) => this.logger.error({ err: error }, 'worker thread failed'));
    this.logger.debug({ maxThreads, source: SOURCE }, 'worker pool started');
  }

  /** Runs a task in a worker. Buffers in `transferList` move to the worker (they are detached here). */
  run<Output>(
    task: TaskName,
    input: unknown,
    transferList: readonly TransferListItem[] = [],
  ): Promise<Output> {
    if (this.#closed) return Promise.reject(new Error('the worker pool is closed'));
    return this.#piscina.run(input, { filename: taskUrl(task), transferList: [...transferList] as never });
  }

  get threads(): number {
    return this.#piscina.threads.length;
  }

  /** The most threads the pool runs at once: how many pieces a large job is worth splitting into. */
  get maxThreads(): number {
    return this.#piscina.maxThreads;
  }

  /** Lets running tasks finish, then stops every thread. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#piscina.close();
    this.logger.debug('worker pool stopped');
  }
}
