import { Option, type Command } from 'commander';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, segment, type ListOptions } from '../lib/command-kit.js';
import { describe } from '../lib/command-catalogue.js';
import { UsageError } from '../lib/errors.js';
import { TABLE_STYLE_NAMES, type TableStyle } from '../lib/table.js';

/** Repeatable option whose values may also be comma-separated: `--benchmarks a,b --benchmarks c`. */
const list = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];
const seconds = numberIn(0, 32_503_680_000);

interface PerfOptions {
  branches: string[];
  heads?: string[];
  testbeds: string[];
  benchmarks: string[];
  measures: string[];
  startTime?: number;
  endTime?: number;
  table?: TableStyle | true;
  csv?: boolean;
  image?: string;
  title?: string;
  changes?: boolean;
  maxPvalue?: string;
  minMagnitude?: string;
  windowLen?: string;
}

function selection(command: Command): Command {
  return command
    .requiredOption('--branches <branches>', 'branch UUIDs or slugs (comma-separated or repeated)', list)
    .option('--heads <heads>', 'head UUIDs aligned with --branches; _ means the current head', list)
    .requiredOption('--testbeds <testbeds>', 'testbed UUIDs or slugs', list)
    .requiredOption('--benchmarks <benchmarks>', 'benchmark UUIDs or slugs', list)
    .requiredOption('--measures <measures>', 'one or two measure UUIDs or slugs', list)
    .option('--start-time <epoch-seconds>', 'only points from reports that started at or after it', seconds)
    .option('--end-time <epoch-seconds>', 'only points from reports that ended at or before it', seconds);
}

function perfQuery(o: PerfOptions): Record<string, string | number | undefined> {
  return {
    branches: o.branches.join(','),
    heads: o.heads?.map((h) => (h === '_' ? '' : h)).join(','),
    testbeds: o.testbeds.join(','),
    benchmarks: o.benchmarks.join(','),
    measures: o.measures.join(','),
    start_time: o.startTime === undefined ? undefined : o.startTime * 1000,
    end_time: o.endTime === undefined ? undefined : o.endTime * 1000,
  };
}

/** `benchtrack perf` (the history of benchmarks, as JSON, a table, CSV or an image) and `benchtrack plot`. */
export function registerPerfCommands(program: Command): void {
  apiCommand<PerfOptions>(
    program,
    {
      name: 'perf <project>',
      description: describe('perf'),
      examples: [
        'benchtrack perf my-project --branches main --testbeds ci-linux --benchmarks parse,render --measures latency --table',
        'benchtrack perf my-project --branches main,feature --testbeds ci-linux --benchmarks parse --measures latency --table markdown',
        'benchtrack perf my-project --branches main --testbeds ci-linux --benchmarks parse --measures latency --csv > parse.csv',
        'benchtrack perf my-project --branches main --testbeds ci-linux --benchmarks parse --measures latency --image parse.png',
        'benchtrack perf my-project --branches main --testbeds ci-linux --benchmarks parse,render --measures latency --changes --table',
      ],
      notes: `Table styles: ${TABLE_STYLE_NAMES.join(', ')} (default ascii). At most 255 branch x testbed x benchmark x measure combinations.`,
    },
    (c) =>
      selection(c)
        .addOption(new Option('--table [style]', 'print a table instead of JSON').choices(TABLE_STYLE_NAMES))
        .option('--csv', 'print CSV instead of JSON')
        .option('--image <file>', 'write a PNG plot of the first measure to this file')
        .option('--title <title>', 'title of the --image')
        .option('--changes', "print each series' change points (JSON, or a --table) instead of its points")
        .option('--max-pvalue <p>', 'with --changes: significance level (default 0.0005)')
        .option('--min-magnitude <fraction>', 'with --changes: smallest relative change kept (default 0)')
        .option(
          '--window-len <points>',
          'with --changes: most points on each side of a change its test reads (default 50)',
        ),
    async (ctx, [project], o) => {
      if ([o.table !== undefined, o.csv, o.image !== undefined].filter(Boolean).length > 1) {
        throw new UsageError('choose one of --table, --csv and --image');
      }
      const path = `/v0/projects/${segment(project ?? '')}/perf`;
      if (o.changes) {
        if (o.csv || o.image)
          throw new UsageError('--changes prints JSON or a --table, not --csv or --image');
        const query = {
          ...perfQuery(o),
          max_pvalue: o.maxPvalue,
          min_magnitude: o.minMagnitude,
          window_len: o.windowLen,
        };
        const response = await ctx.client.get(`${path}/changes`, {
          query,
          schema: ctx.core.perfChangesSchema,
        });
        if (o.table === undefined) return ctx.print(response);
        const { changesTable } = await import('../lib/changes-table.js');
        process.stdout.write(changesTable(response.data, o.table === true ? 'ascii' : o.table));
        return;
      }
      if (o.maxPvalue ?? o.minMagnitude ?? o.windowLen) {
        throw new UsageError('--max-pvalue, --min-magnitude and --window-len go with --changes');
      }
      if (o.csv || o.image) {
        const query = o.csv ? { ...perfQuery(o), format: 'csv' } : { ...perfQuery(o), title: o.title };
        const response = await ctx.client.get(o.csv ? path : `${path}/img`, { query, binary: true });
        if (o.csv) process.stdout.write(response.bytes);
        else {
          await (await import('node:fs/promises')).writeFile(o.image ?? '', response.bytes);
          ctx.say(`Wrote ${o.image} (${response.bytes.length} bytes).`);
        }
        return;
      }
      const response = await ctx.client.get(path, { query: perfQuery(o), schema: ctx.core.perfSchema });
      if (o.table === undefined) return ctx.print(response);
      const { perfTable } = await import('../lib/perf-table.js');
      process.stdout.write(perfTable(response.data, o.table === true ? 'ascii' : o.table));
    },
  );
  registerPlotCommands(program);
}

