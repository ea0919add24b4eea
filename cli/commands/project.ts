import { Option, type Command } from 'commander';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';

/** `_` clears an optional value (reference "elided" values): `--url _` removes the URL. */
const clearable = (value: string | undefined) => (value === '_' ? null : value);

/** `benchtrack project`: list, create, view, update, delete, allowed. */
export function registerProjectCommands(program: Command): void {
  const project = group(program, 'project');
  const path = (id: string | undefined) => `/v0/projects/${segment(id ?? '')}`;
  apiCommand<ListOptions & { organization?: string }>(
    project,
    {
      name: 'list',
      aliases: ['ls'],
      description: 'List public projects and those you may see, or those of one organization',
      examples: ['benchtrack project list', 'benchtrack project list --organization acme --search api'],
    },
    (c) => {
      c.option('--organization <organization>', 'only the projects of this organization');
      listOptions(c, ['name', 'slug', 'created']);
    },
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.get(
          o.organization ? `/v0/organizations/${segment(o.organization)}/projects` : '/v0/projects',
          {
            query: listQuery(o),
            schema: ctx.core.projectSchema.array(),
          },
        ),
      ),
  );
  apiCommand<{ name: string; slug?: string; url?: string; visibility?: string }>(
    project,
    {
      name: 'create <organization>',
      aliases: ['add'],
      description: 'Create a project in an organization',
      examples: ['benchtrack project create acme --name "Acme API" --url https://github.com/acme/api'],
    },
    (c) =>
      c
        .requiredOption('--name <name>', 'its name')
        .option('--slug <slug>', 'its slug (default: from the name)')
        .option('--url <url>', 'its home page')
        .addOption(new Option('--visibility <visibility>', 'who may see it').choices(['public', 'private'])),
    async (ctx, [org], o) =>
      ctx.print(
        await ctx.client.post(`/v0/organizations/${segment(org ?? '')}/projects`, {
          body: { name: o.name, slug: o.slug, url: o.url, visibility: o.visibility },
          schema: ctx.core.projectSchema,
        }),
      ),
  );
  apiCommand(
    project,
    {
      name: 'view <project>',
      aliases: ['get'],
      description: 'View a project',
      examples: ['benchtrack project view acme-api'],
    },
    () => undefined,
    async (ctx, [id]) => ctx.print(await ctx.client.get(path(id), { schema: ctx.core.projectSchema })),
  );
  apiCommand<{ name?: string; slug?: string; url?: string; visibility?: string }>(
    project,
    {
      name: 'update <project>',
      aliases: ['edit'],
      description: "Change a project's name, slug, URL or visibility",
      examples: [
        'benchtrack project update acme-api --visibility private',
        'benchtrack project update acme-api --url _',
      ],
    },
    (c) =>
      c
        .option('--name <name>', 'new name')
        .option('--slug <slug>', 'new slug')
        .option('--url <url>', 'new home page, or _ to remove it')
        .addOption(new Option('--visibility <visibility>', 'who may see it').choices(['public', 'private'])),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.patch(path(id), {
          body: { name: o.name, slug: o.slug, url: clearable(o.url), visibility: o.visibility },
          schema: ctx.core.projectSchema,
        }),
      ),
  );
  apiCommand(
    project,
    {
      name: 'delete <project>',
      aliases: ['rm'],
      description: 'Delete a project and all its data',
      examples: ['benchtrack project delete acme-api'],
    },
    () => undefined,
    async (ctx, [id]) => {
      await ctx.client.delete(path(id));
      ctx.say(`Deleted project ${id}.`);
    },
  );
  apiCommand<{ perm: string }>(
    project,
    {
      name: 'allowed <project>',
      description: 'Whether you have a permission on a project',
      examples: ['benchtrack project allowed acme-api --perm edit'],
    },
    (c) =>
      c.requiredOption(
        '--perm <permission>',
        'view, create, edit, delete, manage, view_role, create_role, edit_role or delete_role',
      ),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.get(`${path(id)}/allowed/${segment(o.perm)}`, { schema: ctx.core.allowedSchema }),
      ),
  );
}
