import type { LiveConfig, Logger, StatsService } from '../core/index.js';

const DAY_MS = 86_400_000;

/**
 * Takes the daily statistics snapshot at `plus.stats.offset` seconds after midnight UTC (03:07:22 by default)
 * unless `plus.stats.enabled` is false, and at start when today's time has passed without one (a server that was
 * down then). The snapshot stays in the database; nothing is sent anywhere.
 */
export class StatsSchedule {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    private readonly stats: StatsService,
    private readonly config: LiveConfig,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  start(): void {
    if (!this.#enabled()) return;
    if (this.#sinceOffset(this.now()) >= 0) this.#take();
    this.#arm();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #enabled(): boolean {
    return this.config.current.plus?.stats?.enabled ?? true;
  }

  /** Milliseconds since today's collection time (negative before it). */
  #sinceOffset(now: Date): number {
    const offset = (this.config.current.plus?.stats?.offset ?? 11_242) * 1000;
    return (now.getTime() % DAY_MS) - offset;
  }

  #arm(): void {
    const since = this.#sinceOffset(this.now());
    const wait = since < 0 ? -since : DAY_MS - since;
    this.#timer = setTimeout(() => {
      if (this.#stopped) return;
      if (this.#enabled()) this.#take();
      this.#arm();
    }, wait);
    this.#timer.unref();
  }

  #take(): void {
    this.#running = this.#running
      .then(() => this.stats.snapshot())
      .then((outcome) => {
        if (outcome === 'saved') this.logger.info({}, 'server statistics snapshot saved');
        else if (outcome === 'exists') this.logger.debug({}, "server statistics snapshot: today's exists");
        else this.logger.debug({}, 'server statistics snapshot: another process is taking it');
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'server statistics snapshot failed'));
  }
}