interface PlotOptions {
  index?: number;
  title?: string;
  lowerValue?: boolean;
  upperValue?: boolean;
  lowerBoundary?: boolean;
  upperBoundary?: boolean;
  xAxis?: string;
  yAxis?: string;
  window?: number;
  branches?: string[];
  testbeds?: string[];
  benchmarks?: string[];
  measures?: string[];
}

function plotLooks(command: Command): Command {
  return command
    .option('--index <n>', 'position on the dashboard, from 0', numberIn(0, 63))
    .option('--title <title>', 'its title (_ clears it)')
    .option('--lower-value', 'draw the lower bound of each metric')
    .option('--upper-value', 'draw the upper bound of each metric')
    .option('--lower-boundary', 'draw the lower limit of the threshold')
    .option('--upper-boundary', 'draw the upper limit of the threshold')
    .addOption(new Option('--y-axis <scale>', 'vertical scale').choices(['auto', 'linear', 'log']));
}

const plotBody = (o: PlotOptions) => ({
  index: o.index,
  title: o.title === '_' ? null : o.title,
  lower_value: o.lowerValue,
  upper_value: o.upperValue,
  lower_boundary: o.lowerBoundary,
  upper_boundary: o.upperBoundary,
  x_axis: o.xAxis,
  y_axis: o.yAxis,
  window: o.window,
  branches: o.branches,
  testbeds: o.testbeds,
  benchmarks: o.benchmarks,
  measures: o.measures,
});

function registerPlotCommands(program: Command): void {
  const plot = group(program, 'plot');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/plots`;
  apiCommand<ListOptions>(
    plot,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: 'List the pinned plots of a project',
      examples: ['benchtrack plot list my-project'],
    },
    (c) => listOptions(c, ['index', 'title'], { name: false }),
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), { query: listQuery(o), schema: ctx.core.plotSchema.array() }),
      ),
  );
  apiCommand<PlotOptions>(
    plot,
    {
      name: 'create <project>',
      aliases: ['add'],
      description: 'Pin a plot to the dashboard',
      examples: [
        'benchtrack plot create my-project --title Parser --x-axis version --window 2592000 --branches main --testbeds ci-linux --benchmarks parse,render --measures latency --upper-boundary',
      ],
    },
    (c) =>
      plotLooks(c)
        .addOption(
          new Option('--x-axis <axis>', 'horizontal axis')
            .choices(['date_time', 'version'])
            .default('date_time'),
        )
        .requiredOption(
          '--window <seconds>',
          'how much history it shows, up to now',
          numberIn(1, 2_147_483_647),
        )
        .requiredOption('--branches <branches>', 'branch UUIDs or slugs', list)
        .requiredOption('--testbeds <testbeds>', 'testbed UUIDs or slugs', list)
        .requiredOption('--benchmarks <benchmarks>', 'benchmark UUIDs or slugs', list)
        .requiredOption('--measures <measures>', 'one or two measure UUIDs or slugs', list),
    async (ctx, [project], o) =>
      ctx.print(await ctx.client.post(base(project), { body: plotBody(o), schema: ctx.core.plotSchema })),
  );
  apiCommand<{ image?: string }>(
    plot,
    {
      name: 'view <project> <plot>',
      aliases: ['get'],
      description: 'View a pinned plot, or save its image',
      examples: [
        'benchtrack plot view my-project 4e5f...',
        'benchtrack plot view my-project 4e5f... --image plot.png',
      ],
    },
    (c) => c.option('--image <file>', 'write its PNG image to this file instead'),
    async (ctx, [project, id], o) => {
      const path = `${base(project)}/${segment(id ?? '')}`;
      if (!o.image) return ctx.print(await ctx.client.get(path, { schema: ctx.core.plotSchema }));
      const response = await ctx.client.get(`${path}/img`, { binary: true });
      await (await import('node:fs/promises')).writeFile(o.image, response.bytes);
      ctx.say(`Wrote ${o.image} (${response.bytes.length} bytes).`);
    },
  );
  apiCommand<PlotOptions>(
    plot,
    {
      name: 'update <project> <plot>',
      aliases: ['edit'],
      description: 'Change how a pinned plot looks or where it sits',
      examples: ['benchtrack plot update my-project 4e5f... --index 0 --title _ --y-axis log'],
    },
    (c) =>
      plotLooks(c)
        .addOption(new Option('--x-axis <axis>', 'horizontal axis').choices(['date_time', 'version']))
        .option('--window <seconds>', 'how much history it shows', numberIn(1, 2_147_483_647)),
    async (ctx, [project, id], o) =>
      ctx.print(
        await ctx.client.patch(`${base(project)}/${segment(id ?? '')}`, {
          body: plotBody(o),
          schema: ctx.core.plotSchema,
        }),
      ),
  );
  apiCommand(
    plot,
    {
      name: 'delete <project> <plot>',
      aliases: ['rm'],
      description: 'Unpin a plot',
      examples: ['benchtrack plot delete my-project 4e5f...'],
    },
    () => undefined,
    async (ctx, [project, id]) => {
      await ctx.client.delete(`${base(project)}/${segment(id ?? '')}`);
      ctx.say(`Deleted plot ${id}.`);
    },
  );
}
