import { Option, type Command } from 'commander';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';

/** `benchtrack job`: jobs queued by `benchtrack run --spec`: list, view, log, cancel. */
export function registerJobCommands(program: Command): void {
  const job = group(program, 'job');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/jobs`;
  apiCommand<ListOptions & { state?: string; spec?: string }>(
    job,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: 'List jobs, newest first',
      examples: ['benchtrack job list my-project --state running'],
    },
    (c) => {
      c.addOption(
        new Option('--state <state>', 'only jobs in this state').choices([
          'queued',
          'running',
          'succeeded',
          'failed',
          'canceled',
          'timed_out',
        ]),
      ).option('--spec <spec>', 'only jobs of this spec');
      listOptions(c, ['created'], { name: false });
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), {
          query: { ...listQuery(o), state: o.state, spec: o.spec },
          schema: ctx.core.jobSchema.array(),
        }),
      ),
  );
  apiCommand(
    job,
    {
      name: 'view <project> <job>',
      aliases: ['get'],
      description: 'View a job: state, runner, attempts, report',
      examples: ['benchtrack job view my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.get(`${base(project)}/${segment(id ?? '')}`, { schema: ctx.core.jobSchema }),
      ),
  );
  apiCommand(
    job,
    {
      name: 'log <project> <job>',
      description: "Print a job's output (at most 1 MiB is kept per job)",
      examples: ['benchtrack job log my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) => {
      let after = 0;
      for (;;) {
        const page = await ctx.client.get(`${base(project)}/${segment(id ?? '')}/log`, {
          query: { after },
          schema: ctx.core.jobLogSchema.array(),
        });
        for (const piece of page.data) process.stdout.write(piece.text);
        if (page.data.length < 255) break;
        after = page.data.at(-1)?.position ?? after;
      }
    },
  );
  apiCommand(
    job,
    {
      name: 'cancel <project> <job>',
      description: 'Cancel a queued or running job (its runner stops the command)',
      examples: ['benchtrack job cancel my-project 0190...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.post(`${base(project)}/${segment(id ?? '')}/cancel`, { schema: ctx.core.jobSchema }),
      ),
  );
}
