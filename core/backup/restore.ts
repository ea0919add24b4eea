import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { DataStoreConfig, ReplicaConfig } from '../config/schema.js';
import { openStore } from '../replication/open-store.js';
import { restoreReplica } from '../replication/restore-replica.js';
import { ConflictError, InputError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { keyOfUrl, parseAccessPoint } from './access-point.js';
import { sha256Of } from './backup.js';
import { DataStore } from './s3.js';

export interface RestoreRequest {
  /**
   * A backup file (plain or gzipped), `s3://<access point name>/<key>` of `database.data_store`, or `replica` /
   * `replica:<n>`: the first or n-th (from 0) replica of `plus.disaster_recovery`.
   */
  readonly source: string;
  /** The database file to rebuild. */
  readonly target: string;
  /** Replace a database that exists. */
  readonly force: boolean;
  /** When given, the backup's SHA-256 must match. */
  readonly sha256?: string | undefined;
  readonly dataStore: DataStoreConfig | undefined;
  readonly replicas?: readonly ReplicaConfig[] | undefined;
  /** Opens a database file with the storage engine (checks it, applies pending migrations). */
  readonly open: (file: string) => Promise<Storage>;
}

export interface RestoreResult {
  readonly target: string;
  readonly sha256: string;
  readonly schemaVersion: number;
  readonly duration_ms: number;
  /** When restored from a replica: where, which generation, how many change sets. */
  readonly replica?: { readonly location: string; readonly generation: string; readonly changes: number };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Rebuilds `target` from a backup: fetched (S3) or read, gunzipped when compressed, checked by opening it with
 * the storage engine, then moved into place in one rename. Refuses a database that exists unless `force`, and
 * one that another process holds open even then. Nothing of the target changes when any step fails.
 */
export async function restoreDatabase(request: RestoreRequest): Promise<RestoreResult> {
  const started = performance.now();
  const { target } = request;
  if (existsSync(target)) {
    if (!request.force)
      throw new ConflictError(
        `database ${target} exists and restoring would replace it; stop the server, then run the restore again with --force`,
      );
    // refuses a database that a running server holds
    await (await request.open(target)).close();
  }
  await mkdir(dirname(target), { recursive: true });
  const work = join(dirname(target), `.restore-${randomUUID()}`);
  const staged = `${work}.db`;
  try {
    const replica = /^replica(?::(\d+))?$/.exec(request.source);
    if (replica) return await fromReplica(request, Number(replica[1] ?? 0), work, started);
    const local = request.source.startsWith('s3://')
      ? await download(request, `${work}.download`)
      : request.source;
    if (!existsSync(local)) throw new InputError(`backup ${local} does not exist`);
    const sha256 = await sha256Of(local);
    if (request.sha256 !== undefined && request.sha256.toLowerCase() !== sha256)
      throw new InputError(
        `backup ${request.source} has SHA-256 ${sha256}, not ${request.sha256}: it is not the backup named, or it is damaged`,
      );
    if (await isGzip(local))
      await pipeline(createReadStream(local), createGunzip(), createWriteStream(staged));
    else await pipeline(createReadStream(local), createWriteStream(staged));
    const schemaVersion = await checkBackup(request, staged);
    await rm(`${target}.wal`, { force: true });
    await rename(staged, target);
    return { target, sha256, schemaVersion, duration_ms: Math.round(performance.now() - started) };
  } finally {
    await Promise.all(
      [`${work}.download`, staged, `${staged}.wal`, work].map((f) => rm(f, { force: true, recursive: true })),
    );
  }
}

/** Rebuilds the target from a replica: its newest generation, checked against the state it recorded. */
async function fromReplica(
  request: RestoreRequest,
  index: number,
  work: string,
  started: number,
): Promise<RestoreResult> {
  const config = request.replicas?.[index];
  if (!config)
    throw new InputError(
      `${request.source}: plus.disaster_recovery.replicas has no replica ${index}; configure it or name another`,
    );
  const { store, prefix } = await openStore(config);
  const staged = `${work}.db`;
  try {
    const restored = await restoreReplica(store, prefix, staged, work, request.open);
    const storage = await request.open(staged);
    const schemaVersion = await storage.schemaVersion();
    await storage.close();
    await rm(`${request.target}.wal`, { force: true });
    await rename(staged, request.target);
    return {
      target: request.target,
      sha256: await sha256Of(request.target),
      schemaVersion,
      duration_ms: Math.round(performance.now() - started),
      replica: { location: store.location, generation: restored.generation, changes: restored.changes },
    };
  } finally {
    await store.close();
  }
}

/**
 * Opens the staged copy of a backup with the storage engine, which refuses another application's database and
 * applies pending migrations; returns its schema version. A backup that needed the first migration held no
 * Benchtrack schema (an empty database), so it is refused as well: restoring it would replace the data with
 * nothing.
 */
async function checkBackup(request: RestoreRequest, staged: string): Promise<number> {
  let storage: Storage;
  try {
    storage = await request.open(staged);
  } catch (error) {
    const reason = ((error as Error).message ?? String(error)).replaceAll(staged, request.source);
    throw new InputError(`backup ${request.source} cannot be restored: ${reason}`);
  }
  try {
    if (storage.appliedMigrations[0]?.version === 1)
      throw new InputError(
        `backup ${request.source} is not a Benchtrack backup: it holds no Benchtrack schema; nothing was restored`,
      );
    return await storage.schemaVersion();
  } finally {
    await storage.close();
  }
}

async function download(request: RestoreRequest, file: string): Promise<string> {
  const config = request.dataStore;
  const point = config && parseAccessPoint(config.access_point);
  if (!config || !point)
    throw new InputError(`${request.source} is an S3 URL, but database.data_store is not configured`);
  const store = new DataStore(config);
  try {
    await store.fetch(keyOfUrl(point, request.source), file);
  } finally {
    store.close();
  }
  return file;
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } finally {
    await handle.close();
  }
}
