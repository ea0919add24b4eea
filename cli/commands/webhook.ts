import { Option, type Command } from 'commander';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, segment } from '../lib/command-kit.js';

const EVENTS = ['regression.created', 'regression.updated', 'regression.closed', 'report.created'];

interface PageOptions {
  perPage?: number;
  page?: number;
}

function pageOptions(command: Command): void {
  command
    .option('--per-page <n>', 'items per page (1-255, default 8)', numberIn(1, 255))
    .option('--page <n>', 'page number, from 1', numberIn(1, 2 ** 31));
}

const pageQuery = (o: PageOptions) => ({ per_page: o.perPage, page: o.page });

/** The secret from --secret, or from the environment variable --secret-env names (kept out of shell history). */
function secretOf(o: { secret?: string | false; secretEnv?: string }): string | undefined {
  if (o.secretEnv === undefined) return o.secret || undefined;
  const value = process.env[o.secretEnv];
  if (!value)
    throw Object.assign(new Error(`--secret-env ${o.secretEnv}: the environment variable is not set`), {
      code: 'USAGE',
    });
  return value;
}

/** `benchtrack webhook`: a project's webhooks, their test deliveries, and every delivery with its attempts. */
export function registerWebhookCommands(program: Command): void {
  const webhook = group(program, 'webhook');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/webhooks`;
  const one = (project: string | undefined, id: string | undefined) =>
    `${base(project)}/${segment(id ?? '')}`;
  const targetOptions = (c: Command, create: boolean) =>
    c
      .option('--secret <secret>', 'sign each body with this key (X-Benchtrack-Signature); never shown again')
      .option('--secret-env <variable>', 'read the secret from this environment variable instead')
      .addOption(
        new Option('--format <format>', `body format${create ? ' (default json)' : ''}`).choices([
          'json',
          'slack',
        ]),
      )
      .addOption(
        new Option(
          '--event <event...>',
          `events to send (repeatable; ${create ? 'default: the three regression events' : 'replaces the list'})`,
        ).choices(EVENTS),
      );
  apiCommand<{ url: string; secret?: string; secretEnv?: string; format?: string; event?: string[] }>(
    webhook,
    {
      name: 'create <project>',
      description:
        "Create a webhook: the project's regressions (and, if asked, reports) are posted to the URL",
      examples: [
        'benchtrack webhook create my-project --url https://ci.example.com/hooks/bench --secret-env HOOK_SECRET',
        'benchtrack webhook create my-project --url https://hooks.slack.com/services/T0/B0/XXXX --format slack',
      ],
      notes:
        'Members who may write to the project manage its webhooks. Deliveries are retried on errors, timeouts and\n5xx answers (six attempts over about an hour); `benchtrack webhook deliveries` shows each attempt.',
    },
    (c) => targetOptions(c.requiredOption('--url <url>', 'where events are posted (http or https)'), true),
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.post(base(project), {
          body: { url: o.url, secret: secretOf(o), format: o.format, events: o.event },
          schema: ctx.core.webhookSchema,
        }),
      ),
  );
  apiCommand<PageOptions>(
    webhook,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: "List a project's webhooks with their last delivery",
      examples: ['benchtrack webhook list my-project'],
    },
    pageOptions,
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), { query: pageQuery(o), schema: ctx.core.webhookSchema.array() }),
      ),
  );
  apiCommand(
    webhook,
    {
      name: 'view <project> <webhook>',
      aliases: ['get'],
      description: 'View a webhook',
      examples: ['benchtrack webhook view my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(await ctx.client.get(one(project, id), { schema: ctx.core.webhookSchema })),
  );
  apiCommand<{
    url?: string;
    secret?: string | false;
    secretEnv?: string;
    format?: string;
    event?: string[];
  }>(
    webhook,
    {
      name: 'update <project> <webhook>',
      description: "Change a webhook's URL, secret, format or events",
      examples: [
        'benchtrack webhook update my-project 0190... --event regression.created --event report.created',
      ],
    },
    (c) =>
      targetOptions(c.option('--url <url>', 'where events are posted'), false).option(
        '--no-secret',
        'remove the secret: bodies go unsigned',
      ),
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.patch(one(project, id), {
          body: {
            url: o.url,
            secret: o.secret === false ? null : secretOf({ ...o, secret: o.secret }),
            format: o.format,
            events: o.event,
          },
          schema: ctx.core.webhookSchema,
        }),
      ),
  );
  apiCommand(
    webhook,
    {
      name: 'delete <project> <webhook>',
      aliases: ['rm'],
      description: 'Delete a webhook and its deliveries (pending ones are not sent)',
      examples: ['benchtrack webhook delete my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) => {
      await ctx.client.delete(one(project, id));
      ctx.say(`Deleted webhook ${id}.`);
    },
  );
  apiCommand(
    webhook,
    {
      name: 'test <project> <webhook>',
      description: 'Send the webhook a test delivery (event ping) now',
      examples: ['benchtrack webhook test my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(await ctx.client.post(`${one(project, id)}/test`, { schema: ctx.core.deliverySchema })),
  );
  apiCommand<PageOptions>(
    webhook,
    {
      name: 'deliveries <project> <webhook>',
      description: "A webhook's deliveries, newest first, with every attempt's status, duration and error",
      examples: ['benchtrack webhook deliveries my-project 0190... --per-page 20'],
    },
    pageOptions,
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.get(`${one(project, id)}/deliveries`, {
          query: pageQuery(o),
          schema: ctx.core.deliverySchema.array(),
        }),
      ),
  );
  apiCommand(
    webhook,
    {
      name: 'redeliver <project> <webhook> <delivery>',
      description: 'Send a delivered or failed delivery again (same body and delivery UUID)',
      examples: ['benchtrack webhook redeliver my-project 0190... 0191...'],
    },
    () => undefined,
    async (ctx, [project, id, delivery]) =>
      ctx.print(
        await ctx.client.post(`${one(project, id)}/deliveries/${segment(delivery ?? '')}/redeliver`, {
          schema: ctx.core.deliverySchema,
        }),
      ),
  );
}
