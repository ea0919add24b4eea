import { Option, type Command } from 'commander';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';

const ROLES = ['leader', 'member'];

/** `benchtrack organization` (alias `org`): list, create, view, update, delete, allowed, claim, usage. */
export function registerOrganizationCommands(program: Command): void {
  const org = group(program, 'organization');
  apiCommand<ListOptions>(
    org,
    {
      name: 'list',
      aliases: ['ls'],
      description: 'List the organizations you belong to',
      examples: ['benchtrack org list --search acme'],
    },
    (c) => listOptions(c, ['name', 'slug', 'created']),
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.get('/v0/organizations', {
          query: listQuery(o),
          schema: ctx.core.organizationSchema.array(),
        }),
      ),
  );
  apiCommand<{ name: string; slug?: string }>(
    org,
    {
      name: 'create',
      aliases: ['add'],
      description: 'Create an organization (you become its leader)',
      examples: ['benchtrack org create --name "Acme Inc" --slug acme'],
    },
    (c) =>
      c
        .requiredOption('--name <name>', 'its name')
        .option('--slug <slug>', 'its slug (default: from the name)'),
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.post('/v0/organizations', {
          body: { name: o.name, slug: o.slug },
          schema: ctx.core.organizationSchema,
        }),
      ),
  );
  apiCommand(
    org,
    {
      name: 'view <organization>',
      aliases: ['get'],
      description: 'View an organization',
      examples: ['benchtrack org view acme'],
    },
    () => undefined,
    async (ctx, [id]) =>
      ctx.print(
        await ctx.client.get(`/v0/organizations/${segment(id ?? '')}`, {
          schema: ctx.core.organizationSchema,
        }),
      ),
  );
  apiCommand<{ name?: string; slug?: string; license?: string }>(
    org,
    {
      name: 'update <organization>',
      aliases: ['edit'],
      description: "Change an organization's name, slug or license",
      examples: [
        'benchtrack org update acme --name "Acme Corp"',
        'benchtrack org update acme --license "$(cat acme.license)"',
        'benchtrack org update acme --license _',
      ],
      notes: 'Setting or removing the license needs the manage permission (leaders and administrators).',
    },
    (c) =>
      c
        .option('--name <name>', 'new name')
        .option('--slug <slug>', 'new slug')
        .option('--license <jwt|_>', 'the license (a JWT); _ removes it'),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.patch(`/v0/organizations/${segment(id ?? '')}`, {
          body: {
            name: o.name,
            slug: o.slug,
            ...(o.license === undefined ? {} : { license: o.license === '_' ? null : o.license }),
          },
          schema: ctx.core.organizationSchema,
        }),
      ),
  );
  apiCommand(
    org,
    {
      name: 'usage <organization>',
      description: 'Metrics used in the current period, against the license or the daily quota',
      examples: ['benchtrack org usage acme'],
    },
    () => undefined,
    async (ctx, [id]) =>
      ctx.print(
        await ctx.client.get(`/v0/organizations/${segment(id ?? '')}/usage`, {
          schema: ctx.core.usageSchema,
        }),
      ),
  );
  apiCommand(
    org,
    {
      name: 'delete <organization>',
      aliases: ['rm'],
      description: 'Delete an organization and all its projects',
      examples: ['benchtrack org delete acme'],
    },
    () => undefined,
    async (ctx, [id]) => {
      await ctx.client.delete(`/v0/organizations/${segment(id ?? '')}`);
      ctx.say(`Deleted organization ${id}.`);
    },
  );
  apiCommand<{ perm: string }>(
    org,
    {
      name: 'allowed <organization>',
      description: 'Whether you have a permission in an organization',
      examples: ['benchtrack org allowed acme --perm manage'],
    },
    (c) =>
      c.requiredOption(
        '--perm <permission>',
        'view, create, edit, delete, manage, view_role, create_role, edit_role or delete_role',
      ),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.get(`/v0/organizations/${segment(id ?? '')}/allowed/${segment(o.perm)}`, {
          schema: ctx.core.allowedSchema,
        }),
      ),
  );
  apiCommand(
    org,
    {
      name: 'claim <organization>',
      description: 'Claim an unclaimed organization (one made by an anonymous `benchtrack run`)',
      examples: ['benchtrack org claim my-app-1a2b3c4'],
    },
    () => undefined,
    async (ctx, [id]) =>
      ctx.print(
        await ctx.client.post(`/v0/organizations/${segment(id ?? '')}/claim`, {
          body: {},
          schema: ctx.core.organizationSchema,
        }),
      ),
  );
  registerMemberCommands(program);
}

/** `benchtrack member`: the members of an organization and invitations. */
function registerMemberCommands(program: Command): void {
  const member = group(program, 'member');
  const base = (org: string | undefined) => `/v0/organizations/${segment(org ?? '')}/members`;
  apiCommand<ListOptions>(
    member,
    {
      name: 'list <organization>',
      aliases: ['ls'],
      description: 'List the members of an organization',
      examples: ['benchtrack member list acme'],
    },
    (c) => listOptions(c, ['name', 'slug']),
    async (ctx, [org], o) =>
      ctx.print(
        await ctx.client.get(base(org), { query: listQuery(o), schema: ctx.core.memberSchema.array() }),
      ),
  );
  apiCommand<{ email: string; role: string; name?: string }>(
    member,
    {
      name: 'invite <organization>',
      description: 'Invite someone by e-mail',
      examples: ['benchtrack member invite acme --email ada@example.com --role member'],
    },
    (c) =>
      c
        .requiredOption('--email <email>', 'address the invitation goes to')
        .addOption(
          new Option('--role <role>', 'role in the organization').choices(ROLES).makeOptionMandatory(),
        )
        .option('--name <name>', 'name of the invited person'),
    async (ctx, [org], o) => {
      const response = await ctx.client.post(base(org), {
        body: { email: o.email, role: o.role, name: o.name },
      });
      ctx.print(response);
    },
  );
  apiCommand(
    member,
    {
      name: 'view <organization> <user>',
      aliases: ['get'],
      description: 'View a member',
      examples: ['benchtrack member view acme ada'],
    },
    () => undefined,
    async (ctx, [org, user]) =>
      ctx.print(
        await ctx.client.get(`${base(org)}/${segment(user ?? '')}`, { schema: ctx.core.memberSchema }),
      ),
  );
  apiCommand<{ role: string }>(
    member,
    {
      name: 'update <organization> <user>',
      aliases: ['edit'],
      description: "Change a member's role",
      examples: ['benchtrack member update acme ada --role leader'],
    },
    (c) => c.addOption(new Option('--role <role>', 'new role').choices(ROLES).makeOptionMandatory()),
    async (ctx, [org, user], o) =>
      ctx.print(
        await ctx.client.patch(`${base(org)}/${segment(user ?? '')}`, {
          body: { role: o.role },
          schema: ctx.core.memberSchema,
        }),
      ),
  );
  apiCommand(
    member,
    {
      name: 'remove <organization> <user>',
      aliases: ['rm'],
      description: 'Remove a member from an organization',
      examples: ['benchtrack member remove acme ada'],
    },
    () => undefined,
    async (ctx, [org, user]) => {
      await ctx.client.delete(`${base(org)}/${segment(user ?? '')}`);
      ctx.say(`Removed ${user} from ${org}.`);
    },
  );
}
