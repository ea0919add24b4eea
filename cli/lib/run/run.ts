import { adaptResults, reportSchema, selectAdapter, type ReportJson } from '../../../core/index.js';
import type { BackendOptions } from '../backend-options.js';
import { ApiClient } from '../client.js';
import { UsageError } from '../errors.js';
import { adapterRegistry } from '../parse.js';
import { humanReport } from '../report/human.js';
import { reportHtmlPage } from '../report/html.js';
import { startGitHubActions } from './github-actions.js';
import { runBody } from './body.js';
import { collectResults } from './execute.js';
import { runContext } from './git-context.js';
import { deprecatedFlags, type RunOptions } from './options.js';

const DEFAULT_CONSOLE = 'http://localhost:3000';

/**
 * `benchtrack run` end to end: run the benchmark (or read files or stdin), send the run with its git context,
 * print the report (human, JSON or HTML), post to GitHub when asked, and return the exit code: 1 with
 * `--error-on-alert` when the report has alerts.
 */
export async function runBenchmarks(
  command: readonly string[],
  options: RunOptions & BackendOptions,
): Promise<number> {
  const deprecated = deprecatedFlags(options);
  if (deprecated.length > 0) throw new UsageError(deprecated.join('\n'));
  if (options.exec && command.length === 0) throw new UsageError('--exec needs a command to run');
  const client = options.dryRun ? undefined : new ApiClient(options);
  // Known early, concurrently with the benchmark: the version check and where the console is.
  const consoleUrl = client
    ?.get('/v0/server/config/console')
    .then(({ raw }) => (raw as { url?: string }).url ?? DEFAULT_CONSOLE)
    .catch(() => DEFAULT_CONSOLE);
  const github =
    options.githubActions && !options.dryRun
      ? await startGitHubActions(options, options.githubActions)
      : undefined;
  const collected = await collectResults(
    {
      command,
      exec: options.exec === true,
      shell: options.shell,
      flag: options.flag,
      files: options.file ?? [],
      fileSizes: options.fileSize ?? [],
      buildTime: options.buildTime === true,
      iterations: options.iter,
      allowFailure: options.allowFailure === true,
      echo: !options.quiet,
    },
    readStdin,
  );
  const body = runBody(options, collected, await runContext(process.cwd()));
  if (!client) {
    await checkParses(body.results as string[], options);
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  if (!options.quiet)
    process.stderr.write(
      `benchtrack: sending ${collected.results.length} result(s) to ${client.host.origin}\n`,
    );
  const { data: report } = await client.post('/v0/run', { body, schema: reportSchema, idempotent: true });
  const url = (await consoleUrl) ?? DEFAULT_CONSOLE;
  process.stdout.write(render(report, options.format, url));
  await github?.finish(report, url);
  const alerts = report.counts.alerts.total;
  if (alerts > 0 && (options.err || options.errorOnAlert)) {
    process.stderr.write(
      `benchtrack: the report has ${alerts} alert${alerts === 1 ? '' : 's'} (--error-on-alert)\n`,
    );
    return 1;
  }
  return 0;
}

function render(report: ReportJson, format: RunOptions['format'], consoleUrl: string): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'html') return reportHtmlPage(report, consoleUrl);
  return humanReport(report, consoleUrl);
}

/** `--dry-run` sends nothing, so the adapter is tried here: the output would otherwise fail at the server. */
async function checkParses(results: readonly string[], options: RunOptions): Promise<void> {
  const registry = await adapterRegistry();
  adaptResults(selectAdapter(registry, options.adapter), results, {
    average: options.average,
    fold: options.fold,
  });
}

/** Piped input, or undefined at a terminal (nothing is waiting there). */
async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
