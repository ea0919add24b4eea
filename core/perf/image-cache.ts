/** Rendered images by query, least recently used dropped first once their bytes pass the budget. */
export class ImageCache {
  readonly #entries = new Map<string, { etag: string; bytes: Uint8Array }>();
  #bytes = 0;

  constructor(private readonly budget: number) {}

  get(key: string): { etag: string; bytes: Uint8Array } | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: { etag: string; bytes: Uint8Array }): void {
    this.#drop(key);
    if (entry.bytes.byteLength > this.budget) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes.byteLength;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.budget) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes.byteLength;
  }
}
