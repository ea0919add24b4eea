import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { z } from 'zod';
import type { ReplicaConfig } from '../config/schema.js';
import type { Logger } from '../logging.js';
import type { replicaStatusSchema } from '../schemas/server.js';
import type { Replication, ReplicaState, Storage } from '../storage/storage.js';
import {
  changeFileKey,
  changeManifestKey,
  generationTime,
  newGeneration,
  readListing,
  sameData,
  snapshotKey,
  snapshotManifestKey,
  type ChangeManifest,
  type SnapshotManifest,
} from './layout.js';
import { restoreReplica } from './restore-replica.js';
import type { ReplicaStore } from './store.js';

/** Intervals of one replica, in milliseconds (the configuration's durations). */
export interface ReplicaTiming {
  readonly sync: number;
  readonly snapshot: number | undefined;
  readonly retention: number;
  readonly retentionCheck: number;
  readonly validation: number | undefined;
}

/** What the admin sees of a replica (`GET /v0/server/backup`): times in RFC 3339, null when never. */
export type ReplicaStatus = z.infer<typeof replicaStatusSchema>;

/** Syncs whose durations set how early the next one starts. */
const RECENT_SYNCS = 8;

/** Retries after a failure wait from the sync interval, doubling, up to this. */
const MAX_BACKOFF_MS = 60_000;

/**
 * One replica: a loop that ships change sets every sync interval, starts a new generation (snapshot) when due,
 * enforces retention and validates, one step at a time. A failing store is retried with exponential backoff and
 * logged; the database never waits for the replica (every read is an MVCC snapshot on a connection of its own).
 */
