import { createHash } from 'node:crypto';
import { errorName, RateLimitError } from '../core/index.js';

/** Counts events per key in fixed windows; memory is bounded by sweeping expired windows. */
export class AttemptLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one event and returns how many the key has in its current window. */
  hit(key: string): number {
    const now = this.now();
    const window = this.#current(key, now);
    window.count += 1;
    if (this.#windows.size > 10_000) this.#sweep(now);
    return window.count;
  }

  /** Whole seconds until the key's window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds(key: string): number {
    const now = this.now();
    return Math.max(1, Math.ceil((this.#current(key, now).start + this.windowMs - now) / 1000));
  }

  /** Records an attempt and refuses it (429 with Retry-After) when the key is over its limit. */
  take(key: string, what: string): void {
    if (this.hit(key) <= this.limit) return;
    const seconds = this.retryAfterSeconds(key);
    throw new RateLimitError(`too many ${what} from this address; retry in ${seconds} s`, seconds);
  }

  #current(key: string, now: number) {
    let window = this.#windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows)
      if (now - window.start >= this.windowMs) this.#windows.delete(key);
  }
}

/**
 * The failure limiter of credentials (tokens and e-mailed links). Failures are counted per client address
 * and per credential, separately; once either is over the limit, a failure answers 429 with Retry-After
 * instead of 401. A credential is always checked first, so a valid one is never refused, whatever failed
 * before it from the same address (clients behind one proxy or NAT). Forged tokens cost one HMAC each.
 */
export class FailureLimiter {
  constructor(private readonly counts: AttemptLimiter) {}

  async check<T>(address: string, credential: string, verify: () => Promise<T>): Promise<T> {
    try {
      return await verify();
    } catch (error) {
      if (errorName(error) !== 'UnauthorizedError') throw error;
      const keys = [
        `address ${address}`,
        `credential ${createHash('sha256').update(credential).digest('hex')}`,
      ];
      const over = keys.filter((key) => this.counts.hit(key) > this.counts.limit);
      if (over.length === 0) throw error;
      const seconds = Math.max(...over.map((key) => this.counts.retryAfterSeconds(key)));
      throw new RateLimitError(
        `too many failed authentication attempts with this credential or from this address; retry in ${seconds} s with a valid one`,
        seconds,
      );
    }
  }
}
