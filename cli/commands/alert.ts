import { Option, type Command } from 'commander';
import type { ApiContext } from '../lib/api-context.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';

/** `benchtrack alert`: list (active first), view, dismiss (one or all), reactivate, update. */
export function registerAlertCommands(program: Command): void {
  const alert = group(program, 'alert');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/alerts`;
  apiCommand<ListOptions & { status?: string }>(
    alert,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: 'List alerts, active first',
      examples: ['benchtrack alert list my-project --status active'],
    },
    (c) => {
      c.addOption(
        new Option('--status <status>', 'only alerts in this state').choices([
          'active',
          'dismissed',
          'silenced',
        ]),
      );
      listOptions(c, ['status', 'created', 'modified'], { search: false });
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), {
          query: { ...listQuery(o), status: o.status },
          schema: ctx.core.alertSchema.array(),
        }),
      ),
  );
  apiCommand(
    alert,
    {
      name: 'view <project> <alert>',
      aliases: ['get'],
      description: 'View an alert',
      examples: ['benchtrack alert view my-project 7a8b...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.get(`${base(project)}/${segment(id ?? '')}`, { schema: ctx.core.alertSchema }),
      ),
  );
  const setStatus =
    (status: 'active' | 'dismissed') =>
    async (ctx: ApiContext, [project, id]: string[]) =>
      ctx.print(
        await ctx.client.patch(`${base(project)}/${segment(id ?? '')}`, {
          body: { status },
          schema: ctx.core.alertSchema,
        }),
      );
  apiCommand<{ all?: boolean }>(
    alert,
    {
      name: 'dismiss <project> [alert]',
      description: 'Dismiss an alert (a known, accepted change), or every active alert with --all',
      examples: ['benchtrack alert dismiss my-project 7a8b...', 'benchtrack alert dismiss my-project --all'],
    },
    (c) => c.option('--all', 'dismiss every active alert of the project'),
    async (ctx, args, o) => {
      const [project, id] = args;
      if (o.all === (id !== undefined)) throw new UsageError('name one alert, or pass --all (not both)');
      if (!o.all) return setStatus('dismissed')(ctx, args);
      const response = await ctx.client.patch(base(project), { body: { status: 'dismissed' } });
      ctx.print(response);
    },
  );
  apiCommand(
    alert,
    {
      name: 'reactivate <project> <alert>',
      description: 'Make a dismissed alert active again',
      examples: ['benchtrack alert reactivate my-project 7a8b...'],
    },
    () => undefined,
    setStatus('active'),
  );
  apiCommand<{ status: 'active' | 'dismissed' }>(
    alert,
    {
      name: 'update <project> <alert>',
      aliases: ['edit'],
      description: 'Set the status of an alert',
      examples: ['benchtrack alert update my-project 7a8b... --status dismissed'],
    },
    (c) =>
      c.addOption(
        new Option('--status <status>', 'new status').choices(['active', 'dismissed']).makeOptionMandatory(),
      ),
    async (ctx, args, o) => setStatus(o.status)(ctx, args),
  );
}
