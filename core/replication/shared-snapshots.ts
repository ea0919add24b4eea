import { link, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Replication, ReplicaState } from '../storage/storage.js';

/** How long a snapshot nobody is using stays staged for the next request. */
const KEEP_MS = 5 * 60_000;

interface Staged {
  readonly commits: number;
  readonly file: string;
  readonly state: Promise<ReplicaState>;
  users: number;
  superseded: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * The storage's replication, with one snapshot serving every request made while nothing was committed: replicas
 * that start together (each needs a first snapshot) and a replica retrying a failed upload get a hard link to the
 * same staged copy instead of copying the database again. A snapshot covers at least the commits counted when it
 * was requested, so it serves any request made at the same count. Staged copies live in `directory` (on the
 * replicas' scratch disk) until a newer one replaces them, or for five minutes unused.
 */
export function withSharedSnapshots(replication: Replication, directory: string): Replication {
  let current: Staged | undefined;
  let taken = 0;
  const remove = (staged: Staged) => {
    clearTimeout(staged.timer);
    if (current === staged) current = undefined;
    void rm(staged.file, { force: true });
  };
  const release = (staged: Staged) => {
    staged.users -= 1;
    if (staged.users > 0) return;
    if (staged.superseded) remove(staged);
    else {
      staged.timer = setTimeout(() => remove(staged), KEEP_MS);
      staged.timer.unref();
    }
  };
  return {
    ...replication,
    async snapshot(file) {
      const commits = replication.commits();
      let staged = current;
      if (!staged || staged.commits !== commits) {
        if (staged) {
          staged.superseded = true;
          if (staged.users === 0) remove(staged);
        }
        const shared = join(directory, `snapshot-${(taken += 1)}.db`);
        staged = { commits, file: shared, state: replication.snapshot(shared), users: 0, superseded: false };
        current = staged;
      }
      clearTimeout(staged.timer);
      staged.users += 1;
      try {
        const state = await staged.state;
        await link(staged.file, file);
        return state;
      } catch (error) {
        // a failed snapshot serves nobody: the next request takes a new one
        staged.superseded = true;
        if (current === staged) current = undefined;
        throw error;
      } finally {
        release(staged);
      }
    },
  };
}
