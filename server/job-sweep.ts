import { heartbeatTimeoutMs, type JobLeases, type LiveConfig, type Logger } from '../core/index.js';

/**
 * Returns the jobs of runners that stopped sending heartbeats to the queue, a quarter of
 * `runners.heartbeat_timeout` apart. The first sweep waits one whole timeout after the start: runners whose
 * heartbeats failed while the API was down get that long to send the next one before they lose their jobs.
 */
export class JobSweep {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    private readonly leases: JobLeases,
    private readonly config: LiveConfig,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.#arm(heartbeatTimeoutMs(this.config));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      if (this.#stopped) return;
      this.#running = this.#sweep().finally(() => {
        if (!this.#stopped) this.#arm(Math.max(Math.floor(heartbeatTimeoutMs(this.config) / 4), 250));
      });
    }, ms);
    this.#timer.unref();
  }

  async #sweep(): Promise<void> {
    try {
      const counts = await this.leases.sweep();
      if (counts.requeued + counts.failed + counts.timedOut > 0)
        this.logger.info(
          { requeued: counts.requeued, failed: counts.failed, timed_out: counts.timedOut },
          'jobs of silent runners ended',
        );
    } catch (error) {
      this.logger.error({ err: error }, 'job sweep failed');
    }
  }
}
