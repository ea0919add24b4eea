/**
 * Wakes the claims that wait in this process for a job (long polls) when one is queued or returned to the queue
 * here. Jobs queued by other processes on a shared database are found by the waiters' own periodic look.
 */
export class JobSignal {
  readonly #waiters = new Set<() => void>();

  notify(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /** Resolves at the next `notify`, after `ms`, or when `abort` fires, whichever comes first. */
  wait(ms: number, abort?: AbortSignal): Promise<void> {
    if (abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}
