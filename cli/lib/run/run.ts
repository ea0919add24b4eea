import { adaptResults, selectAdapter } from '../../../core/adapters/selection.js';
import { reportSchema } from '../../../core/schemas/reports.js';
import type { BackendOptions } from '../backend-options.js';
import { ApiClient } from '../client.js';
import { UsageError } from '../errors.js';
import { adapterRegistry } from '../parse.js';
import { readStdin } from '../stdin.js';
import { startGitHubActions, type GitHubActionsRun } from './github-actions.js';
import { runBody } from './body.js';
import { collectResults } from './execute.js';
import { runContext } from './git-context.js';
import { deprecatedFlags, type RunOptions } from './options.js';
import { printReport } from './print.js';
import { runRemote, type RemoteOptions } from './remote.js';

/**
 * `benchtrack run` end to end: run the benchmark (or read files or stdin), send the run with its git context,
 * print the report (human, JSON or HTML), post to GitHub when asked, and return the exit code: 1 with
 * `--error-on-alert` when the report has alerts.
 */
export async function runBenchmarks(
  command: readonly string[],
  options: RunOptions & BackendOptions & Partial<RemoteOptions>,
): Promise<number> {
  const deprecated = deprecatedFlags(options);
  if (deprecated.length > 0) throw new UsageError(deprecated.join('\n'));
  if (options.exec && command.length === 0) throw new UsageError('--exec needs a command to run');
  const client = options.dryRun ? undefined : new ApiClient(options);
  // Known early, concurrently with the benchmark: the version check and where the console is.
  const consoleUrl = client?.consoleUrl();
  const github =
    options.githubActions && !options.dryRun
      ? await startGitHubActions(options, options.githubActions, client)
      : undefined;
  const { spec } = options;
  try {
    if (spec !== undefined)
      return await runRemote(
        command,
        { ...options, spec, wait: options.wait !== false },
        client,
        consoleUrl,
        github,
      );
    if (options.repo !== undefined || options.jobTimeout !== undefined || options.wait === false)
      throw new UsageError('--repo, --job-timeout and --no-wait queue a job: they need --spec');
    return await runAndReport(command, options, client, consoleUrl, github);
  } catch (error) {
    // The check run opened above must not stay "in progress" forever.
    await github?.fail(error).catch(() => undefined);
    throw error;
  }
}

/** Runs the benchmark, sends the run, prints the report and finishes the GitHub check: the exit code. */
async function runAndReport(
  command: readonly string[],
  options: RunOptions & BackendOptions,
  client: ApiClient | undefined,
  consoleUrl: Promise<string> | undefined,
  github: GitHubActionsRun | undefined,
): Promise<number> {
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
  const response = await client.post('/v0/run', { body, schema: reportSchema, idempotent: true });
  return printReport(response, options, consoleUrl, github);
}

/** `--dry-run` sends nothing, so the adapter is tried here: the output would otherwise fail at the server. */
async function checkParses(results: readonly string[], options: RunOptions): Promise<void> {
  const registry = await adapterRegistry();
  adaptResults(selectAdapter(registry, options.adapter), results, {
    average: options.average,
    fold: options.fold,
  });
}
