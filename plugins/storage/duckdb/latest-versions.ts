/**
 * The newest version of each head (`heads.latestVersion`), kept beside the writer so that a report does not join
 * version and head_version to number its version.
 *
 * Why it is exact: as for the history cache, only this process writes, one transaction at a time. An entry is what
 * the transaction read, or the version it inserted and then linked to the head when numbered above the entry's.
 * A commit keeps a transaction's entries, a rollback drops them; any other write to version or head_version
 * empties the cache.
 */
import type { VersionRecord } from '../../../kit/index.js';
import { touch } from './cache.js';

/** Heads kept at most; the least recently used go first. */
const CAPACITY = 4_096;

/** What is known of a head: its newest version, or none (no version yet). */
type Entry = VersionRecord | null;

export class LatestVersions {
  readonly #committed = new Map<number, Entry>();
  readonly #pending = new Map<number, Entry | 'unknown'>();
  /** Versions the running transaction inserted, by id. */
  readonly #inserted = new Map<number, VersionRecord>();
  #poisoned = false;

  /** The head's newest version as the running transaction sees it: a record, null (none), or undefined (unknown). */
  get(head: number): Entry | undefined {
    if (this.#poisoned) return undefined;
    const pending = this.#pending.get(head);
    if (pending === 'unknown') return undefined;
    return pending !== undefined ? pending : touch(this.#committed, head);
  }

  /** What the running transaction read from the table. */
  set(head: number, latest: Entry): void {
    if (!this.#poisoned) this.#pending.set(head, latest);
  }

  /** The running transaction inserted `version` (not yet linked to any head). */
  inserted(version: VersionRecord): void {
    this.#inserted.set(version.id, version);
  }

  /** The running transaction linked `versionId` to `head`. */
  linked(head: number, versionId: number): void {
    if (this.#poisoned) return;
    const version = this.#inserted.get(versionId);
    const current = this.get(head);
    if (!version || current === undefined) this.#pending.set(head, 'unknown');
    else if (current === null || version.number > current.number) this.#pending.set(head, version);
  }

  /** A statement other than a plain SELECT ran on the writer: `table` is its target ('*': unknown). */
  changed(table: string): void {
    if (table === '*' || table === 'version' || table === 'head_version') this.#poisoned = true;
  }

  /** The running transaction ended: its entries become the committed ones, or are dropped. */
  end(committed: boolean): void {
    if (this.#poisoned && committed) this.#committed.clear();
    else if (committed) {
      for (const [head, entry] of this.#pending) {
        this.#committed.delete(head);
        if (entry !== 'unknown') this.#committed.set(head, entry);
      }
      while (this.#committed.size > CAPACITY) this.#committed.delete(this.#committed.keys().next().value!);
    }
    this.#pending.clear();
    this.#inserted.clear();
    this.#poisoned = false;
  }
}
