import { Option, type Command } from 'commander';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';

interface ModelOptions {
  test?: string;
  minSampleSize?: number;
  maxSampleSize?: number;
  window?: number;
  lowerBoundary?: number;
  upperBoundary?: number;
  removeModel?: boolean;
}

const TESTS = 'static, percentage, z_score, t_test, log_normal, iqr, delta_iqr or change_point';

function modelOptions(command: Command, required: boolean): void {
  const test = new Option('--test <test>', `the model: ${TESTS}`);
  command
    .addOption(required ? test.makeOptionMandatory() : test)
    .option('--min-sample-size <n>', 'fewest historical values before testing', numberIn(1, 2 ** 32 - 1))
    .option('--max-sample-size <n>', 'most historical values to test against', numberIn(1, 2 ** 32 - 1))
    .option('--window <seconds>', 'only history this recent', numberIn(1, 2 ** 32 - 1))
    .option(
      '--lower-boundary <boundary>',
      'lower boundary (its meaning depends on the model)',
      numberIn(-1e12, 1e12, false),
    )
    .option('--upper-boundary <boundary>', 'upper boundary', numberIn(-1e12, 1e12, false));
}

const modelBody = (o: ModelOptions) => ({
  test: o.test,
  min_sample_size: o.minSampleSize,
  max_sample_size: o.maxSampleSize,
  window: o.window,
  lower_boundary: o.lowerBoundary,
  upper_boundary: o.upperBoundary,
});

/** `benchtrack threshold`: list, create, view (with model history), update (a new model), delete. */
export function registerThresholdCommands(program: Command): void {
  const threshold = group(program, 'threshold');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/thresholds`;
  apiCommand<ListOptions & { branch?: string; testbed?: string; measure?: string }>(
    threshold,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: 'List the thresholds of a project',
      examples: ['benchtrack threshold list my-project --branch main --measure latency'],
    },
    (c) => {
      c.option('--branch <branch>', 'only on this branch')
        .option('--testbed <testbed>', 'only on this testbed')
        .option('--measure <measure>', 'only for this measure');
      listOptions(c, ['created', 'modified'], { search: true, archived: true });
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), {
          query: { ...listQuery(o), branch: o.branch, testbed: o.testbed, measure: o.measure },
          schema: ctx.core.thresholdSchema.array(),
        }),
      ),
  );
  apiCommand<ModelOptions & { branch: string; testbed: string; measure: string }>(
    threshold,
    {
      name: 'create <project>',
      aliases: ['add'],
      description: 'Create a threshold: alerts when a new value falls outside the model’s limits',
      examples: [
        'benchtrack threshold create my-project --branch main --testbed ci-linux --measure latency --test t_test --max-sample-size 64 --upper-boundary 0.99',
      ],
    },
    (c) => {
      c.requiredOption('--branch <branch>', 'branch UUID, slug or name')
        .requiredOption('--testbed <testbed>', 'testbed UUID, slug or name')
        .requiredOption('--measure <measure>', 'measure UUID, slug or name');
      modelOptions(c, true);
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.post(base(project), {
          body: { branch: o.branch, testbed: o.testbed, measure: o.measure, ...modelBody(o) },
          schema: ctx.core.thresholdSchema,
        }),
      ),
  );
  apiCommand<{ model?: string }>(
    threshold,
    {
      name: 'view <project> <threshold>',
      aliases: ['get'],
      description: 'View a threshold, or one of its earlier models',
      examples: [
        'benchtrack threshold view my-project 3f1e...',
        'benchtrack threshold view my-project 3f1e... --model 9c0d...',
      ],
    },
    (c) => c.option('--model <uuid>', 'show this earlier model'),
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.get(`${base(project)}/${segment(id ?? '')}`, {
          query: { model: o.model },
          schema: ctx.core.thresholdSchema,
        }),
      ),
  );
  apiCommand<ModelOptions>(
    threshold,
    {
      name: 'update <project> <threshold>',
      aliases: ['edit'],
      description: 'Replace the model of a threshold (the old one stays in its history)',
      examples: [
        'benchtrack threshold update my-project 3f1e... --test percentage --upper-boundary 0.1',
        'benchtrack threshold update my-project 3f1e... --remove-model',
      ],
    },
    (c) => {
      modelOptions(c, false);
      c.option('--remove-model', 'remove the model: the threshold stops testing');
    },
    async (ctx, [project, id], o) => {
      if (!o.removeModel && !o.test)
        throw new UsageError('give the new model with --test, or --remove-model');
      const body = o.removeModel ? { test: null } : modelBody(o);
      ctx.print(
        await ctx.client.put(`${base(project)}/${segment(id ?? '')}`, {
          body,
          schema: ctx.core.thresholdSchema,
        }),
      );
    },
  );
  apiCommand(
    threshold,
    {
      name: 'delete <project> <threshold>',
      aliases: ['rm'],
      description: 'Delete a threshold',
      examples: ['benchtrack threshold delete my-project 3f1e...'],
    },
    () => undefined,
    async (ctx, [project, id]) => {
      await ctx.client.delete(`${base(project)}/${segment(id ?? '')}`);
      ctx.say(`Deleted threshold ${id}.`);
    },
  );
}
