import type { ReportJson } from '../../../core/schemas/reports.js';
import { DEFAULT_CONSOLE_URL, type ApiResponse } from '../client.js';
import { renderReport } from '../report/render.js';
import type { GitHubActionsRun } from './github-actions.js';
import type { RunOptions } from './options.js';

/**
 * The end of `benchtrack run`, local or on a runner: prints the report in the chosen format, finishes the GitHub
 * check, and answers the exit code (1 with `--error-on-alert` when the report has alerts).
 */
export async function printReport(
  response: ApiResponse<ReportJson>,
  options: RunOptions,
  consoleUrl: Promise<string> | undefined,
  github: GitHubActionsRun | undefined,
): Promise<number> {
  const report = response.data;
  const url = (await consoleUrl) ?? DEFAULT_CONSOLE_URL;
  process.stdout.write(renderReport(report, response.raw, options.format, url));
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
