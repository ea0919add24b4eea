import { appendFile } from 'node:fs/promises';
import type { ReportJson } from '../../../core/index.js';
import { regressionSchema, type RegressionJson } from '../../../core/schemas/regressions.js';
import type { ApiClient } from '../client.js';
import { escapeHtml, reportHtmlFragment } from '../report/html.js';
import { GitHubApi, gitHubContext, type GitHubContext } from './github-api.js';
import type { RunOptions } from './options.js';

/** GitHub's limit on a check run's summary and on a comment's body (spec: 65,535). */
export const GITHUB_TEXT_MAX = 65_535;
/** A step's job summary may hold 1 MiB. */
const STEP_SUMMARY_MAX = 1024 * 1024;

export interface GitHubActionsRun {
  /** Completes the check run, writes the job summary and posts or updates the pull-request comment. */
  finish(report: ReportJson, consoleUrl: string): Promise<void>;
  /** Completes the check run as failed when the run stops before a report (so it does not spin forever). */
  fail(error: unknown): Promise<void>;
}

/**
 * The hidden marker that finds this run's comment again on the next push: keyed by the project and by
 * `--ci-id`, else by branch, testbed and adapter, so several `benchtrack run`s in one workflow keep one
 * comment each (reference).
 */
export function commentMarker(report: ReportJson, ciId: string | undefined): string {
  const id = ciId ?? `${report.branch.slug}/${report.testbed.slug}/${report.adapter}`;
  return `<div id="${escapeHtml(`benchtrack.dev/projects/${report.project.slug}/id/${id}`)}"></div>`;
}

/**
 * Starts the GitHub integration of `benchtrack run --github-actions <token>`: an in-progress check run is
 * created before the benchmark runs, so the pull request shows it at once. `client` reads the regressions a run
 * outside a pull request tells merged pull requests of.
 */
