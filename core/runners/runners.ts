import { randomUUID } from 'node:crypto';
import { tokenHash } from '../accounts/api-tokens.js';
import type { UserCaller } from '../accounts/users.js';
import { isAdmin, type Caller } from '../access/permissions.js';
import { requireOrganization } from '../access/resolve.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { NewRunner, UpdateRunner, runnerListQuerySchema } from '../schemas/runners.js';
import type { ServiceContext } from '../services/context.js';
import { isUuid, uniqueSlug } from '../slug.js';
import type { RunnerRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import type { z } from 'zod';
import { runnersJson } from './json.js';
import { newRunnerKey, runnerOfKey } from './keys.js';
import { releaseJobs } from './release.js';
import type { JobSignal } from './signal.js';
import { heartbeatTimeoutMs } from './timing.js';

/** The organizations a caller leads (administrators: every runner, see `visible`). */
async function ledOrganizations(r: ReadRepositories, caller: UserCaller): Promise<number[]> {
  const roles = await r.roles.all({ user_id: caller.user.id, role: 'leader' });
  return roles.map((role) => role.organization_id);
}

/**
 * Runners: server administrators manage every runner and alone create those that serve every organization; a
 * leader of an organization manages the runners of that organization. Anyone else gets 404, as for a runner that
 * does not exist. A runner's key is shown once, at creation and at each rotation, and stored hashed.
 */
export class RunnersService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly signal: JobSignal,
  ) {}

  async create(caller: UserCaller, input: NewRunner) {
    const uuid = randomUUID();
    const key = newRunnerKey(uuid);
    const runner = await this.ctx.storage.transaction(async (tx) => {
      let organizationId: number | null = null;
      if (input.organization !== undefined) {
        organizationId = (await requireOrganization(tx, caller, input.organization, 'manage')).organization
          .id;
      } else if (!isAdmin(caller)) {
        throw new ForbiddenError(
          'only a server administrator creates a runner for every organization; name an organization you lead (organization, --organization)',
        );
      }
      if (input.slug && (await tx.runners.find({ slug: input.slug })))
        throw new ConflictError(`runner slug "${input.slug}" is taken; choose another or leave it out`);
      const now = this.ctx.now();
      const created = await tx.runners.insert({
        uuid,
        organization_id: organizationId,
        name: input.name,
        slug:
          input.slug ?? (await uniqueSlug(input.name, async (slug) => !!(await tx.runners.find({ slug })))),
        key_hash: tokenHash(key),
        archived: false,
        last_seen: null,
        created: now,
        modified: now,
      });
      for (const spec of input.specs) await tx.runnerSpecs.insert({ runner_id: created.id, spec });
      return created;
    });
    return { ...(await this.#json(runner)), key };
  }

  async list(caller: UserCaller, query: z.output<typeof runnerListQuerySchema>) {
    return this.ctx.storage.read(async (r) => {
      const where = {
        archived: query.archived,
        ...(isAdmin(caller) ? {} : { organization_id: await ledOrganizations(r, caller) }),
        ...(query.name ? { name: query.name } : {}),
      };
      const page = await r.runners.list(where, {
        page: query.page,
        perPage: query.per_page,
        sort: query.sort,
        direction: query.direction,
        ...(query.search ? { search: query.search } : {}),
      });
      return { items: await this.#many(r, page.items), total: page.total };
    });
  }

  async get(caller: UserCaller, ref: string) {
    return this.ctx.storage.read(async (r) => this.#one(r, await requireRunner(r, caller, ref)));
  }

  async update(caller: UserCaller, ref: string, patch: UpdateRunner) {
    const updated = await this.ctx.storage.transaction(async (tx) => {
      const runner = await requireRunner(tx, caller, ref);
      if (patch.slug && patch.slug !== runner.slug && (await tx.runners.find({ slug: patch.slug })))
        throw new ConflictError(`runner slug "${patch.slug}" is taken; choose another`);
      const now = this.ctx.now();
      await tx.runners.update(
        { id: runner.id },
        { name: patch.name, slug: patch.slug, archived: patch.archived, modified: now },
      );
      if (patch.specs) {
        await tx.runnerSpecs.delete({ runner_id: runner.id });
        for (const spec of patch.specs) await tx.runnerSpecs.insert({ runner_id: runner.id, spec });
      }
      const released = patch.archived
        ? await releaseJobs(tx, runner, `runner "${runner.slug}" was archived`, now)
        : 0;
      return { runner: (await tx.runners.find({ id: runner.id })) as RunnerRecord, released };
    });
    if (updated.released > 0) this.signal.notify();
    return this.#json(updated.runner);
  }

  /** A new key for the runner: the old one stops working at once (the runner's lease runs out unless renewed). */
  async rotateKey(caller: UserCaller, ref: string) {
    let key = '';
    const runner = await this.ctx.storage.transaction(async (tx) => {
      const runner = await requireRunner(tx, caller, ref);
      key = newRunnerKey(runner.uuid);
      await tx.runners.update({ id: runner.id }, { key_hash: tokenHash(key), modified: this.ctx.now() });
      return (await tx.runners.find({ id: runner.id })) as RunnerRecord;
    });
    return { ...(await this.#json(runner)), key };
  }

  /** The runner a key belongs to; any problem is a 401 that does not say which check failed. */
  async authenticate(key: string): Promise<RunnerRecord> {
    const runner = await this.ctx.storage.read((r) => r.runners.find({ key_hash: tokenHash(key) }));
    if (!runner || runner.archived || runner.uuid !== runnerOfKey(key))
      throw new UnauthorizedError(
        'the runner key is invalid, was rotated, or its runner is archived; start the runner with its current key (benchtrack runner rotate-key gives a new one)',
      );
    return runner;
  }

  #json(runner: RunnerRecord) {
    return this.ctx.storage.read((r) => this.#one(r, runner));
  }

  async #one(r: ReadRepositories, runner: RunnerRecord) {
    const [json] = await this.#many(r, [runner]);
    if (!json) throw new NotFoundError(`runner "${runner.slug}" not found`);
    return json;
  }

  #many(r: ReadRepositories, runners: readonly RunnerRecord[]) {
    return runnersJson(r, runners, this.ctx.now(), heartbeatTimeoutMs(this.ctx.config));
  }
}

/** A runner by UUID or slug that the caller manages; 404 for one they may not see. */
async function requireRunner(
  r: ReadRepositories | WriteRepositories,
  caller: Caller,
  ref: string,
): Promise<RunnerRecord> {
  const runner = await r.runners.find(isUuid(ref) ? { uuid: ref.toLowerCase() } : { slug: ref });
  const allowed =
    runner &&
    (isAdmin(caller) ||
      (caller.kind === 'user' &&
        runner.organization_id !== null &&
        (await r.roles.find({ organization_id: runner.organization_id, user_id: caller.user.id }))?.role ===
          'leader'));
  if (!runner || !allowed) throw new NotFoundError(`runner "${ref}" not found`);
  return runner;
}
