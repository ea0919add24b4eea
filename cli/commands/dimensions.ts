import { Option, type Command } from 'commander';
import type { ApiContext } from '../lib/api-context.js';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { describe } from '../lib/command-catalogue.js';
import { UsageError } from '../lib/errors.js';

type Kind = 'branch' | 'testbed' | 'benchmark' | 'measure';
const PLURAL: Record<Kind, string> = {
  branch: 'branches',
  testbed: 'testbeds',
  benchmark: 'benchmarks',
  measure: 'measures',
};
const EXAMPLE: Record<Kind, string> = {
  branch: 'feature-x',
  testbed: 'ci-linux',
  benchmark: 'parser-tokenize',
  measure: 'latency',
};

const schemaOf = (ctx: ApiContext, kind: Kind) =>
  kind === 'branch'
    ? ctx.core.branchSchema
    : kind === 'measure'
      ? ctx.core.measureSchema
      : ctx.core.dimensionSchema;

interface UpdateOptions {
  name?: string;
  slug?: string;
  units?: string;
  direction?: string;
  archive?: boolean;
  unarchive?: boolean;
  startPointBranch?: string;
  startPointHash?: string;
  startPointMaxVersions?: number;
  startPointCloneThresholds?: boolean;
  startPointReset?: boolean;
}

function startPointOptions(command: Command, reset: boolean): void {
  command
    .option('--start-point-branch <branch>', 'branch it starts from (its history and, if asked, thresholds)')
    .option('--start-point-hash <hash>', 'commit of the start point to start from')
    .option(
      '--start-point-max-versions <n>',
      'versions of history to take (default 255)',
      numberIn(1, 65_535),
    )
    .option('--start-point-clone-thresholds', "copy the start point's thresholds");
  if (reset)
    command.option('--start-point-reset', 'start a new head even when the start point did not change');
}

function startPointBody(o: UpdateOptions): Record<string, unknown> | undefined {
  const body = {
    branch: o.startPointBranch,
    hash: o.startPointHash,
    max_versions: o.startPointMaxVersions,
    clone_thresholds: o.startPointCloneThresholds || undefined,
    reset: o.startPointReset || undefined,
  };
  return Object.values(body).some((v) => v !== undefined) ? body : undefined;
}

function updateBody(kind: Kind, o: UpdateOptions): Record<string, unknown> {
  if (o.archive && o.unarchive) throw new UsageError('--archive and --unarchive exclude each other');
  return {
    name: o.name,
    slug: o.slug,
    ...(kind === 'measure' ? { units: o.units, direction: directionBody(o.direction) } : {}),
    ...(kind === 'branch' ? { start_point: startPointBody(o) } : {}),
    archived: o.archive ? true : o.unarchive ? false : undefined,
  };
}

/** `--direction` of a measure: which way it gets better, or `none` to declare none. */
function directionOption(command: Command, what: string): void {
  command.addOption(
    new Option(
      '--direction <direction>',
      `${what}: decides whether a change is a regression or an improvement`,
    ).choices(['lower_is_better', 'higher_is_better', 'none']),
  );
}

const directionBody = (direction: string | undefined) => (direction === 'none' ? null : direction);

/** `benchtrack branch|testbed|benchmark|measure`: the same five operations for each dimension of a project. */
export function registerDimensionCommands(program: Command): void {
  for (const kind of ['branch', 'testbed', 'benchmark', 'measure'] as const) registerDimension(program, kind);
  registerArchive(program, 'archive', true);
  registerArchive(program, 'unarchive', false);
}

