import { UnavailableError } from './errors.js';

/** A place in a {@link WorkLimit}: `ready` settles once it may run; `leave` frees it, whatever its state. */
export interface WorkTicket {
  readonly ready: Promise<void>;
  leave(): void;
}

export interface WorkLimitOptions {
  /** What is limited, for messages: `heavy requests (perf answers, images, expanded lists)`. */
  readonly what: string;
  /** At most this many run at once. */
  readonly concurrency: number;
  /** At most this many wait for a place; more are refused. */
  readonly queue: number;
  /** What a refused caller is told to wait before retrying (seconds). */
  readonly retryAfterSeconds: number;
}

/**
 * Bounds work in flight, so memory stays bounded however many callers ask at once: `concurrency` run, `queue`
 * wait in arrival order, and the rest are refused at once with an UnavailableError carrying
 * `details.retry_after_seconds` (the HTTP layer answers 503 with Retry-After).
 */
export class WorkLimit {
  #running = 0;
  readonly #waiting: { grant(): void; refuse(error: Error): void }[] = [];

  constructor(readonly options: WorkLimitOptions) {}

  /** How many run and how many wait now. */
  get state(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** Takes a place or a spot in the queue; throws UnavailableError when both are full. */
  enter(): WorkTicket {
    const { concurrency, queue, retryAfterSeconds, what } = this.options;
    let state: 'waiting' | 'running' | 'left' = 'running';
    const leave = () => {
      if (state === 'running') this.#release();
      else if (state === 'waiting') {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        waiter.refuse(new UnavailableError(`${what}: the request ended while it waited`));
      }
      state = 'left';
    };
    const waiter = { grant: () => {}, refuse: (_error: Error) => {} };
    if (this.#running < concurrency) {
      this.#running++;
      return { ready: Promise.resolve(), leave };
    }
    if (this.#waiting.length >= queue) {
      throw new UnavailableError(
        `the server is busy with ${what} (${this.#running} running, ${this.#waiting.length} waiting); retry in ${retryAfterSeconds} s, or ask for less at once`,
        { retry_after_seconds: retryAfterSeconds },
      );
    }
    state = 'waiting';
    const ready = new Promise<void>((resolve, reject) => {
      waiter.grant = () => {
        state = 'running';
        resolve();
      };
      waiter.refuse = reject;
    });
    // a request that ends while it waits rejects a promise nobody may await any more
    ready.catch(() => {});
    this.#waiting.push(waiter);
    return { ready, leave };
  }

  /** A freed place goes to the first waiter (the running count stays), or back to the pool. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.grant();
    else this.#running--;
  }
}
