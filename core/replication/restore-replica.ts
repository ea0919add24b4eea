import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { InputError, StorageError } from '../errors.js';
import type { ReplicaState, Storage } from '../storage/storage.js';
import {
  changeFileKey,
  changeManifestKey,
  readListing,
  sameData,
  snapshotKey,
  snapshotManifestKey,
  type ChangeManifest,
  type SnapshotManifest,
} from './layout.js';
import type { ReplicaStore } from './store.js';

export interface ReplicaRestore {
  readonly generation: string;
  /** Change sets applied on top of the snapshot. */
  readonly changes: number;
  readonly state: ReplicaState;
}

/**
 * Builds the database of a replica's newest generation at `file`: its snapshot, then its change sets in order
 * up to the first gap, then checks that the result holds exactly the state the last manifest records.
 * `work` is a scratch directory of the caller's.
 */
export async function restoreReplica(
  store: ReplicaStore,
  prefix: string,
  file: string,
  work: string,
  open: (file: string) => Promise<Storage>,
): Promise<ReplicaRestore> {
  const listing = readListing(prefix, await store.list(prefix));
  const generation = [...listing.keys()].sort().at(-1);
  if (generation === undefined)
    throw new InputError(`replica ${store.location} holds no snapshot yet: nothing to restore from`);
  await mkdir(work, { recursive: true });
  const snapshot = await getJson<SnapshotManifest>(store, snapshotManifestKey(prefix, generation), work);
  const packed = join(work, 'snapshot.db.gz');
  await store.get(snapshotKey(prefix, generation), packed);
  await pipeline(createReadStream(packed), createGunzip(), createWriteStream(file));
  await rm(packed);
  const storage = await open(file);
  try {
    const replication = storage.replication;
    if (!replication) throw new StorageError('this storage engine cannot apply replica change sets');
    let state = snapshot.state;
    let applied = 0;
    for (const index of listing.get(generation) ?? []) {
      if (index !== applied + 1) break;
      const change = await getJson<ChangeManifest>(store, changeManifestKey(prefix, generation, index), work);
      const directory = join(work, `change-${index}`);
      await mkdir(directory);
      for (const { file: name } of change.files)
        await store.get(changeFileKey(prefix, generation, index, name), join(directory, name));
      await replication.apply(directory, change);
      await rm(directory, { recursive: true });
      state = change.state;
      applied = index;
    }
    const difference = sameData(await replication.state(), state);
    if (difference)
      throw new StorageError(
        `replica ${store.location}, generation ${generation} after ${applied} change sets does not rebuild the database it recorded: ${difference}`,
      );
    return { generation, changes: applied, state };
  } finally {
    await storage.close();
  }
}

async function getJson<T>(store: ReplicaStore, key: string, work: string): Promise<T> {
  const file = join(work, 'manifest.json');
  await store.get(key, file);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } finally {
    await rm(file, { force: true });
  }
}
