/**
 * The newest values of the series ingest tests, kept beside the writer: ingest's largest read, a report's history,
 * comes from here instead of the metric table.
 *
 * Why it is exact: only this process writes the file, one transaction at a time. An entry holds one
 * series' newest `n` values on one head, newest first, or all of them (`complete`). A transaction's entries become
 * the committed ones when it commits; a rollback, or a statement that changes history otherwise (an update or
 * delete of metric, report, version or head_version, an unknown target, compaction's swap), empties the cache.
 * Inserts into report, version and head_version keep entries exact: metrics arrive only through `append`, and a
 * head's versions are linked when the version is new (no metrics yet) or the head is (nothing cached for it).
 */
import { touch } from './cache.js';

/** Values kept at most over all entries (about 40 bytes each); the least recently used entries go first. */
const HISTORY_CACHE_SAMPLES = 1_000_000;

/** Tables whose rows, changed other than by an insert, change some series' history. */
const HISTORY_TABLES = ['metric', 'report', 'version', 'head_version'];

/** One value of a series: what history answers, and what orders it. */
export interface CachedSample {
  readonly value: number;
  /** The metric's id, as the answer carries it (made once, not for every answer that holds the value). */
  readonly id: bigint;
  readonly start: number;
  readonly report: number;
  readonly iteration: number;
}

export interface HistoryEntry {
  /** Newest first. */
  readonly samples: readonly CachedSample[];
  /** At most this many are kept. */
  readonly capacity: number;
  /** True when `samples` is the whole history of the series on the head. */
  readonly complete: boolean;
}

const key = (head: number, series: number) => `${head}:${series}`;

/** Newer first: by start time, then report, then iteration. */
function newer(a: CachedSample, b: CachedSample): boolean {
  return a.start !== b.start
    ? a.start > b.start
    : a.report !== b.report
      ? a.report > b.report
      : a.iteration > b.iteration;
}

export class HistoryCache {
  readonly #committed = new Map<string, HistoryEntry>();
  #size = 0;
  /** Entries read or changed by the running transaction. */
  readonly #pending = new Map<string, HistoryEntry>();
  /** The running transaction changed history in a way the cache does not follow. */
  #poisoned = false;
  #hits = 0;
  #misses = 0;

  /** An entry that holds the newest `n` values of the series, as the running transaction sees them. */
  get(head: number, series: number, n: number): HistoryEntry | undefined {
    const k = key(head, series);
    const entry = this.#poisoned ? undefined : (this.#pending.get(k) ?? touch(this.#committed, k));
    if (entry && (entry.complete || entry.capacity >= n)) {
      this.#hits++;
      return entry;
    }
    this.#misses++;
    return undefined;
  }

  /** Keeps what the running transaction read from the table: the newest `capacity` values or all of them. */
  set(head: number, series: number, samples: readonly CachedSample[], capacity: number): void {
    if (this.#poisoned) return;
    this.#pending.set(key(head, series), {
      samples: samples.slice(0, capacity) as CachedSample[],
      capacity,
      complete: samples.length < capacity,
    });
  }

  /** Values the running transaction appended to series on a head. */
  appended(head: number, series: ArrayLike<number>, samples: readonly CachedSample[]): void {
    if (this.#poisoned) return;
    for (let i = 0; i < samples.length; i++) {
      const k = key(head, series[i] as number);
      const sample = samples[i] as CachedSample;
      const pending = this.#pending.get(k);
      // an entry of the running transaction is its own to change; a committed one is copied first (a rollback
      // keeps it as it was)
      if (pending) insert(pending as MutableEntry, sample);
      else {
        const committed = this.#committed.get(k);
        if (committed)
          this.#pending.set(k, insert({ ...committed, samples: [...committed.samples] }, sample));
      }
    }
  }

  /** A statement other than a plain SELECT or an append ran on the writer: `table` is its target ('*': unknown). */
  changed(table: string, insert: boolean): void {
    if (table === '*' || (!insert && HISTORY_TABLES.includes(table)) || (insert && table === 'metric'))
      this.#poisoned = true;
  }

  /** The running transaction ended: its entries become the committed ones, or everything is dropped. */
  end(committed: boolean): void {
    if (committed && !this.#poisoned) {
      for (const [k, entry] of this.#pending) this.#store(k, entry);
    } else if (this.#pending.size > 0 || this.#poisoned) {
      this.#committed.clear();
      this.#size = 0;
    }
    this.#pending.clear();
    this.#poisoned = false;
  }

  get stats(): { entries: number; samples: number; hits: number; misses: number } {
    return { entries: this.#committed.size, samples: this.#size, hits: this.#hits, misses: this.#misses };
  }

  #store(k: string, entry: HistoryEntry): void {
    this.#size += entry.samples.length - (this.#committed.get(k)?.samples.length ?? 0);
    this.#committed.delete(k);
    this.#committed.set(k, entry);
    for (const [oldest, dropped] of this.#committed) {
      if (this.#size <= HISTORY_CACHE_SAMPLES) break;
      this.#committed.delete(oldest);
      this.#size -= dropped.samples.length;
    }
  }
}

type MutableEntry = { -readonly [K in keyof HistoryEntry]: HistoryEntry[K] } & { samples: CachedSample[] };

/**
 * Puts `sample` in its place in `entry` (changed in place, and answered); the oldest value falls out when the
 * entry is full. Searched from the newest end: an appended value is usually the newest.
 */
function insert(entry: MutableEntry, sample: CachedSample): MutableEntry {
  const samples = entry.samples;
  let at = 0;
  while (at < samples.length && !newer(sample, samples[at] as CachedSample)) at++;
  samples.splice(at, 0, sample);
  if (samples.length > entry.capacity) {
    samples.pop();
    entry.complete = false;
  }
  return entry;
}
