import { Option, type Command } from 'commander';
import type { ReportJson } from '../../core/index.js';
import type { ApiClient } from '../lib/client.js';
import { numberIn } from '../lib/backend-options.js';
import { apiCommand, group, listOptions, listQuery, type ListOptions, segment } from '../lib/command-kit.js';
import { UsageError } from '../lib/errors.js';
import { collect } from '../lib/options.js';
import type { RunOptions } from '../lib/run/options.js';

type Format = 'json' | 'human' | 'html';
const formatOption = () =>
  new Option('--format <format>', 'how to print the report')
    .choices(['json', 'human', 'html'])
    .default('json');
const seconds = numberIn(0, 32_503_680_000);

async function printReport(
  format: Format,
  raw: unknown,
  data: unknown,
  consoleUrl: () => Promise<string>,
): Promise<void> {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(raw, null, 2)}\n`);
    return;
  }
  const report = data as ReportJson;
  const url = await consoleUrl();
  if (format === 'human')
    process.stdout.write((await import('../lib/report/human.js')).humanReport(report, url));
  else process.stdout.write((await import('../lib/report/html.js')).reportHtmlPage(report, url));
}

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
  apiCommand<{ format: Format }>(
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
      await printReport(o.format, response.raw, response.data, async () => consoleUrl(ctx.client));
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

async function consoleUrl(client: ApiClient): Promise<string> {
  const { raw } = await client.get('/v0/server/config/console');
  return (raw as { url?: string }).url ?? 'http://localhost:3000';
}

type CreateOptions = RunOptions & {
  results?: string[];
  file?: string[];
  startTime?: number;
  endTime?: number;
  format: Format;
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
      c
        .requiredOption('--branch <branch>', 'branch UUID, slug or name (created when missing)')
        .requiredOption('--testbed <testbed>', 'testbed UUID, slug or name (created when missing)')
        .option('--results <text>', 'harness output or BMF of one iteration (repeatable)', collect)
        .option('--file <path>', 'file holding the output of one iteration (repeatable)', collect)
        .option('--hash <hash>', 'git commit of the version')
        .option('--start-time <epoch-seconds>', 'when the run started', seconds)
        .option('--end-time <epoch-seconds>', 'when it ended', seconds)
        .option('--adapter <adapter>', 'adapter of the output', 'magic')
        .addOption(new Option('--average <average>', 'average to report').choices(['mean', 'median']))
        .addOption(
          new Option('--fold <fold>', 'fold the iterations into one').choices([
            'min',
            'max',
            'mean',
            'median',
          ]),
        )
        .option('--start-point <branch>', 'branch a new branch starts from')
        .option('--start-point-hash <hash>', 'commit of the start point')
        .option('--start-point-max-versions <n>', 'versions of history to take', numberIn(1, 65_535))
        .option('--start-point-clone-thresholds', "copy the start point's thresholds")
        .option('--start-point-reset', 'start the branch anew')
        .option('--threshold-measure <measure>', 'measure of an inline threshold (repeatable)', collect)
        .option('--threshold-test <test>', 'its model (repeatable, by position)', collect)
        .option('--threshold-min-sample-size <n>', 'its minimum sample size, or _', collect)
        .option('--threshold-max-sample-size <n>', 'its maximum sample size, or _', collect)
        .option('--threshold-window <seconds>', 'its window, or _', collect)
        .option('--threshold-lower-boundary <boundary>', 'its lower boundary, or _', collect)
        .option('--threshold-upper-boundary <boundary>', 'its upper boundary, or _', collect)
        .option('--thresholds-reset', "remove the models of the branch and testbed's other thresholds")
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
      await printReport(o.format, response.raw, response.data, async () => consoleUrl(ctx.client));
    },
  );
}
