import { InvalidArgumentError, type Command } from 'commander';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';

const yesNo = (value: string): boolean => {
  if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('must be true or false');
  return value === 'true';
};

/** `benchtrack user`, `benchtrack token` and `benchtrack auth` (sign up and log in without the console). */
export function registerAccountCommands(program: Command): void {
  const user = group(program, 'user');
  apiCommand<ListOptions>(
    user,
    {
      name: 'list',
      aliases: ['ls'],
      description: 'List users (server administrators only)',
      examples: ['benchtrack user list --search ada'],
    },
    (c) => listOptions(c, ['name', 'slug', 'created']),
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.get('/v0/users', { query: listQuery(o), schema: ctx.core.userSchema.array() }),
      ),
  );
  apiCommand(
    user,
    {
      name: 'view [user]',
      aliases: ['get'],
      description: "View a user (default: the token's own)",
      examples: ['benchtrack user view', 'benchtrack user view ada'],
    },
    () => undefined,
    async (ctx, [id]) =>
      ctx.print(
        await ctx.client.get(`/v0/users/${segment(id ?? ctx.self())}`, { schema: ctx.core.userSchema }),
      ),
  );
  apiCommand<{ name?: string; slug?: string; email?: string; admin?: boolean; locked?: boolean }>(
    user,
    {
      name: 'update [user]',
      aliases: ['edit'],
      description: 'Change account settings (admin and locked: administrators only)',
      examples: ['benchtrack user update --name "Ada Lovelace"', 'benchtrack user update bob --locked true'],
    },
    (c) =>
      c
        .option('--name <name>', 'new name')
        .option('--slug <slug>', 'new slug')
        .option('--email <email>', 'new e-mail address')
        .option('--admin <true|false>', 'make a server administrator, or not', yesNo)
        .option('--locked <true|false>', 'lock the account, or unlock it', yesNo),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.patch(`/v0/users/${segment(id ?? ctx.self())}`, {
          body: { name: o.name, slug: o.slug, email: o.email, admin: o.admin, locked: o.locked },
          schema: ctx.core.userSchema,
        }),
      ),
  );
  registerTokenCommands(program);
  registerAuthCommands(program);
}

function registerTokenCommands(program: Command): void {
  const token = group(program, 'token');
  const base = (user: string | undefined, self: () => string) =>
    `/v0/users/${segment(user ?? self())}/tokens`;
  const userOption = (c: Command) =>
    c.option('--user <user>', "whose tokens (default: the token's own user)");
  apiCommand<ListOptions & { user?: string }>(
    token,
    { name: 'list', aliases: ['ls'], description: 'List API tokens', examples: ['benchtrack token list'] },
    (c) => {
      userOption(c);
      listOptions(c, ['name', 'creation']);
    },
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.get(base(o.user, ctx.self), {
          query: listQuery(o),
          schema: ctx.core.tokenSchema.array(),
        }),
      ),
  );
  apiCommand<{ name: string; ttl?: number; user?: string }>(
    token,
    {
      name: 'create',
      aliases: ['add'],
      description: 'Create an API token for CI (needs a session token from `benchtrack auth confirm`)',
      examples: ['benchtrack token create --name ci --ttl 31536000 --token "$SESSION_TOKEN"'],
      notes:
        'The new token is printed once (the "token" field); keep it as BENCHTRACK_API_TOKEN in your CI secrets.',
    },
    (c) => {
      c.requiredOption('--name <name>', 'its name').option(
        '--ttl <seconds>',
        'its lifetime (default: unlimited)',
        numberIn(1, 4_294_967_295),
      );
      userOption(c);
    },
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.post(base(o.user, ctx.self), {
          body: { name: o.name, ttl: o.ttl },
          schema: ctx.core.tokenCreatedSchema,
        }),
      ),
  );
  apiCommand<{ user?: string }>(
    token,
    {
      name: 'view <uuid>',
      aliases: ['get'],
      description: 'View an API token (not its secret)',
      examples: ['benchtrack token view 2c3d...'],
    },
    (c) => userOption(c),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.get(`${base(o.user, ctx.self)}/${segment(id ?? '')}`, {
          schema: ctx.core.tokenSchema,
        }),
      ),
  );
  apiCommand<{ name: string; user?: string }>(
    token,
    {
      name: 'update <uuid>',
      aliases: ['edit'],
      description: 'Rename an API token',
      examples: ['benchtrack token update 2c3d... --name ci-linux'],
    },
    (c) => userOption(c.requiredOption('--name <name>', 'new name')),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.patch(`${base(o.user, ctx.self)}/${segment(id ?? '')}`, {
          body: { name: o.name },
          schema: ctx.core.tokenSchema,
        }),
      ),
  );
  apiCommand<{ user?: string }>(
    token,
    {
      name: 'revoke <uuid>',
      aliases: ['rm', 'delete'],
      description: 'Revoke an API token for good',
      examples: ['benchtrack token revoke 2c3d...'],
    },
    (c) => userOption(c),
    async (ctx, [id], o) => {
      await ctx.client.delete(`${base(o.user, ctx.self)}/${segment(id ?? '')}`);
      ctx.say(`Revoked token ${id}.`);
    },
  );
}

function registerAuthCommands(program: Command): void {
  const auth = group(program, 'auth');
  apiCommand<{ name: string; slug?: string; invite?: string; claim?: string }>(
    auth,
    {
      name: 'signup <email>',
      description: 'Sign up: a confirmation link is e-mailed (or written to the server log without SMTP)',
      examples: ['benchtrack auth signup ada@example.com --name "Ada Lovelace"'],
      notes: 'By signing up you accept the terms of the server. Then run `benchtrack auth confirm <link>`.',
    },
    (c) =>
      c
        .requiredOption('--name <name>', 'your name')
        .option('--slug <slug>', 'your slug')
        .option('--invite <token>', 'join the organization of this invitation')
        .option('--claim <organization-uuid>', 'claim this unclaimed organization'),
    async (ctx, [email], o) =>
      ctx.print(
        await ctx.client.post('/v0/auth/signup', {
          body: { name: o.name, slug: o.slug, email, i_agree: true, invite: o.invite, claim: o.claim },
        }),
      ),
  );
  apiCommand(
    auth,
    {
      name: 'login <email>',
      description: 'Log in: a link is e-mailed',
      examples: ['benchtrack auth login ada@example.com'],
    },
    () => undefined,
    async (ctx, [email]) => ctx.print(await ctx.client.post('/v0/auth/login', { body: { email } })),
  );
  apiCommand(
    auth,
    {
      name: 'confirm <link-or-token>',
      description: 'Exchange the e-mailed link (or its token) for a session token',
      examples: ['benchtrack auth confirm "http://localhost:3000/auth/confirm?token=eyJ..."'],
      notes:
        'The answer holds the session token: pass it as --token (or BENCHTRACK_API_TOKEN), e.g. to `benchtrack token create`.',
    },
    () => undefined,
    async (ctx, [link]) => {
      const token = /^https?:/.test(link ?? '')
        ? (new URL(link ?? '').searchParams.get('token') ?? '')
        : link;
      ctx.print(
        await ctx.client.post('/v0/auth/confirm', { body: { token }, schema: ctx.core.authUserSchema }),
      );
    },
  );
  apiCommand(
    auth,
    {
      name: 'accept <invite>',
      description: 'Accept an invitation to an organization',
      examples: ['benchtrack auth accept eyJ... --token "$SESSION_TOKEN"'],
    },
    () => undefined,
    async (ctx, [invite]) => ctx.print(await ctx.client.post('/v0/auth/accept', { body: { invite } })),
  );
}
