import type { Caller } from '../access/permissions.js';
import { readProjectData } from '../access/project-data.js';
import { requireProject } from '../access/resolve.js';
import { dimensionIds } from '../dimensions/name-id.js';
import { InputError, NotFoundError } from '../errors.js';
import type {
  RegressionCountsJson,
  RegressionCountsQuery,
  RegressionListQuery,
  UpdateRegression,
} from '../schemas/regressions.js';
import type { ServiceContext } from '../services/context.js';
import { isUuid } from '../slug.js';
import type { ProjectRecord, RegressionRecord, RegressionStatus } from '../storage/records.js';
import type { ReadRepositories, RegressionFilter, WriteRepositories } from '../storage/storage.js';
import { regressionEventJsons, regressionJsons } from './json.js';
import { changeRegression, OPEN_STATUSES, RegressionWriter, type RegressionChange } from './lifecycle.js';

const STATUSES: readonly RegressionStatus[] = [
  'suspected',
  'untriaged',
  'acknowledged',
  'invalid',
  'fixed',
  'expected',
];

/** The statuses a `status` query names: comma-separated, `open` for the open ones; every one but suspected when absent. */
export function statusFilter(text: string | undefined): RegressionStatus[] {
  if (text === undefined) return STATUSES.filter((s) => s !== 'suspected');
  const wanted = new Set<RegressionStatus>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === 'open') for (const s of OPEN_STATUSES) wanted.add(s);
    else if ((STATUSES as readonly string[]).includes(part)) wanted.add(part as RegressionStatus);
    else
      throw new InputError(
        `status: "${part}" is not a status; use open or any of ${STATUSES.join(', ')}, separated by commas`,
        { field: 'status' },
      );
  }
  return [...wanted];
}

/** Regressions of a project: list, view, history, triage. */
export class RegressionsService {
  readonly #listeners: ((changes: readonly RegressionChange[]) => void)[] = [];

  constructor(private readonly ctx: ServiceContext) {}

  /** Calls `listener` with every triage that changed something, after its commit. */
  onChanges(listener: (changes: readonly RegressionChange[]) => void): void {
    this.#listeners.push(listener);
  }

  async list(caller: Caller, projectRef: string, query: RegressionListQuery) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const filter = await this.#filter(r, project, query);
      const page = await r.regressions.listFiltered(filter, {
        page: query.page,
        perPage: query.per_page,
        sort: query.sort,
        direction: query.direction,
      });
      return { items: await regressionJsons(r, project, page.items), total: page.total };
    });
  }

  /** How many regressions each status has under the list's filters (status aside). */
  async counts(
    caller: Caller,
    projectRef: string,
    query: RegressionCountsQuery,
  ): Promise<RegressionCountsJson> {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const { statuses: _, ...filter } = await this.#filter(r, project, query);
      const found = await r.regressions.countByStatus(filter);
      const counts = Object.fromEntries(STATUSES.map((s) => [s, found[s] ?? 0])) as Record<
        RegressionStatus,
        number
      >;
      return { open: OPEN_STATUSES.reduce((sum, s) => sum + counts[s], 0), ...counts };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const [json] = await regressionJsons(r, project, [await requireRegression(r, project, uuid)]);
      return json;
    });
  }

  /** The status changes and triage of a regression, oldest first. */
  async history(caller: Caller, projectRef: string, uuid: string) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (r, { project }) => {
      const regression = await requireRegression(r, project, uuid);
      const events = await r.regressionEvents.list(
        { regression_id: regression.id },
        { sort: 'id', direction: 'asc', perPage: 255 },
      );
      return { items: await regressionEventJsons(r, events.items), total: events.total };
    });
  }

  /** A member's triage: status, note, issue URL, assignee. Recorded in the history; `null` clears a field. */
  async update(caller: Caller, projectRef: string, uuid: string, input: UpdateRegression) {
    const { json, change } = await this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'edit');
      const regression = await requireRegression(tx, project, uuid);
      const assignee =
        input.assignee === undefined ? undefined : await assigneeOf(tx, project, input.assignee);
      const w = new RegressionWriter(tx, this.ctx.now());
      const change = changeRegression(
        w,
        regression,
        {
          status: input.status,
          note: input.note,
          issue_url: input.issue_url,
          assignee_id: assignee,
        },
        caller.kind === 'user' ? caller.user.id : null,
      );
      await w.flush();
      const [json] = await regressionJsons(tx, project, [change.regression]);
      return { json, change };
    });
    if (change.event) for (const listener of this.#listeners) listener([change]);
    return json;
  }

  async #filter(
    r: ReadRepositories,
    project: ProjectRecord,
    query: RegressionCountsQuery & Pick<RegressionListQuery, 'status'>,
  ): Promise<RegressionFilter> {
    return {
      project_id: project.id,
      statuses: statusFilter(query.status),
      kind: query.kind,
      ...(await dimensionIds(r, project.id, query)),
      assignee_id: await assigneeFilter(r, project, query.assignee),
      search: query.search,
    };
  }
}

async function requireRegression(
  r: ReadRepositories,
  project: ProjectRecord,
  uuid: string,
): Promise<RegressionRecord> {
  const regression = isUuid(uuid)
    ? await r.regressions.find({ uuid: uuid.toLowerCase(), project_id: project.id })
    : undefined;
  if (!regression) throw new NotFoundError(`regression "${uuid}" not found`);
  return regression;
}

/** The `assignee` of a list query: a user by UUID or slug, `none` for nobody. */
async function assigneeFilter(r: ReadRepositories, project: ProjectRecord, ref: string | undefined) {
  if (ref === undefined) return undefined;
  if (ref === 'none') return null;
  const user = await r.users.find(isUuid(ref) ? { uuid: ref.toLowerCase() } : { slug: ref });
  const member = user && (await r.roles.find({ organization_id: project.organization_id, user_id: user.id }));
  if (!user || !member)
    throw new InputError(
      `assignee: "${ref}" is not a member of this project's organization; give a member's UUID or slug, or none`,
      { field: 'assignee' },
    );
  return user.id;
}

/** The user a triage assigns: a member of the project's organization, by UUID or slug; null for nobody. */
async function assigneeOf(tx: WriteRepositories, project: ProjectRecord, ref: string | null) {
  if (ref === null) return null;
  const user = await tx.users.find(isUuid(ref) ? { uuid: ref.toLowerCase() } : { slug: ref });
  const member =
    user && (await tx.roles.find({ organization_id: project.organization_id, user_id: user.id }));
  if (!user || !member)
    throw new InputError(`assignee: "${ref}" is not a member of this project's organization`, {
      field: 'assignee',
    });
  return user.id;
}
