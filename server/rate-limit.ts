import { createHash } from 'node:crypto';
import { errorName, RateLimitError, type SharedCounters } from '../core/index.js';

/** The limiters' window: a key's count starts again a minute after its first event. */
const WINDOW_MS = 60_000;

/** Counts in this process's memory (one API process on its database); bounded by sweeping expired windows. */
export class MemoryCounts implements SharedCounters {
  readonly #windows = new Map<string, { start: Date; count: number }>();

  async hit(key: string, now: Date, windowMs: number): Promise<{ count: number; start: Date }> {
    let window = this.#windows.get(key);
    if (!window || now.getTime() - window.start.getTime() >= windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (this.#windows.size > 10_000) this.#sweep(now, windowMs);
    return { ...window };
  }

  #sweep(now: Date, windowMs: number): void {
    for (const [key, window] of this.#windows)
      if (now.getTime() - window.start.getTime() >= windowMs) this.#windows.delete(key);
  }
}

/** Counts in the database, shared by every API process on it (storage engines with `counters`). */
export function sharedCounts(counters: SharedCounters, name: string): SharedCounters {
  return { hit: (key, now, windowMs) => counters.hit(`${name} ${key}`, now, windowMs) };
}

/**
 * Counts events per key in one-minute windows that begin with the key's first event, in this process's memory
 * or in the database that several processes share.
 */
export class AttemptLimiter {
  constructor(
    readonly limit: number,
    private readonly counts: SharedCounters = new MemoryCounts(),
  ) {}

  /** Records one event: the key's count in its window, and the whole seconds (at least 1) until the window ends. */
  async hit(key: string): Promise<{ count: number; retryAfterSeconds: number }> {
    const now = new Date();
    const { count, start } = await this.counts.hit(key, now, WINDOW_MS);
    const left = start.getTime() + WINDOW_MS - now.getTime();
    return { count, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
  }

  /** Records an attempt and refuses it (429 with Retry-After) when the key is over its limit. */
  async take(key: string, what: string): Promise<void> {
    const { count, retryAfterSeconds } = await this.hit(key);
    if (count <= this.limit) return;
    throw new RateLimitError(
      `too many ${what} from this address; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
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
      const hits = await Promise.all(keys.map((key) => this.counts.hit(key)));
      const over = hits.filter((hit) => hit.count > this.counts.limit);
      if (over.length === 0) throw error;
      const seconds = Math.max(...over.map((hit) => hit.retryAfterSeconds));
      throw new RateLimitError(
        `too many failed authentication attempts with this credential or from this address; retry in ${seconds} s with a valid one`,
        seconds,
      );
    }
  }
}