export async function startGitHubActions(
  options: RunOptions & { timeout: number },
  token: string,
  client: ApiClient | undefined,
): Promise<GitHubActionsRun> {
  const context = await gitHubContext(process.env, options.ciNumber);
  const api = new GitHubApi(context, token, options.timeout * 1000);
  const name = `Benchtrack Report (${options.ciId ?? options.project ?? 'benchmarks'})`;
  if (context.fromFork) {
    process.stderr.write(
      'benchtrack: warning: a pull request from a fork gets a read-only GITHUB_TOKEN: no check run and no comment (run the upload in a `workflow_run` workflow to get them)\n',
    );
  }
  const check = context.fromFork
    ? undefined
    : await api.request<{ id: number }>('POST', '/check-runs', {
        name,
        head_sha: context.sha,
        status: 'in_progress',
      });
  let completed = false;
  return {
    async finish(report, consoleUrl) {
      const fragment = (max: number) =>
        reportHtmlFragment(report, consoleUrl, { noMetrics: options.ciNoMetrics, maxLength: max });
      if (context.stepSummary) await appendFile(context.stepSummary, fragment(STEP_SUMMARY_MAX));
      if (!check) return;
      const alerts = report.counts.alerts.total;
      await api.request('PATCH', `/check-runs/${check.id}`, {
        status: 'completed',
        conclusion: alerts > 0 ? 'failure' : 'success',
        output: {
          title: alerts > 0 ? `${alerts} alert${alerts === 1 ? '' : 's'}` : 'No alerts',
          summary: fragment(GITHUB_TEXT_MAX),
        },
      });
      completed = true;
      await comment(api, context, report, options, fragment);
      // a run for a pull request reports on it alone; other runs (pushes, schedules) tell the merged ones
      if (context.pullRequest === undefined && !context.eventName.startsWith('pull_request') && client)
        await commentRegressions(api, client, report, consoleUrl).catch((error: unknown) =>
          process.stderr.write(
            `benchtrack: warning: the pull requests of new regressions were not told: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
        );
    },
    async fail(error) {
      if (!check || completed) return;
      const message = error instanceof Error ? error.message : String(error);
      await api.request('PATCH', `/check-runs/${check.id}`, {
        status: 'completed',
        conclusion: 'failure',
        output: {
          title: 'The benchmark run failed',
          summary: `<pre>${escapeHtml(message.slice(0, 60_000))}</pre>`,
        },
      });
    },
  };
}

interface IssueComment {
  readonly id: number;
  readonly body?: string;
}

async function comment(
  api: GitHubApi,
  context: GitHubContext,
  report: ReportJson,
  options: RunOptions,
  fragment: (max: number) => string,
): Promise<void> {
  if (context.pullRequest === undefined) return;
  const thresholds = (report.results ?? []).flat().some((r) => r.measures.some((m) => m.threshold !== null));
  if (options.ciOnlyThresholds && !thresholds) return;
  const marker = commentMarker(report, options.ciId);
  const body = `${marker}\n${fragment(GITHUB_TEXT_MAX - Buffer.byteLength(marker) - 1)}`;
  const existing = await findComment(api, context.pullRequest, marker);
  if (existing) {
    await api.request('PATCH', `/issues/comments/${existing.id}`, { body });
  } else if (!options.ciOnlyOnAlert || report.counts.alerts.total > 0) {
    // --ci-only-on-alert only holds back a new comment: one that exists is still brought up to date.
    await api.request('POST', `/issues/${context.pullRequest}/comments`, { body });
  }
}

async function findComment(
  api: GitHubApi,
  pullRequest: number,
  marker: string,
): Promise<IssueComment | undefined> {
  for (let page = 1; ; page++) {
    const comments = await api.request<IssueComment[]>(
      'GET',
      `/issues/${pullRequest}/comments?per_page=100&page=${page}`,
    );
    const found = comments.find((c) => c.body?.startsWith(marker));
    if (found) return found;
    if (comments.length < 100) return undefined;
  }
}

/** Open regressions of a push's branch and testbed whose pull request is looked for, newest first, at most. */
const REGRESSIONS_TOLD = 10;

/** The hidden marker of a regression's comment, so a pull request is told of each regression once. */
export function regressionMarker(regression: Pick<RegressionJson, 'uuid'>): string {
  return `<div id="${escapeHtml(`benchtrack.dev/regressions/${regression.uuid}`)}"></div>`;
}

/** `+15.2%` for a relative change of 0.152. */
const percent = (change: number | null) =>
  change === null ? 'n/a' : `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(1)}%`;

function regressionComment(regression: RegressionJson, project: string, link: string): string {
  const from = regression.last_good ? `v${regression.last_good.number}` : 'the start';
  const rows = regression.series.map(
    (s) => `| ${escapeHtml(s.benchmark.name)} | ${escapeHtml(s.measure.name)} | ${percent(s.change)} |`,
  );
  return [
    `### Benchtrack: a performance regression starts at this pull request's commit`,
    '',
    `In **${escapeHtml(project)}**, on ${escapeHtml(regression.branch.name)} / ${escapeHtml(regression.testbed.name)}, ${regression.series.length} series changed between ${from} and v${regression.first_bad.number} (${regression.first_bad.hash?.slice(0, 7) ?? ''}), the version this pull request merged:`,
    '',
    '| benchmark | measure | change |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `[The regression in Benchtrack](${link}) (status: ${regression.status})`,
  ].join('\n');
}

/**
 * Outside a pull request (a push to the main branch, a nightly run), the regressions open on the report's branch
 * and testbed are told to the merged pull request that brought each one's first bad commit (GitHub's pull
 * requests associated with a commit), once per regression: the run that sees the change-point detector's
 * confirmation tells it, however many runs later that comes.
 */
async function commentRegressions(
  api: GitHubApi,
  client: ApiClient,
  report: ReportJson,
  consoleUrl: string,
): Promise<void> {
  const project = report.project.slug;
  const { data: regressions } = await client.get(`/v0/projects/${project}/regressions`, {
    query: {
      status: 'open',
      kind: 'regression',
      branch: report.branch.uuid,
      testbed: report.testbed.uuid,
      sort: 'created',
      direction: 'desc',
      per_page: REGRESSIONS_TOLD,
    },
    schema: regressionSchema.array(),
  });
  for (const regression of regressions) {
    const hash = regression.first_bad.hash;
    if (!hash) continue;
    const pulls = await api.request<{ number: number; merged_at: string | null }[]>(
      'GET',
      `/commits/${hash}/pulls`,
    );
    const merged = pulls.find((pull) => pull.merged_at !== null);
    if (!merged) continue;
    const marker = regressionMarker(regression);
    if (await findComment(api, merged.number, marker)) continue;
    const link = `${consoleUrl.replace(/\/+$/, '')}/console/projects/${project}/regressions/${regression.uuid}`;
    await api.request('POST', `/issues/${merged.number}/comments`, {
      body: `${marker}\n${regressionComment(regression, report.project.name, link)}`,
    });
  }
}