export class Replica {
  #state: ReplicaState | undefined;
  #generation: string | undefined;
  #index = 0;
  #commitsShipped = -1;
  #failures = 0;
  #durations: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  #nextRetentionCheck = 0;
  #nextValidation = 0;
  #status: {
    lastSync?: Date;
    lastSnapshot?: Date;
    lastValidation?: Date;
    lastError?: string;
    lastErrorAt?: Date;
  } = {};

  constructor(
    readonly scheme: ReplicaConfig['scheme'],
    private readonly store: ReplicaStore,
    private readonly prefix: string,
    private readonly timing: ReplicaTiming,
    private readonly replication: Replication,
    private readonly work: string,
    private readonly open: (file: string) => Promise<Storage>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const now = Date.now();
    this.#nextRetentionCheck = now + this.timing.retentionCheck;
    this.#nextValidation = this.timing.validation === undefined ? Infinity : now + this.timing.validation;
    this.#schedule(0);
  }

  /** Stops the loop after the step under way; a last sync ships what was committed before the stop. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    if (this.#state && this.#failures === 0) await this.#sync().catch(() => undefined);
    await this.store.close();
  }

  status(): ReplicaStatus {
    const at = (date: Date | undefined) => date?.toISOString() ?? null;
    return {
      scheme: this.scheme,
      location: this.store.location,
      generation: this.#generation ?? null,
      changes: this.#index,
      last_sync: at(this.#status.lastSync),
      last_snapshot: at(this.#status.lastSnapshot),
      last_validation: at(this.#status.lastValidation),
      last_error: this.#status.lastError ?? null,
      last_error_at: at(this.#status.lastErrorAt),
      consecutive_failures: this.#failures,
    };
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#step().finally(() => (this.#running = undefined));
    }, delay);
    this.#timer.unref();
  }

  async #step(): Promise<void> {
    const started = performance.now();
    try {
      await this.#due();
      if (this.#failures > 0) this.logger.info({ failures: this.#failures }, 'replica reachable again');
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      this.#status.lastError = (error as Error).message ?? String(error);
      this.#status.lastErrorAt = new Date();
      const retryMs = Math.min(this.timing.sync * 2 ** this.#failures, MAX_BACKOFF_MS);
      this.logger.error(
        { err: { message: this.#status.lastError }, failures: this.#failures, retry_ms: retryMs },
        'replica sync failed: retrying',
      );
      this.#schedule(retryMs);
      return;
    }
    // the next sync must end within one interval of this one's start, so that commits made now reach the
    // replica in time: it starts early by twice the longest of the last few syncs (durations vary with load)
    this.#durations = [...this.#durations.slice(-(RECENT_SYNCS - 1)), performance.now() - started];
    this.#schedule(Math.max(0, this.timing.sync - 2 * Math.max(...this.#durations)));
  }

  async #due(): Promise<void> {
    const now = Date.now();
    const snapshotDue =
      this.#generation === undefined ||
      (this.timing.snapshot !== undefined && now - generationTime(this.#generation) >= this.timing.snapshot);
    if (snapshotDue) await this.#snapshot();
    else await this.#sync();
    if (now >= this.#nextRetentionCheck) {
      await this.#enforceRetention();
      this.#nextRetentionCheck = now + this.timing.retentionCheck;
    }
    if (now >= this.#nextValidation) {
      await this.#validate();
      this.#nextValidation = now + (this.timing.validation ?? Infinity);
    }
  }

  /** A new generation: a snapshot of the database and its manifest. */
  async #snapshot(): Promise<void> {
    const commits = this.replication.commits();
    const directory = await mkdtemp(join(this.work, 'snapshot-'));
    try {
      const created = new Date();
      const generation = newGeneration(created);
      const file = join(directory, 'snapshot.db');
      const state = await this.replication.snapshot(file);
      await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`));
      await this.store.put(snapshotKey(this.prefix, generation), `${file}.gz`);
      const manifest: SnapshotManifest = { generation, created: created.toISOString(), state };
      await this.#putJson(snapshotManifestKey(this.prefix, generation), manifest, directory);
      this.#generation = generation;
      this.#index = 0;
      this.#state = state;
      this.#commitsShipped = commits;
      this.#status.lastSnapshot = this.#status.lastSync = created;
      this.logger.info({ generation }, 'replica snapshot written');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** Ships what was committed since the last change set, if anything was. */
  async #sync(): Promise<void> {
    const since = this.#state;
    const generation = this.#generation;
    if (!since || generation === undefined) return;
    const commits = this.replication.commits();
    const now = new Date();
    if (commits === this.#commitsShipped) {
      this.#status.lastSync = now;
      return;
    }
    const started = performance.now();
    const directory = await mkdtemp(join(this.work, 'change-'));
    try {
      const change = await this.replication.changes(since, directory);
      if (change === 'snapshot') return await this.#snapshot();
      if (change.files.length > 0) {
        const index = this.#index + 1;
        for (const { file } of change.files)
          await this.store.put(changeFileKey(this.prefix, generation, index, file), join(directory, file));
        const manifest: ChangeManifest = { generation, index, created: now.toISOString(), ...change };
        await this.#putJson(changeManifestKey(this.prefix, generation, index), manifest, directory);
        this.#index = index;
      }
      this.#state = change.state;
      this.#commitsShipped = commits;
      this.#status.lastSync = now;
      this.logger.debug(
        { files: change.files.length, ms: Math.round(performance.now() - started) },
        'replica synced',
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /**
   * A new generation when the newest is older than the retention, then generations older than the retention are
   * removed with their change sets, the newest always kept.
   */
  async #enforceRetention(): Promise<void> {
    const cutoff = Date.now() - this.timing.retention;
    if (this.#generation !== undefined && generationTime(this.#generation) < cutoff) await this.#snapshot();
    const keys = await this.store.list(this.prefix);
    const listing = readListing(this.prefix, keys);
    const expired = [...listing.keys()]
      .filter((generation) => generation !== this.#generation && generationTime(generation) < cutoff)
      .map((generation) => `${this.prefix}generations/${generation}/`);
    if (expired.length === 0) return;
    await this.store.remove(keys.filter((key) => expired.some((prefix) => key.startsWith(prefix))));
    this.logger.info({ generations: expired.length }, 'replica retention: old generations removed');
  }

  /** Restores the replica into a scratch directory and compares it with what was shipped last. */
  async #validate(): Promise<void> {
    const expected = this.#state;
    if (!expected) return;
    const directory = await mkdtemp(join(this.work, 'validate-'));
    try {
      const restored = await restoreReplica(
        this.store,
        this.prefix,
        join(directory, 'restored.db'),
        join(directory, 'work'),
        this.open,
      );
      const difference =
        restored.generation !== this.#generation || restored.changes !== this.#index
          ? `it restores generation ${restored.generation} with ${restored.changes} change sets, not ${this.#generation} with ${this.#index}`
          : sameData(restored.state, expected);
      this.#status.lastValidation = new Date();
      if (difference) this.logger.error({ difference }, 'replica validation failed: the replica differs');
      else this.logger.info({ generation: restored.generation }, 'replica validated');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async #putJson(key: string, value: unknown, directory: string): Promise<void> {
    const file = join(directory, 'manifest.json');
    await writeFile(file, JSON.stringify(value));
    await this.store.put(key, file);
  }
}
