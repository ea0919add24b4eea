import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { DataStoreConfig } from '../config/schema.js';
import { ConflictError, InputError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { Storage } from '../storage/storage.js';
import { objectUrl } from './access-point.js';
import { STORE_STALL_MS } from '../replication/store.js';
import { DataStore } from './s3.js';

export interface BackupOptions {
  /** gzip the snapshot (`<name>.gz`). */
  readonly compress: boolean;
  /** Push it to `database.data_store`. */
  readonly dataStore: boolean;
  /** Delete the local copy once pushed (only with `dataStore`). */
  readonly remove: boolean;
}

export interface BackupResult {
  readonly name: string;
  /** Where the local copy is; null once removed. */
  readonly file: string | null;
  readonly size: number;
  readonly sha256: string;
  readonly compressed: boolean;
  readonly created: Date;
  /** `s3://<access point name>/<key>` when pushed. */
  readonly pushed_to: string | null;
  readonly duration_ms: number;
}

export interface BackupSettings {
  /** The embedded database's file (backups are written beside it); absent when the database is a server. */
  readonly databaseFile: string | undefined;
  readonly dataStore: DataStoreConfig | undefined;
}

/**
 * `POST /v0/server/backup`: a consistent snapshot of the running database, named
 * `backup-<database stem>-<YYYY-MM-DD-HH-MM-SS UTC><database extension>[.gz]` beside the database, optionally
 * pushed to the data store. One backup runs at a time.
 */
export class Backups {
  #running = false;
  #last: BackupResult | undefined;

  /** The last backup this process made, if any. */
  get last(): BackupResult | undefined {
    return this.#last;
  }

  constructor(
    private readonly storage: Storage,
    private readonly logger: Logger,
    /** How long the data store may go without answering or moving a byte before a push fails. */
    private readonly stallMs = STORE_STALL_MS,
  ) {}

  async create(options: BackupOptions, settings: BackupSettings): Promise<BackupResult> {
    const { backup } = this.storage;
    if (!backup || settings.databaseFile === undefined)
      throw new InputError(
        'this storage engine cannot make backups: back the database server up with its own tools (pg_dump, base backups)',
      );
    if (options.remove && !options.dataStore)
      throw new InputError('remove: deletes the local copy after a push, so it needs data_store as well');
    if (options.dataStore && !settings.dataStore)
      throw new InputError(
        'data_store: database.data_store is not configured; add it to the server configuration or leave data_store out',
      );
    if (this.#running) throw new ConflictError('a backup is already running; wait for it to finish');
    this.#running = true;
    try {
      const { databaseFile, dataStore } = settings;
      return await this.#create(options, { databaseFile, dataStore }, (file) =>
        backup.call(this.storage, file),
      );
    } finally {
      this.#running = false;
    }
  }

  async #create(
    options: BackupOptions,
    settings: BackupSettings & { databaseFile: string },
    snapshot: (file: string) => Promise<void>,
  ): Promise<BackupResult> {
    const started = performance.now();
    const { created, snapshotFile } = await freeName(settings.databaseFile);
    let file = snapshotFile;
    try {
      await snapshot(snapshotFile);
      if (options.compress) file = await gzip(snapshotFile);
    } catch (error) {
      await Promise.all(
        [snapshotFile, `${snapshotFile}.gz`, `${snapshotFile}.wal`].map((f) => rm(f, { force: true })),
      );
      throw error;
    }
    const [{ size }, sha256] = await Promise.all([stat(file), sha256Of(file)]);
    const name = basename(file);
    let pushedTo: string | null = null;
    if (options.dataStore && settings.dataStore) {
      const store = new DataStore(settings.dataStore, this.stallMs);
      try {
        pushedTo = objectUrl(store.point, await store.push(file, name, sha256));
      } finally {
        store.close();
      }
      if (options.remove) await rm(file);
    }
    const result = {
      name,
      file: options.remove ? null : file,
      size,
      sha256,
      compressed: options.compress,
      created,
      pushed_to: pushedTo,
      duration_ms: Math.round(performance.now() - started),
    };
    this.logger.info({ backup: { ...result } }, 'backup created');
    this.#last = result;
    return result;
  }
}

/**
 * The time and file of a new backup. Names go by the second, so a backup asked for in the second of the one before
 * waits for the next second instead of being refused (one runs at a time, so only the backup just made can hold
 * the name). A name still taken a second later means a clock set back: refused, naming the file.
 */
async function freeName(databaseFile: string): Promise<{ created: Date; snapshotFile: string }> {
  for (let attempt = 0; ; attempt++) {
    const created = new Date();
    const snapshotFile = join(dirname(databaseFile), backupName(databaseFile, created));
    if (![snapshotFile, `${snapshotFile}.gz`].some((f) => existsSync(f))) return { created, snapshotFile };
    if (attempt === 1)
      throw new ConflictError(
        `a backup named ${basename(snapshotFile)} exists already and the clock is behind it; move that file away or wait until the time in its name has passed`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000 - created.getUTCMilliseconds()));
  }
}

/** `backup-<stem>-YYYY-MM-DD-HH-MM-SS<ext>`, the reference's form, in UTC. */
export function backupName(databaseFile: string, at: Date): string {
  const ext = extname(databaseFile);
  const stem = basename(databaseFile, ext);
  const stamp = at.toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '-');
  return `backup-${stem}-${stamp}${ext}`;
}

async function gzip(file: string): Promise<string> {
  const target = `${file}.gz`;
  await pipeline(createReadStream(file), createGzip(), createWriteStream(target));
  await rm(file);
  return target;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
