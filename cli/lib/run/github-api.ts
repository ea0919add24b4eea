import { readFile } from 'node:fs/promises';
import { send } from '../http.js';
import { readVersion } from '../version.js';

/** The workflow run as GitHub Actions describes it through its environment. */
export interface GitHubContext {
  readonly apiUrl: string;
  readonly owner: string;
  readonly repo: string;
  readonly eventName: string;
  /** The commit the check run is attached to: a pull request's head, else GITHUB_SHA. */
  readonly sha: string;
  readonly pullRequest: number | undefined;
  /** A pull request from a fork gets a read-only token on `pull_request` events. */
  readonly fromFork: boolean;
  readonly stepSummary: string | undefined;
}

interface PullRequestEvent {
  pull_request?: {
    number?: number;
    head?: { sha?: string; repo?: { full_name?: string } };
    base?: { repo?: { full_name?: string } };
  };
}

/** Reads GITHUB_* variables and the event payload; fails with what is missing outside GitHub Actions. */
export async function gitHubContext(
  env: NodeJS.ProcessEnv,
  ciNumber: number | undefined,
): Promise<GitHubContext> {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo || !env.GITHUB_SHA) {
    throw Object.assign(
      new Error(
        '--github-actions needs the GitHub Actions environment (GITHUB_REPOSITORY, GITHUB_SHA): run it in a workflow, or drop the flag',
      ),
      { code: 'USAGE' },
    );
  }
  const event: PullRequestEvent = env.GITHUB_EVENT_PATH
    ? (JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8').catch(() => '{}')) as PullRequestEvent)
    : {};
  const pr = event.pull_request;
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const isPullRequest = eventName === 'pull_request' || eventName === 'pull_request_target';
  return {
    apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
    owner,
    repo,
    eventName,
    sha: pr?.head?.sha ?? env.GITHUB_SHA,
    pullRequest: ciNumber ?? (isPullRequest ? pr?.number : undefined),
    fromFork:
      eventName === 'pull_request' &&
      pr?.head?.repo?.full_name !== undefined &&
      pr.head.repo.full_name !== pr.base?.repo?.full_name,
    stepSummary: env.GITHUB_STEP_SUMMARY || undefined,
  };
}

/** A minimal GitHub REST client: JSON in and out, the token as a bearer, retries on 5xx and resets. */
export class GitHubApi {
  constructor(
    private readonly context: GitHubContext,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {}

  /** `path` is relative to the repository: `/issues/1/comments` means `/repos/{owner}/{repo}/issues/1/comments`. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(`${this.context.apiUrl}/repos/${this.context.owner}/${this.context.repo}${path}`);
    const response = await send(
      {
        method,
        url,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': `benchtrack/${readVersion()}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        idempotent: method !== 'POST',
      },
      {
        timeoutMs: this.timeoutMs,
        insecure: false,
        nativeTls: false,
        attempts: 3,
        retryAfterMs: 1000,
        maxRetryAfterMs: 4000,
        warn: (message) => process.stderr.write(`benchtrack: warning: GitHub: ${message}\n`),
      },
    );
    const text = response.body.toString('utf8');
    if (response.status >= 400) {
      const message = (() => {
        try {
          return (JSON.parse(text) as { message?: string }).message ?? text;
        } catch {
          return text;
        }
      })();
      const hint =
        response.status === 403 || response.status === 404
          ? '\n  hint: give the workflow `permissions: pull-requests: write` and `checks: write`, and pass `--github-actions ${{ secrets.GITHUB_TOKEN }}`'
          : '';
      throw Object.assign(
        new Error(`GitHub ${method} ${url.pathname} failed (${response.status}): ${message}${hint}`),
        {
          code: 'GITHUB',
        },
      );
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}
