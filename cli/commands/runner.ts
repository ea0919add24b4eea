import { Option, type Command } from 'commander';
import type { ApiContext } from '../lib/api-context.js';
import { DEFAULT_HOST, numberIn } from '../lib/backend-options.js';
import {
  addExamples,
  apiCommand,
  group,
  listOptions,
  listQuery,
  type ListOptions,
  segment,
} from '../lib/command-kit.js';
import { collect } from '../lib/options.js';

/** Prints a runner with its new key, the key alone on the last line (for scripts: `| tail -n 1`). */
function printWithKey(ctx: ApiContext, response: { raw: unknown; data: { key: string } }): void {
  const { key, ...runner } = response.raw as Record<string, unknown>;
  process.stdout.write(`${JSON.stringify(runner, null, 2)}\n`);
  process.stderr.write(
    'benchtrack: the runner key follows; it is shown this once (start the runner with it)\n',
  );
  ctx.say(String(key ?? response.data.key));
}

/** `benchtrack runner`: dedicated benchmark machines (create, list, view, update, rotate-key, archive) and `up`. */
export function registerRunnerCommands(program: Command): void {
  const runner = group(program, 'runner');
  const path = (id: string | undefined) => `/v0/runners/${segment(id ?? '')}`;
  apiCommand<{ name: string; spec: string[]; slug?: string; organization?: string }>(
    runner,
    {
      name: 'create',
      description: 'Create a runner for one or more specs; its key is printed once, on the last line',
      examples: [
        'benchtrack runner create --name "Bench box 1" --spec bench-box',
        'benchtrack runner create --name lab-1 --spec x86-quiet --spec arm-quiet --organization my-org',
      ],
      notes:
        'Without --organization the runner serves every organization (server administrators only); with it, the\nprojects of that organization (its leaders may create it).',
    },
    (c) =>
      c
        .requiredOption('--name <name>', 'name of the runner')
        .requiredOption('--spec <spec>', 'a spec (slug) whose jobs it runs (repeatable)', collect)
        .option('--slug <slug>', 'slug (default: from the name)')
        .option(
          '--organization <organization>',
          'serve only the projects of this organization (UUID or slug)',
        ),
    async (ctx, _args, o) =>
      printWithKey(
        ctx,
        await ctx.client.post('/v0/runners', {
          body: { name: o.name, specs: o.spec, slug: o.slug, organization: o.organization },
          schema: ctx.core.runnerKeySchema,
        }),
      ),
  );
  apiCommand<ListOptions>(
    runner,
    {
      name: 'list',
      aliases: ['ls'],
      description: "List runners (all for administrators, your organizations' for leaders) with their state",
      examples: ['benchtrack runner list', 'benchtrack runner list --archived'],
    },
    (c) => listOptions(c, ['name', 'slug', 'created'], { archived: true }),
    async (ctx, _args, o) =>
      ctx.print(
        await ctx.client.get('/v0/runners', { query: listQuery(o), schema: ctx.core.runnerSchema.array() }),
      ),
  );
  apiCommand(
    runner,
    {
      name: 'view <runner>',
      aliases: ['get'],
      description: 'View a runner: state, current job, last heartbeat',
      examples: ['benchtrack runner view bench-box-1'],
    },
    () => undefined,
    async (ctx, [id]) => ctx.print(await ctx.client.get(path(id), { schema: ctx.core.runnerSchema })),
  );
  apiCommand<{ name?: string; slug?: string; spec?: string[] }>(
    runner,
    {
      name: 'update <runner>',
      aliases: ['edit'],
      description: 'Rename a runner or replace its specs',
      examples: ['benchtrack runner update bench-box-1 --spec bench-box --spec bench-box-2'],
    },
    (c) =>
      c
        .option('--name <name>', 'new name')
        .option('--slug <slug>', 'new slug')
        .option('--spec <spec>', 'the specs it serves from now on (repeatable; replaces them all)', collect),
    async (ctx, [id], o) =>
      ctx.print(
        await ctx.client.patch(path(id), {
          body: { name: o.name, slug: o.slug, specs: o.spec },
          schema: ctx.core.runnerSchema,
        }),
      ),
  );
  apiCommand(
    runner,
    {
      name: 'rotate-key <runner>',
      description: 'Give a runner a new key (printed on the last line); the old one stops working at once',
      examples: ['benchtrack runner rotate-key bench-box-1'],
    },
    () => undefined,
    async (ctx, [id]) =>
      printWithKey(ctx, await ctx.client.post(`${path(id)}/key`, { schema: ctx.core.runnerKeySchema })),
  );
  for (const [name, archived, description] of [
    ['archive', true, 'Archive a runner: its key stops working and its running job returns to the queue'],
    ['unarchive', false, 'Unarchive a runner'],
  ] as const)
    apiCommand(
      runner,
      { name: `${name} <runner>`, description, examples: [`benchtrack runner ${name} bench-box-1`] },
      () => undefined,
      async (ctx, [id]) =>
        ctx.print(await ctx.client.patch(path(id), { body: { archived }, schema: ctx.core.runnerSchema })),
    );
  registerUp(runner);
}

function registerUp(runner: Command): void {
  const up = runner
    .command('up')
    .description('Run jobs on this machine: claim one at a time, run it, report, repeat')
    .addOption(
      new Option('--host <url>', 'URL of the Benchtrack API').env('BENCHTRACK_HOST').default(DEFAULT_HOST),
    )
    .addOption(
      new Option('--key <key>', 'the runner key (runner create or rotate-key prints it)')
        .env('BENCHTRACK_RUNNER_KEY')
        .makeOptionMandatory(),
    )
    .option(
      '--timeout <seconds>',
      "the longest a job may run here, checkout included (a job's own timeout may be shorter)",
      numberIn(1, 86_400),
    )
    .option(
      '--no-network',
      'run commands without network (bubblewrap, else unshare; fails when neither works)',
    )
    .option(
      '--work-dir <dir>',
      'where each job gets its fresh work directory (default: the temporary directory)',
    )
    .option('--once', 'exit after one job')
    .option('--insecure-host', 'accept an invalid TLS certificate (self-signed test servers)')
    .option('--native-tls', "also trust the operating system's certificate store")
    .action(
      async (options: {
        host: string;
        key: string;
        timeout?: number;
        network: boolean;
        workDir?: string;
        once?: boolean;
        insecureHost?: boolean;
        nativeTls?: boolean;
      }) => {
        const { runAgent } = await import('../lib/runner/agent.js');
        process.exitCode = await runAgent({
          host: options.host,
          key: options.key,
          timeout: options.timeout,
          noNetwork: !options.network,
          workDir: options.workDir,
          once: options.once === true,
          insecureHost: options.insecureHost,
          nativeTls: options.nativeTls,
        });
      },
    );
  addExamples(
    runner,
    up,
    [
      'benchtrack runner up --host https://bench.example.com --key "$BENCHTRACK_RUNNER_KEY"',
      'benchtrack runner up --key btr_... --timeout 1800 --no-network',
    ],
    `Each job gets a fresh work directory with the repository at the job's commit (git must reach it: give this
machine read access), runs with the environment of the runner minus its BENCHTRACK_* variables, and the
directory is removed afterwards. Run one agent per runner key. Setting up a machine: docs/runners.md.`,
  );
}
