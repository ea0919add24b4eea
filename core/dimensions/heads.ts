import { randomUUID } from 'node:crypto';
import type { BranchRecord, HeadRecord, VersionRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { findByNameId } from './name-id.js';
import { cloneThresholds } from './threshold-models.js';

/** Start points keep at most this many versions of the start branch unless told otherwise (spec). */
export const DEFAULT_MAX_VERSIONS = 255;

export interface StartPointInput {
  readonly branch?: string | undefined;
  readonly hash?: string | undefined;
  readonly max_versions?: number | undefined;
  readonly clone_thresholds?: boolean | undefined;
  readonly reset?: boolean | undefined;
}

/** A start point that exists: the branch, its current head, and the version to branch off. */
interface ResolvedStartPoint {
  readonly branch: BranchRecord;
  readonly head: HeadRecord;
  readonly version: VersionRecord | undefined;
  readonly maxVersions: number;
}

/**
 * Resolves a start point. A branch that does not exist is ignored (CI jobs race to create branches); a hash
 * that is not on the start branch falls back to its latest version (reference issue #774).
 */
async function resolveStartPoint(
  tx: WriteRepositories,
  projectId: number,
  input: StartPointInput,
): Promise<ResolvedStartPoint | undefined> {
  if (!input.branch) return undefined;
  const branch = await findByNameId(tx.branches, projectId, input.branch);
  const head = branch?.head_id != null ? await tx.heads.find({ id: branch.head_id }) : undefined;
  if (!branch || !head) return undefined;
  const version =
    (input.hash ? await tx.heads.versionByHash(head.id, input.hash) : undefined) ??
    (await tx.heads.latestVersion(head.id));
  return { branch, head, version, maxVersions: input.max_versions ?? DEFAULT_MAX_VERSIONS };
}

/**
 * Creates a head for a branch and makes it current. From a start point, its history is the start branch's
 * versions up to the start-point version, newest `max_versions` of them (links, not copies).
 */
async function createHead(
  tx: WriteRepositories,
  branch: BranchRecord,
  start: ResolvedStartPoint | undefined,
  now: Date,
): Promise<HeadRecord> {
  const head = await tx.heads.insert({
    uuid: randomUUID(),
    branch_id: branch.id,
    start_point_branch_id: start?.branch.id ?? null,
    start_point_head_id: start?.head.id ?? null,
    start_point_version_id: start?.version?.id ?? null,
    max_versions: start ? start.maxVersions : null,
    created: now,
    replaced: null,
  });
  if (start?.version) {
    await tx.headVersions.link(
      head.id,
      await tx.heads.versionIds(start.head.id, start.version.number, start.maxVersions),
    );
  }
  await tx.branches.update({ id: branch.id }, { head_id: head.id });
  return head;
}

/** A new branch gets its first head, from the start point when one is given and found. */
export async function initializeBranch(
  tx: WriteRepositories,
  branch: BranchRecord,
  input: StartPointInput | undefined,
  now: Date,
): Promise<HeadRecord> {
  const start = input ? await resolveStartPoint(tx, branch.project_id, input) : undefined;
  const head = await createHead(tx, branch, start, now);
  if (start && input?.clone_thresholds) await cloneThresholds(tx, start.branch, branch, now);
  return head;
}

/**
 * Applies a start point to an existing branch (reference section 3.4). A new head replaces the current one when
 * `reset` is set, or the start branch or hash changed, or the branch had no start point; otherwise nothing
 * changes. The old head's alerts are silenced. Omitting the start point never changes anything.
 */
export async function applyStartPoint(
  tx: WriteRepositories,
  branch: BranchRecord,
  input: StartPointInput,
  now: Date,
): Promise<{ head: HeadRecord; replaced: boolean }> {
  const current = branch.head_id !== null ? await tx.heads.find({ id: branch.head_id }) : undefined;
  const start = await resolveStartPoint(tx, branch.project_id, input);
  if (current && !input.reset) {
    const sameBranch = start !== undefined && current.start_point_branch_id === start.branch.id;
    const sameVersion = (current.start_point_version_id ?? null) === (start?.version?.id ?? null);
    if (!start || (sameBranch && sameVersion)) return { head: current, replaced: false };
  }
  if (current) await retireHead(tx, current, now);
  const head = await createHead(tx, branch, start, now);
  if (start && input.clone_thresholds) await cloneThresholds(tx, start.branch, branch, now);
  return { head, replaced: true };
}

/** Marks a head replaced and silences its alerts (they belong to a history the branch left). */
async function retireHead(tx: WriteRepositories, head: HeadRecord, now: Date): Promise<void> {
  await tx.heads.update({ id: head.id }, { replaced: now });
  await tx.alerts.update({ head_id: head.id, status: 'active' }, { status: 'silenced', modified: now });
  await tx.alerts.update({ head_id: head.id, status: 'dismissed' }, { status: 'silenced', modified: now });
}

/**
 * The version a report on `head` writes to: reports with the same git hash share a version; otherwise the next
 * number after the newest in the head's history (numbering starts at 0). `newest` says it is a new version, so
 * the newest of the head.
 */
export async function versionFor(
  tx: WriteRepositories,
  projectId: number,
  head: HeadRecord,
  hash: string | undefined,
  now: Date,
): Promise<{ version: VersionRecord; newest: boolean }> {
  if (hash) {
    const existing = await tx.heads.versionByHash(head.id, hash);
    if (existing) {
      // the version may be on other branches' heads too (start points link it): their reports on it read its
      // metrics as history, so reports that add to it run one after the other
      await tx.locks.hold({ kind: 'version', id: existing.id });
      return { version: existing, newest: false };
    }
  }
  const latest = await tx.heads.latestVersion(head.id);
  const version = await tx.versions.insert({
    uuid: randomUUID(),
    project_id: projectId,
    number: latest ? latest.number + 1 : 0,
    hash: hash ?? null,
    created: now,
  });
  await tx.headVersions.insert({ head_id: head.id, version_id: version.id });
  return { version, newest: true };
}
