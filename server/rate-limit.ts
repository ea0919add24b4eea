import { RateLimitError } from '../core/index.js';

/**
 * Counts attempts per key (client address) in fixed windows. Guards the authentication endpoints and
 * token verification against brute force; memory is bounded by sweeping expired windows.
 */
export class AttemptLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one attempt. */
  hit(key: string): void {
    const now = this.now();
    const window = this.#current(key, now);
    window.count += 1;
    if (this.#windows.size > 10_000) this.#sweep(now);
  }

  exhausted(key: string): boolean {
    return this.#current(key, this.now()).count >= this.limit;
  }

  /** Records an attempt and refuses it when the key is over its limit. */
  take(key: string, what: string): void {
    if (this.exhausted(key)) {
      throw new RateLimitError(`too many ${what} from this address; wait a minute and retry`);
    }
    this.hit(key);
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
