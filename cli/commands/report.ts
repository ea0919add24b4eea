import { Option, type Command } from 'commander';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';
import { collect } from '../lib/options.js';
import type { ReportJson } from '../../core/index.js';
import type { ApiContext } from '../lib/api-context.js';
import type { ApiResponse } from '../lib/client.js';
import { reportFlags } from '../lib/report-flags.js';
import type { ReportFormat } from '../lib/report/render.js';
import type { RunOptions } from '../lib/run/options.js';

const formatOption = () =>
  new Option('--format <format>', 'how to print the report')
    .choices(['json', 'human', 'html'])
    .default('json');
const seconds = numberIn(0, 32_503_680_000);

const print = async (ctx: ApiContext, format: ReportFormat, response: ApiResponse<ReportJson>) => {
  const { renderReport } = await import('../lib/report/render.js');
  const url = format === 'json' ? '' : await ctx.client.consoleUrl();
  process.stdout.write(renderReport(response.data, response.raw, format, url));
};

/** `benchtrack report`: create (results given as text or files), list, view, delete; and `metric view`. */
export function registerReportCommands(program: Command): void {
  const report = group(program, 'report');
  const base = (project: string | undefined) => `/v0/projects/${segment(project ?? '')}/reports`;
  apiCommand<
    ListOptions & {
      branch?: string;
      testbed?: string;
      startTime?: number;
      endTime?: number;
      expand?: boolean;
    }
  >(
    report,
    {
      name: 'list <project>',
      aliases: ['ls'],
      description: 'List reports, newest first',
      examples: [
        'benchtrack report list my-project --branch main --per-page 20',
        'benchtrack report list my-project --start-time 1767225600 --expand',
      ],
    },
    (c) => {
      c.option('--branch <branch>', 'only on this branch')
        .option('--testbed <testbed>', 'only on this testbed')
        .option('--start-time <epoch-seconds>', 'only those that started at or after it', seconds)
        .option('--end-time <epoch-seconds>', 'only those that ended at or before it', seconds)
        .option('--expand', 'include results and alerts');
      listOptions(c, ['date_time'], { search: false, archived: true });
    },
    async (ctx, [project], o) =>
      ctx.print(
        await ctx.client.get(base(project), {
          query: {
            ...listQuery(o),
            branch: o.branch,
            testbed: o.testbed,
            start_time: o.startTime === undefined ? undefined : o.startTime * 1000,
            end_time: o.endTime === undefined ? undefined : o.endTime * 1000,
            expand: o.expand ? true : undefined,
          },
          schema: ctx.core.reportSchema.array(),
        }),
      ),
  );
  registerReportCreate(report, base);
  apiCommand<{ format: ReportFormat }>(
    report,
    {
      name: 'view <project> <report>',
      aliases: ['get'],
      description: 'View a report with its results and alerts',
      examples: [
        'benchtrack report view my-project 1b2c...',
        'benchtrack report view my-project 1b2c... --format human',
      ],
    },
    (c) => c.addOption(formatOption()),
    async (ctx, [project, id], o) => {
      const response = await ctx.client.get(`${base(project)}/${segment(id ?? '')}`, {
        schema: ctx.core.reportSchema,
      });
      await print(ctx, o.format, response);
    },
  );
  apiCommand(
    report,
    {
      name: 'delete <project> <report>',
      aliases: ['rm'],
      description: 'Delete a report and its metrics',
      examples: ['benchtrack report delete my-project 1b2c...'],
    },
    () => undefined,
    async (ctx, [project, id]) => {
      await ctx.client.delete(`${base(project)}/${segment(id ?? '')}`);
      ctx.say(`Deleted report ${id}.`);
    },
  );
  const metric = group(program, 'metric');
  apiCommand(
    metric,
    {
      name: 'view <project> <metric>',
      aliases: ['get'],
      description: 'View a metric by UUID',
      examples: ['benchtrack metric view my-project 5d6e...'],
    },
    () => undefined,
    async (ctx, [project, id]) =>
      ctx.print(
        await ctx.client.get(`/v0/projects/${segment(project ?? '')}/metrics/${segment(id ?? '')}`, {
          schema: ctx.core.oneMetricSchema,
        }),
      ),
  );
}

type CreateOptions = RunOptions & {
  results?: string[];
  file?: string[];
  startTime?: number;
  endTime?: number;
  format: ReportFormat;
};

function registerReportCreate(report: Command, base: (project: string | undefined) => string): void {
  apiCommand<CreateOptions>(
    report,
    {
      name: 'create <project>',
      aliases: ['add'],
      description: 'Create a report from results you already have (benchtrack run also runs the benchmark)',
      examples: [
        'benchtrack report create my-project --branch main --testbed ci-linux --results "$(cat bmf.json)"',
        'benchtrack report create my-project --branch main --testbed ci-linux --adapter go_bench --file bench.txt --start-time 1767225600',
      ],
      notes: 'Each --results text and each --file is one iteration. Times are epoch seconds (default: now).',
    },
    (c) =>
      reportFlags(c)
        .requiredOption('--branch <branch>', 'branch UUID, slug or name (created when missing)')
        .requiredOption('--testbed <testbed>', 'testbed UUID, slug or name (created when missing)')
        .option('--results <text>', 'harness output or BMF of one iteration (repeatable)', collect)
        .option('--file <path>', 'file holding the output of one iteration (repeatable)', collect)
        .option('--hash <hash>', 'git commit of the version')
        .option('--start-time <epoch-seconds>', 'when the run started', seconds)
        .option('--end-time <epoch-seconds>', 'when it ended', seconds)
        .addOption(formatOption()),
    async (ctx, [project], o) => {
      const { readFile } = await import('node:fs/promises');
      const { reportThresholds, startPoint } = await import('../lib/run/body.js');
      const results = [
        ...(o.results ?? []),
        ...(await Promise.all((o.file ?? []).map((f) => readFile(f, 'utf8')))),
      ];
      if (results.length === 0)
        throw new UsageError('give the results with --results <text> or --file <path>');
      const now = Date.now() / 1000;
      const start = new Date((o.startTime ?? o.endTime ?? now) * 1000);
      const end = new Date((o.endTime ?? Math.max(o.startTime ?? now, now)) * 1000);
      const thresholds = reportThresholds(o);
      const body = {
        branch: o.branch,
        testbed: o.testbed,
        hash: o.hash,
        start_point: startPoint(o),
        thresholds,
        start_time: start.toISOString(),
        end_time: end.toISOString(),
        results,
        settings: { adapter: o.adapter, average: o.average, fold: o.fold },
      };
      const response = await ctx.client.post(base(project), { body, schema: ctx.core.reportSchema });
      await print(ctx, o.format, response);
    },
  );
}
