import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { runDefaults } from '../../../core/reports/run-context.js';
import { jobLogSchema, jobSchema } from '../../../core/schemas/jobs.js';
import { reportSchema } from '../../../core/schemas/reports.js';
import type { BackendOptions } from '../backend-options.js';
import type { ApiClient } from '../client.js';
import { UsageError } from '../errors.js';
import { reportThresholds, startPoint } from './body.js';
import { runContext } from './git-context.js';
import type { GitHubActionsRun } from './github-actions.js';
import type { RunOptions } from './options.js';
import { printReport } from './print.js';

/** The options of `benchtrack run` that queue a job instead of running the command here. */
export interface RemoteOptions {
  readonly spec: string;
  readonly repo?: string;
  readonly jobTimeout?: number;
  /** false with --no-wait: print the job's UUID and return. */
  readonly wait: boolean;
}

type Job = z.output<typeof jobSchema>;

const FOLLOW_EVERY_MS = 1000;

function originUrl(cwd: string): Promise<string | undefined> {
  return new Promise((resolve) =>
    execFile('git', ['config', '--get', 'remote.origin.url'], { cwd, timeout: 5000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    ),
  );
}

/** The body of `POST /v0/projects/{project}/jobs`: the command, how to run it, and where the code is. */
async function jobBody(command: readonly string[], options: RunOptions & RemoteOptions) {
  if (options.testbed)
    throw new UsageError(
      `--testbed: the report of a job goes to the testbed of its spec (${options.spec}); drop --testbed`,
    );
  if (command.length === 0)
    throw new UsageError(
      '--spec needs the benchmark command the runner runs (files and stdin are read here only)',
    );
  const context = await runContext(process.cwd());
  const defaults = runDefaults(context, true);
  const repository = options.repo ?? (await originUrl(process.cwd()));
  if (!repository)
    throw new UsageError(
      '--spec needs the repository the runner fetches: pass --repo <url> (this directory has no git remote "origin")',
    );
  const hash = options.hash || defaults.hash;
  if (!hash)
    throw new UsageError(
      '--spec needs the commit the runner checks out: pass --hash <sha> (no git HEAD here)',
    );
  const point = startPoint(options);
  const thresholds = reportThresholds(options);
  let project = options.project;
  if (!project) {
    try {
      project = runDefaults(context, false).project?.slug;
    } catch {
      project = undefined;
    }
  }
  if (!project)
    throw new UsageError('--spec needs the project: pass --project (or run inside its git repository)');
  return {
    project,
    body: {
      spec: options.spec,
      repository,
      hash,
      command,
      exec: options.exec === true,
      ...(options.shell ? { shell: options.shell } : {}),
      ...(options.flag ? { flag: options.flag } : {}),
      build_time: options.buildTime === true,
      file: options.file ?? [],
      file_size: options.fileSize ?? [],
      iterations: options.iter,
      allow_failure: options.allowFailure === true,
      ...(options.backdate !== undefined ? { backdate: options.backdate } : {}),
      ...(options.jobTimeout !== undefined ? { timeout: options.jobTimeout } : {}),
      branch: options.branch ?? defaults.branch,
      ...(point ? { start_point: point } : {}),
      ...(thresholds ? { thresholds } : {}),
      settings: {
        adapter: options.adapter,
        ...(options.average ? { average: options.average } : {}),
        ...(options.fold ? { fold: options.fold } : {}),
      },
    },
  };
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'timed_out']);

/**
 * `benchtrack run --spec`: queues the run as a job for a runner of the spec, follows its state and output (to
 * stderr, like a local run's), and prints its report as a local run would, with the same exit status.
 */
export async function runRemote(
  command: readonly string[],
  options: RunOptions & RemoteOptions & BackendOptions,
  client: ApiClient | undefined,
  consoleUrl: Promise<string> | undefined,
  github: GitHubActionsRun | undefined,
): Promise<number> {
  const { project, body } = await jobBody(command, options);
  if (!client) {
    process.stdout.write(`${JSON.stringify({ project, ...body }, null, 2)}\n`);
    return 0;
  }
  const base = `/v0/projects/${encodeURIComponent(project)}/jobs`;
  const queued = await client.post(base, { body, schema: jobSchema });
  if (!options.wait) {
    process.stdout.write(`${queued.data.uuid}\n`);
    return 0;
  }
  const note = (message: string) => {
    if (!options.quiet) process.stderr.write(`benchtrack: ${message}\n`);
  };
  note(
    `job ${queued.data.uuid} queued for spec ${options.spec}; following it (Ctrl+C stops following; \`benchtrack job cancel ${project} ${queued.data.uuid}\` cancels it)`,
  );
  const job = await follow(client, `${base}/${queued.data.uuid}`, queued.data, note, options.quiet === true);
  if (job.state !== 'succeeded' || !job.report)
    throw new UsageError(`job ${job.uuid} ${job.state.replace('_', ' ')}: ${job.reason ?? 'no report'}`);
  const response = await client.get(`/v0/projects/${encodeURIComponent(project)}/reports/${job.report}`, {
    schema: reportSchema,
  });
  return printReport(response, options, consoleUrl, github);
}

/** Polls the job and its log until it ends: state changes and output go to stderr (not with --quiet). */
async function follow(
  client: ApiClient,
  path: string,
  first: Job,
  note: (message: string) => void,
  quiet: boolean,
): Promise<Job> {
  let job = first;
  let seen = '';
  let position = 0;
  for (;;) {
    for (;;) {
      const page = await client.get(`${path}/log`, {
        query: { after: position },
        schema: jobLogSchema.array(),
      });
      for (const piece of page.data) if (!quiet) process.stderr.write(piece.text);
      position = page.data.at(-1)?.position ?? position;
      if (page.data.length < 255) break;
    }
    const now = `${job.state} ${job.attempt}`;
    if (now !== seen && (job.state === 'running' || job.state === 'succeeded')) {
      const where =
        job.state === 'running' && job.runner ? ` on runner ${job.runner.slug} (attempt ${job.attempt})` : '';
      note(`job ${job.uuid} ${job.state.replace('_', ' ')}${where}`);
    }
    seen = now;
    if (TERMINAL.has(job.state)) break;
    await sleep(FOLLOW_EVERY_MS);
    job = (await client.get(path, { schema: jobSchema })).data;
  }
  if (job.log.dropped > 0)
    note(`${job.log.dropped} bytes of the job's output were beyond the log limit and not kept`);
  return job;
}
