import type { Logger, NotificationDispatcher, NotificationSignal } from '../core/index.js';

/** Attempts one process makes at once: a slow receiver holds one place, not the loop. */
const IN_FLIGHT_MAX = 16;

/**
 * The delivery loop of one API process: a pass makes the day's digests after midnight UTC (once, whatever the
 * number of processes), fans out new notifications, and claims the deliveries due into the free places, whose
 * attempts run on while the loop waits for the next pass. A pass comes when the earliest pending delivery is due,
 * `pollMs` after the last at most (work other processes made), and at once when a change of this process or a
 * finished attempt wakes it. Stopping waits for the attempts in flight.
 */
export class NotificationLoop {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly dispatcher: NotificationDispatcher,
    private readonly signal: NotificationSignal,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  start(): void {
    this.#running = this.#run();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
    await Promise.all([...this.#inFlight]);
  }

  async #run(): Promise<void> {
    const { pollMs } = this.dispatcher.timing;
    while (!this.#abort.signal.aborted) {
      let wait = pollMs;
      try {
        wait = await this.#pass();
      } catch (error) {
        this.logger.error({ err: error }, 'notification delivery pass failed');
      }
      if (this.#abort.signal.aborted) return;
      await this.signal.wait(Math.min(Math.max(wait, 0), pollMs), this.#abort.signal);
    }
  }

  /** One pass; answers how long to wait before the next one. */
  async #pass(): Promise<number> {
    const { pollMs } = this.dispatcher.timing;
    const found = await this.dispatcher.due();
    let { next } = found;
    const digests = found.digests ? await this.dispatcher.digests() : 0;
    if (found.waiting || digests > 0) {
      await this.dispatcher.fanOut();
      ({ next } = await this.dispatcher.due());
    }
    if (next === undefined) return pollMs;
    const wait = next.getTime() - this.now().getTime();
    if (wait > 0) return wait;
    // every place taken: a finished attempt wakes the loop
    const free = IN_FLIGHT_MAX - this.#inFlight.size;
    if (free === 0) return pollMs;
    for (const delivery of await this.dispatcher.claim(free)) {
      const attempt: Promise<void> = this.dispatcher.attempt(delivery).finally(() => {
        this.#inFlight.delete(attempt);
        this.signal.notify();
      });
      this.#inFlight.add(attempt);
    }
    return pollMs;
  }
}
