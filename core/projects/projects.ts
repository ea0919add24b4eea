import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { UserCaller } from '../accounts/users.js';
import { viewerOf, type Caller, type Permission } from '../access/permissions.js';
import { requireOrganization, requireProject } from '../access/resolve.js';
import { excludingIngest } from './ingest-order.js';
import { projectSummaries } from './summary.js';
import { ConflictError } from '../errors.js';
import { projectJson, type newProjectSchema, type updateProjectSchema } from '../schemas/accounts.js';
import type { ServiceContext } from '../services/context.js';
import { uniqueSlug } from '../slug.js';
import type { ProjectRecord } from '../storage/records.js';
import type { ReadRepositories, WriteRepositories } from '../storage/storage.js';
import type { ListOptions, Page } from '../storage/tables.js';

/** `summary` adds each project's summary (its card in a list). */
type ListProjects = ListOptions<ProjectRecord> & { name?: string; summary?: boolean };

/** Projects: names unique within their organization, slugs unique on the server, public or private. */
export class ProjectsService {
  constructor(private readonly ctx: ServiceContext) {}

  async create(caller: UserCaller, orgRef: string, input: z.output<typeof newProjectSchema>) {
    return this.ctx.storage.transaction(async (tx) => {
      const { organization } = await requireOrganization(tx, caller, orgRef, 'create');
      const project = await insertProject(tx, organization.id, input, this.ctx.now());
      return projectJson(project, organization);
    });
  }

  /** Public projects plus those the caller may see (spec: `GET /v0/projects`). */
  async list(caller: Caller, options: ListProjects) {
    return this.ctx.storage.read(async (r) =>
      withOrganizations(
        r,
        await r.projects.listVisible(viewerOf(caller), nameFilter(options), options),
        options.summary ? this.ctx.now() : undefined,
      ),
    );
  }

  async listForOrganization(caller: UserCaller, orgRef: string, options: ListProjects) {
    return this.ctx.storage.read(async (r) => {
      const { organization } = await requireOrganization(r, caller, orgRef, 'view');
      const page = await r.projects.list(
        { organization_id: organization.id, ...nameFilter(options) },
        options,
      );
      return withOrganizations(r, page, options.summary ? this.ctx.now() : undefined);
    });
  }

  async get(caller: Caller, ref: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, ref, 'view');
      return (await withOrganizations(r, { items: [project], total: 1 })).items[0];
    });
  }

  async update(caller: UserCaller, ref: string, patch: z.output<typeof updateProjectSchema>) {
    return this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, ref, 'manage');
      await assertAvailable(tx, project.organization_id, patch, project);
      const modified = this.ctx.now();
      await tx.projects.update({ id: project.id }, { ...patch, modified });
      return (await withOrganizations(tx, { items: [{ ...project, ...patch, modified }], total: 1 }))
        .items[0];
    });
  }

  /** Deletes a project with all its data. */
  async delete(caller: UserCaller, ref: string): Promise<void> {
    await excludingIngest(this.ctx, caller, ref, 'delete', (tx, { project }) =>
      tx.projects.deleteWithData(project.id),
    );
  }

  async allowed(caller: UserCaller, ref: string, permission: Permission) {
    const { permissions } = await this.ctx.storage.read((r) => requireProject(r, caller, ref, 'view'));
    return { allowed: permissions.has(permission) };
  }
}

function nameFilter(options: { name?: string }) {
  return options.name ? { name: options.name } : {};
}

/** Inserts a project after checking its name (per organization) and slug (per server). */
export async function insertProject(
  tx: WriteRepositories,
  organizationId: number,
  input: {
    name: string;
    slug?: string | undefined;
    url?: string | null | undefined;
    visibility?: 'public' | 'private';
  },
  now: Date,
): Promise<ProjectRecord> {
  await assertAvailable(tx, organizationId, input);
  return tx.projects.insert({
    uuid: randomUUID(),
    organization_id: organizationId,
    name: input.name,
    slug: input.slug ?? (await uniqueSlug(input.name, async (slug) => !!(await tx.projects.find({ slug })))),
    url: input.url ?? null,
    visibility: input.visibility ?? 'public',
    created: now,
    modified: now,
  });
}

async function assertAvailable(
  r: ReadRepositories,
  organizationId: number,
  input: { name?: string | undefined; slug?: string | undefined },
  current?: ProjectRecord,
): Promise<void> {
  if (
    input.name &&
    input.name !== current?.name &&
    (await r.projects.find({ organization_id: organizationId, name: input.name }))
  ) {
    throw new ConflictError(`a project named "${input.name}" already exists in this organization`);
  }
  if (input.slug && input.slug !== current?.slug && (await r.projects.find({ slug: input.slug }))) {
    throw new ConflictError(`project slug "${input.slug}" is taken; choose another or leave it out`);
  }
}

/** Adds each project's organization UUID (the wire format names it), and its summary as of `summaryAt`. */
async function withOrganizations(r: ReadRepositories, page: Page<ProjectRecord>, summaryAt?: Date) {
  const organizations = new Map<number, { uuid: string }>();
  for (const id of new Set(page.items.map((p) => p.organization_id))) {
    const organization = await r.organizations.find({ id });
    if (organization) organizations.set(id, organization);
  }
  const summaries = summaryAt ? await projectSummaries(r, page.items, summaryAt) : undefined;
  return {
    items: page.items.map((project) => {
      const json = projectJson(project, organizations.get(project.organization_id) ?? { uuid: '' });
      const summary = summaries?.get(project.id);
      return summary ? { ...json, summary } : json;
    }),
    total: page.total,
  };
}
