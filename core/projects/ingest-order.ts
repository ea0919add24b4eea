import type { Caller, Permission } from '../access/permissions.js';
import { requireProject, type ProjectAccess } from '../access/resolve.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ServiceContext } from '../services/context.js';
import type { BranchRecord, ProjectRecord } from '../storage/records.js';
import type { TransactionOptions, WriteRepositories } from '../storage/storage.js';

/**
 * How report ingest is ordered against other writers on an engine with several. Ingest runs with
 * `isolation: 'locked'`: PostgreSQL's serializable checks lock the metric table by page and, past a few dozen
 * pages, whole, so reports on different branches would make each other run again. Instead it holds:
 * - its project, shared: writes that delete what ingest writes to (a project, a dimension with its data, a
 *   threshold, a branch's head) hold it exclusively (`excludingIngest`) and never overlap a report;
 * - its branch: reports on one branch run one after the other, each seeing the versions, history and
 *   thresholds the one before committed (version numbers unique per head, boundaries from the history as it was);
 * - a version it shares with other branches (an existing git hash), so two reports on that version serialize;
 * - its organization, only where a quota or license sums the organization's usage.
 * Unique keys stop the rest: two creations of one project, dimension, series or idempotency key (the second fails,
 * runs again, and finds the first).
 */
export const INGEST: TransactionOptions = { isolation: 'locked' };

/** The project after taking its shared lock: a 404 when a deletion committed before the lock was granted. */
export async function holdProject(tx: WriteRepositories, project: ProjectRecord): Promise<ProjectRecord> {
  await tx.locks.hold({ kind: 'project', id: project.id }, { shared: true });
  const held = await tx.projects.find({ id: project.id });
  if (!held) {
    throw new NotFoundError(
      `project "${project.slug}" was deleted while this report was being stored; nothing was stored`,
    );
  }
  return held;
}

/** The branch as it is once this transaction holds it, or undefined when it was deleted meanwhile. */
export async function holdBranch(
  tx: WriteRepositories,
  branch: BranchRecord,
): Promise<BranchRecord | undefined> {
  await tx.locks.hold({ kind: 'branch', id: branch.id });
  return tx.branches.find({ id: branch.id });
}

/**
 * Runs `fn` in a write transaction that no report into the project named by `ref` overlaps: it takes the
 * project's lock exclusively before its first read, after the reports that held it committed, and reports wait
 * until it ends. For writes that delete or replace what ingest writes to.
 */
export async function excludingIngest<T>(
  ctx: ServiceContext,
  caller: Caller,
  ref: string,
  permission: Permission,
  fn: (tx: WriteRepositories, access: ProjectAccess) => Promise<T>,
): Promise<T> {
  // on the primary: a replica may not have the project yet
  const { project } = await ctx.storage.transaction((tx) => requireProject(tx, caller, ref, permission));
  return ctx.storage.transaction(
    async (tx) => {
      const access = await requireProject(tx, caller, ref, permission);
      if (access.project.id !== project.id) {
        throw new ConflictError(`project "${ref}" was replaced while this request ran; send it again`);
      }
      return fn(tx, access);
    },
    { exclusive: [{ kind: 'project', id: project.id }] },
  );
}