function registerDimension(program: Command, kind: Kind): void {
  const plural = PLURAL[kind];
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/${plural}`;
  const one = (project: string | undefined, id: string | undefined) =>
    `${base(project)}/${segment(id ?? '')}`;
  const cmd = group(program, kind);
  apiCommand<ListOptions>(
    cmd,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: `List the ${plural} of a project`,
      examples: [
        `benchtrack ${kind} list my-project --search ${EXAMPLE[kind].split('-')[0]}`,
        `benchtrack ${kind} list my-project --archived`,
      ],
    },
    (c) => listOptions(c, ['name', 'created', 'modified'], { archived: true }),
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), { query: listQuery(o), schema: schemaOf(ctx, kind).array() }),
      ),
  );
  apiCommand<UpdateOptions>(
    cmd,
    {
      name: 'create <project>',
      aliases: ['add'],
      description: `Create a ${kind}`,
      examples: [
        kind === 'branch'
          ? 'benchtrack branch create my-project --name feature-x --start-point-branch main --start-point-clone-thresholds'
          : kind === 'measure'
            ? 'benchtrack measure create my-project --name "Peak memory" --units "bytes (B)" --direction lower_is_better'
            : `benchtrack ${kind} create my-project --name ${EXAMPLE[kind]}`,
      ],
    },
    (c) => {
      c.requiredOption('--name <name>', 'its name').option(
        '--slug <slug>',
        'its slug (default: from the name)',
      );
      if (kind === 'measure') {
        c.requiredOption('--units <units>', 'its units, e.g. "nanoseconds (ns)"');
        directionOption(c, 'which way it gets better (default: none declared)');
      }
      if (kind === 'branch') startPointOptions(c, false);
    },
    async (ctx, [project], o) => {
      const point = kind === 'branch' ? startPointBody(o) : undefined;
      if (point && !point.branch && Object.values(point).some((v) => v !== undefined)) {
        throw new UsageError('the --start-point-* options need --start-point-branch');
      }
      const body = {
        name: o.name,
        slug: o.slug,
        ...(kind === 'measure' ? { units: o.units, direction: directionBody(o.direction) } : {}),
        ...(point ? { start_point: point } : {}),
      };
      ctx.print(await ctx.client.post(base(project), { body, schema: schemaOf(ctx, kind) }));
    },
  );
  apiCommand<{ head?: string }>(
    cmd,
    {
      name: `view <project> <${kind}>`,
      aliases: ['get'],
      description: `View a ${kind}${kind === 'branch' ? ' (its current head, or an earlier one with --head)' : ''}`,
      examples: [
        `benchtrack ${kind} view my-project ${EXAMPLE[kind]}`,
        ...(kind === 'branch' ? ['benchtrack branch view my-project main --head 6a1c...'] : []),
      ],
    },
    (c) => {
      if (kind === 'branch') c.option('--head <uuid>', 'show this earlier head of the branch');
    },
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.get(one(project, id), { query: { head: o.head }, schema: schemaOf(ctx, kind) }),
      ),
  );
  apiCommand<UpdateOptions>(
    cmd,
    {
      name: `update <project> <${kind}>`,
      aliases: ['edit'],
      description: `Rename, re-slug${kind === 'branch' ? ', move the start point of' : ''} or archive a ${kind}`,
      examples: [
        `benchtrack ${kind} update my-project ${EXAMPLE[kind]} --archive`,
        ...(kind === 'branch'
          ? ['benchtrack branch update my-project feature-x --start-point-branch main --start-point-reset']
          : []),
      ],
    },
    (c) => {
      c.option('--name <name>', 'new name').option('--slug <slug>', 'new slug');
      if (kind === 'measure') {
        c.option('--units <units>', 'new units');
        directionOption(c, 'which way it gets better, or none');
      }
      if (kind === 'branch') startPointOptions(c, true);
      c.option('--archive', 'archive it (hidden from lists and the console)').option(
        '--unarchive',
        'bring it back',
      );
    },
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.patch(one(project, id), { body: updateBody(kind, o), schema: schemaOf(ctx, kind) }),
      ),
  );
  apiCommand<{ cascade?: boolean }>(
    cmd,
    {
      name: `delete <project> <${kind}>`,
      aliases: ['rm'],
      description: `Delete a ${kind}`,
      examples: [`benchtrack ${kind} delete my-project ${EXAMPLE[kind]} --cascade`],
    },
    (c) => c.option('--cascade', 'also delete every report, metric and threshold that uses it'),
    async (ctx, [project, id], o) => {
      await ctx.client.delete(one(project, id), { query: { cascade: o.cascade ? true : undefined } });
      ctx.say(`Deleted ${kind} ${id}.`);
    },
  );
}

interface ArchiveOptions {
  project: string;
  branch?: string;
  testbed?: string;
  benchmark?: string;
  measure?: string;
}

/** `benchtrack archive|unarchive --project P --branch B` (spec: States and transitions). */
function registerArchive(program: Command, name: 'archive' | 'unarchive', archived: boolean): void {
  apiCommand<ArchiveOptions>(
    program,
    {
      name,
      description: describe(name),
      examples: [
        `benchtrack ${name} --project my-project --branch feature-x`,
        `benchtrack ${name} --project my-project --benchmark old-parser`,
      ],
      notes: archived
        ? 'Archived ones are hidden from lists (--archived shows them) and from the console; their data stays.'
        : undefined,
    },
    (c) =>
      c
        .requiredOption(
          '--project <project>',
          'project UUID or slug (env BENCHTRACK_PROJECT)',
          process.env.BENCHTRACK_PROJECT,
        )
        .option('--branch <branch>', 'the branch')
        .option('--testbed <testbed>', 'the testbed')
        .option('--benchmark <benchmark>', 'the benchmark')
        .option('--measure <measure>', 'the measure'),
    async (ctx, _args, o) => {
      const given = (['branch', 'testbed', 'benchmark', 'measure'] as const).filter(
        (k) => o[k] !== undefined,
      );
      const kind = given[0];
      if (!kind || given.length > 1)
        throw new UsageError('name exactly one of --branch, --testbed, --benchmark or --measure');
      const path = `/v0/projects/${segment(o.project)}/${PLURAL[kind]}/${segment(o[kind] ?? '')}`;
      const response = await ctx.client.patch(path, { body: { archived }, schema: schemaOf(ctx, kind) });
      ctx.say(`${archived ? 'Archived' : 'Unarchived'} ${kind} ${(response.data as { name: string }).name}.`);
    },
  );
}
