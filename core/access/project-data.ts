import type { Storage, ReadRepositories } from '../storage/storage.js';
import type { Caller } from './permissions.js';
import { requireProject, type ProjectAccess, type ResourceRef } from './resolve.js';

/**
 * Reads a project's data (perf queries, lists) where a read replica may answer (in one read transaction when the
 * storage has none). Who may see the project is read
 * first where every committed write is seen (the primary): a replica that lags could deny a project, membership
 * or token created a moment ago through another process, or grant one just revoked. `fn` then runs on a replica,
 * with the project as the primary holds it. A replica that has not replayed a row the request names yet (a branch
 * created through another process) fails with NotFoundError: `fn` then runs again on the primary, so only a row
 * that is missing there is a 404.
 */
export async function readProjectData<T>(
  storage: Storage,
  caller: Caller,
  ref: ResourceRef,
  fn: (repos: ReadRepositories, access: ProjectAccess) => Promise<T>,
): Promise<T> {
  // no replica: one read transaction sees the project and its data alike
  if (!storage.capabilities.readReplicas)
    return storage.read(async (r) => fn(r, await requireProject(r, caller, ref, 'view')));
  const access = await storage.read((r) => requireProject(r, caller, ref, 'view'));
  try {
    return await storage.read((r) => fn(r, access), { replica: true });
  } catch (error) {
    // errors are told apart by name, not class (STYLE: they may have crossed a thread)
    if ((error as { name?: unknown }).name !== 'NotFoundError') throw error;
    return storage.read((r) => fn(r, access));
  }
}
