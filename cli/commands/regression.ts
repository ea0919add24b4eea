import { Option, type Command } from 'commander';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';

interface ListFilters extends ListOptions {
  readonly status?: string;
  readonly kind?: string;
  readonly branch?: string;
  readonly testbed?: string;
  readonly benchmark?: string;
  readonly measure?: string;
}

interface Triage {
  readonly status?: string;
  readonly note?: string;
  readonly issueUrl?: string;
  readonly assignee?: string;
  readonly clear?: string[];
}

const TRIAGE_STATUSES = ['untriaged', 'acknowledged', 'invalid', 'fixed', 'expected'];
const CLEARABLE = ['note', 'issue_url', 'assignee'];

/** `benchtrack regression`: list, view, history, triage. */
export function registerRegressionCommands(program: Command): void {
  const regression = group(program, 'regression');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/regressions`;
  apiCommand<ListFilters>(
    regression,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description:
        'List regressions: open (untriaged, acknowledged) first, then closed; suspected ones only with --status',
      examples: [
        'benchtrack regression list my-project --status open',
        'benchtrack regression list my-project --branch main --benchmark parse --kind regression',
      ],
    },
    (c) => {
      c.option(
        '--status <statuses>',
        'comma-separated: open, suspected, untriaged, acknowledged, invalid, fixed, expected',
      )
        .addOption(
          new Option('--kind <kind>', 'regressions or improvements only').choices([
            'regression',
            'improvement',
          ]),
        )
        .option('--branch <branch>', 'branch UUID, slug or name')
        .option('--testbed <testbed>', 'testbed UUID, slug or name')
        .option('--benchmark <benchmark>', 'only those with a series of this benchmark (UUID, slug or name)')
        .option('--measure <measure>', 'only those with a series of this measure (UUID, slug or name)');
      listOptions(c, ['status', 'created', 'modified', 'version'], { name: false });
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), {
          query: {
            ...listQuery(o),
            status: o.status,
            kind: o.kind,
            branch: o.branch,
            testbed: o.testbed,
            benchmark: o.benchmark,
            measure: o.measure,
          },
          schema: ctx.core.regressionSchema.array(),
        }),
      ),
  );
  apiCommand(
    regression,
    {
      name: 'view <project> <regression>',
      aliases: ['get'],
      description: 'View a regression: its range, series with their change, alerts and triage',
      examples: ['benchtrack regression view my-project 7a8b...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.get(`${base(project)}/${segment(id ?? '')}`, { schema: ctx.core.regressionSchema }),
      ),
  );
  apiCommand(
    regression,
    {
      name: 'history <project> <regression>',
      description: 'The status changes and triage of a regression, oldest first',
      examples: ['benchtrack regression history my-project 7a8b...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.get(`${base(project)}/${segment(id ?? '')}/history`, {
          schema: ctx.core.regressionEventSchema.array(),
        }),
      ),
  );
  apiCommand<Triage>(
    regression,
    {
      name: 'triage <project> <regression>',
      aliases: ['update', 'edit'],
      description:
        'Triage a regression: set its status, note, issue URL or assignee (recorded in its history)',
      examples: [
        'benchtrack regression triage my-project 7a8b... --status acknowledged --assignee ada --issue-url https://github.com/acme/app/issues/42',
        'benchtrack regression triage my-project 7a8b... --status expected --note "the new allocator trades speed for memory"',
        'benchtrack regression triage my-project 7a8b... --clear assignee',
      ],
    },
    (c) =>
      c
        .addOption(new Option('--status <status>', 'new status').choices(TRIAGE_STATUSES))
        .option('--note <text>', 'a note for whoever looks at it next')
        .option('--issue-url <url>', 'the issue that tracks it (http or https)')
        .option('--assignee <user>', 'a member of the organization (user UUID or slug)')
        .addOption(new Option('--clear <field...>', 'empty these fields').choices(CLEARABLE)),
    async (ctx, [project, id], o) => {
      const body: Record<string, string | null> = {};
      if (o.status) body.status = o.status;
      if (o.note !== undefined) body.note = o.note;
      if (o.issueUrl !== undefined) body.issue_url = o.issueUrl;
      if (o.assignee !== undefined) body.assignee = o.assignee;
      for (const field of o.clear ?? []) {
        if (body[field] !== undefined)
          throw new UsageError(`--clear ${field} and a new ${field} cannot go together`);
        body[field] = null;
      }
      if (Object.keys(body).length === 0)
        throw new UsageError('name what to change: --status, --note, --issue-url, --assignee or --clear');
      ctx.print(
        await ctx.client.patch(`${base(project)}/${segment(id ?? '')}`, {
          body,
          schema: ctx.core.regressionSchema,
        }),
      );
    },
  );
}
