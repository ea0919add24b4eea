import type { z } from 'zod';
import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { requireByNameId } from '../dimensions/name-id.js';
import { validateModel, type ValidModel } from '../dimensions/threshold-models.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import { INGEST } from '../projects/ingest-order.js';
import { resolveRunProject } from '../projects/on-the-fly.js';
import type { NewReport, NewRun, reportListQuerySchema } from '../schemas/reports.js';
import type { ServiceContext } from '../services/context.js';
import type { ProjectRecord, ReportRecord, RunnerRecord, UserRecord } from '../storage/records.js';
import type { NewJob } from '../schemas/jobs.js';
import { completeJob, heldJob } from '../runners/leases.js';
import { isUuid } from '../slug.js';
import type { ReadRepositories, ReportSummary } from '../storage/storage.js';
import { withLookupsOnce } from '../storage/lookups.js';
import type { RegressionAnalyzer } from '../regressions/analyzer.js';
import { heldRepositories, NOT_HELD } from './held.js';
import { ingest, type IngestInput } from './ingest.js';
import type { Ingested } from './ingested.js';
import { countsOf, reportJson, storedReportRegressions } from './json.js';
import { loadReport, loadReportContexts, loadReports } from './load.js';
import { prepareResults, type PreparedResults } from './prepare.js';
import { runDefaults } from './run-context.js';
import { readProjectData } from '../access/project-data.js';

/** An expanded list page shows at most this many results (metrics) in all: about 10 MB of JSON. */
export const REPORT_LIST_EXPANDED_RESULTS_MAX = 10_000;

/** Refuses an expanded page whose reports hold more results than one answer may, saying which per_page fits. */
function checkExpandBudget(reports: readonly ReportRecord[], summaries: Map<number, ReportSummary>): void {
  let total = 0;
  let fits = 0;
  for (const report of reports) {
    for (const iteration of summaries.get(report.id)?.iterations ?? []) total += iteration?.measures ?? 0;
    if (total <= REPORT_LIST_EXPANDED_RESULTS_MAX) fits++;
  }
  if (total > REPORT_LIST_EXPANDED_RESULTS_MAX) {
    throw new InputError(
      `with expand=true a page holds at most ${REPORT_LIST_EXPANDED_RESULTS_MAX} results in all; these ${reports.length} reports hold ${total}: lower per_page${fits > 0 ? ` (${fits} fits here)` : ''}, or list without expand and view each report by its UUID`,
    );
  }
}

type Common = Pick<
  NewReport,
  'hash' | 'start_point' | 'thresholds' | 'start_time' | 'end_time' | 'results' | 'settings'
>;

/**
 * Reports: create (from BMF or raw harness output, parsed by the adapter plugins), `POST /v0/run` with
 * on-the-fly projects and idempotency keys, list, view, delete.
 */
export class ReportsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly analyzer: RegressionAnalyzer,
  ) {}

  async create(caller: Caller, projectRef: string, input: NewReport) {
    const { prepared, models } = this.#prepare(input);
    const written = await this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'create');
      const ingestInput = this.#ingestInput(input, input.branch, input.testbed, models);
      return ingest(this.ctx, tx, { project, user: userOf(caller) }, ingestInput, prepared);
    }, INGEST);
    this.#analyze(written);
    return this.#render(written, prepared.iterations, null);
  }

  /**
   * A runner's report on the job it holds, ingested like any report, as the user who queued the job, with the
   * job's branch, testbed (its spec), hash, start point, thresholds and settings. The job succeeds in the same
   * transaction, so a job gets one report whatever its runners send; the same request of the same attempt again
   * (a retry after a lost answer) answers that report.
   */
  async createForJob(runner: RunnerRecord, projectRef: string, input: NewReport) {
    const lease = input.job;
    if (!lease) throw new InputError('job: a runner sends the job and attempt its report finishes');
    // only the runner that holds the job learns anything of it
    const job = await this.ctx.storage.read((r) => heldJob(r, runner, lease.uuid, lease.attempt));
    const definition = JSON.parse(job.definition) as NewJob;
    if (input.testbed !== job.spec)
      throw new InputError(
        `testbed: the report of a job goes to its spec "${job.spec}", got "${input.testbed}"`,
      );
    if (input.branch !== definition.branch)
      throw new InputError(
        `branch: the report of this job goes to "${definition.branch}", got "${input.branch}"`,
      );
    const fromJob = {
      ...input,
      hash: definition.hash,
      start_point: definition.start_point,
      thresholds: definition.thresholds,
      settings: definition.settings,
    };
    const { prepared, models } = this.#prepare(fromJob);
    const written = await this.ctx.storage.transaction(async (tx) => {
      const current = await heldJob(tx, runner, lease.uuid, lease.attempt);
      const project = await tx.projects.find({ id: current.project_id });
      if (
        !project ||
        !(isUuid(projectRef) ? project.uuid === projectRef.toLowerCase() : project.slug === projectRef)
      )
        throw new NotFoundError(`job "${lease.uuid}" not found in project "${projectRef}"`);
      const done = current.report_id !== null ? await tx.reports.find({ id: current.report_id }) : undefined;
      if (current.state === 'succeeded' && done) return { existing: done, project };
      if (current.state !== 'running')
        throw new ConflictError(`job ${current.uuid} is ${current.state}: its report is not wanted any more`);
      const user = current.user_id === null ? null : ((await tx.users.find({ id: current.user_id })) ?? null);
      const ingestInput = this.#ingestInput(fromJob, definition.branch, job.spec, models);
      const ingested = await ingest(this.ctx, tx, { project, user }, ingestInput, prepared);
      await completeJob(tx, current, ingested.report.id, this.ctx.now());
      return ingested;
    }, INGEST);
    if ('existing' in written)
      return this.ctx.storage.read((r) => this.#full(r, written.project, written.existing));
    this.#analyze(written);
    return this.#render(written, prepared.iterations, job.uuid);
  }

  /** `POST /v0/run`: like create, with defaults from the run context and a project made on the fly. */
  async run(caller: Caller, input: NewRun) {
    const { prepared, models } = this.#prepare(input);
    const defaults = runDefaults(input.context, input.project !== undefined);
    const written = await this.ctx.storage.transaction(async (tx) => {
      const { project, organization } = await resolveRunProject(
        tx,
        caller,
        input.project,
        defaults.project?.name ?? 'Project',
        this.ctx.now(),
        defaults.project?.slug,
      );
      if (input.idempotency_key) {
        const existing = await tx.reports.find({
          project_id: project.id,
          idempotency_key: input.idempotency_key,
        });
        if (existing) return { existing, project };
      }
      const ingestInput = this.#ingestInput(
        { ...input, hash: input.hash ?? defaults.hash },
        input.branch ?? defaults.branch,
        input.testbed ?? defaults.testbed,
        models,
        input.idempotency_key,
      );
      return ingest(this.ctx, tx, { project, user: userOf(caller), organization }, ingestInput, prepared);
    }, INGEST);
    if ('existing' in written)
      return this.ctx.storage.read((r) => this.#full(r, written.project, written.existing));
    this.#analyze(written);
    return this.#render(written, prepared.iterations, null);
  }

  async list(caller: Caller, projectRef: string, query: z.output<typeof reportListQuerySchema>) {
    return readProjectData(this.ctx.storage, caller, projectRef, async (read, { project }) => {
      // the page's reports share most of what they refer to: each row of it is read once
      const r = withLookupsOnce(read);
      const page = await r.reports.listFiltered(
        {
          project_id: project.id,
          branch_id: query.branch
            ? (await requireByNameId(r.branches, project.id, query.branch, 'branch')).id
            : undefined,
          testbed_id: query.testbed
            ? (await requireByNameId(r.testbeds, project.id, query.testbed, 'testbed')).id
            : undefined,
          from: query.start_time !== undefined ? new Date(query.start_time) : undefined,
          to: query.end_time !== undefined ? new Date(query.end_time) : undefined,
          archived: query.archived,
        },
        { page: query.page, perPage: query.per_page, direction: query.direction },
      );
      const items = [];
      const ids = page.items.map((report) => report.id);
      const summaries = await r.reports.summaries(ids);
      const jobs = await jobsOf(r, ids);
      if (query.expand) {
        checkExpandBudget(page.items, summaries);
        const loaded = await loadReports(r, project, page.items);
        const regressions = await storedReportRegressions(
          r,
          project,
          loaded.map(({ data }) => ({ id: data.report.id, alertIds: data.alerts.map((a) => a.alert.id) })),
        );
        for (const { data, iterations } of loaded) {
          const job = jobs.get(data.report.id) ?? null;
          const counts = countsOf(data, iterations);
          items.push(await reportJson(r, data, counts, true, job, regressions.get(data.report.id)));
        }
      } else {
        for (const context of await loadReportContexts(r, project, page.items)) {
          const summary = summaries.get(context.report.id);
          const counts = {
            results: [...(summary?.iterations ?? [])],
            alerts: summary?.alerts ?? { active: 0, total: 0 },
          };
          items.push(await reportJson(r, context, counts, false, jobs.get(context.report.id) ?? null));
        }
      }
      return { items, total: page.total };
    });
  }

  async get(caller: Caller, projectRef: string, uuid: string) {
    return this.ctx.storage.read(async (r) => {
      const { project } = await requireProject(r, caller, projectRef, 'view');
      return this.#full(r, project, await requireReport(r, project, uuid));
    });
  }

  /** Deletes a report with its metrics and alerts. */
  async delete(caller: Caller, projectRef: string, uuid: string): Promise<void> {
    await this.ctx.storage.transaction(async (tx) => {
      const { project } = await requireProject(tx, caller, projectRef, 'delete');
      const report = await requireReport(tx, project, uuid);
      await tx.metrics.deleteReport(report.id);
      await tx.reports.delete({ id: report.id });
    });
  }

  /** The change-point analysis of the report's series, after the commit and off the request. */
  #analyze(data: Ingested): void {
    this.analyzer.request({
      projectId: data.project.id,
      branchId: data.branch.id,
      headId: data.head.id,
      testbedId: data.testbed.id,
      series: data.series ?? [],
      alerted: data.alertedSeries ?? [],
    });
  }

  /** Parsing and model validation happen before the write transaction: they are CPU work or fail fast. */
  #prepare(input: Common): { prepared: PreparedResults; models: Map<string, ValidModel> } {
    const prepared = prepareResults(this.ctx.registry, input.results, input.settings);
    const models = new Map(
      Object.entries(input.thresholds?.models ?? {}).map(([measure, model]) => [
        measure,
        validateModel(this.ctx.registry, model),
      ]),
    );
    return { prepared, models };
  }

  #ingestInput(
    input: Common,
    branch: string,
    testbed: string,
    models: Map<string, ValidModel>,
    idempotencyKey?: string,
  ): IngestInput {
    return {
      branch,
      testbed,
      hash: input.hash,
      start_point: input.start_point,
      models,
      resetThresholds: input.thresholds?.reset,
      start_time: new Date(input.start_time),
      end_time: new Date(input.end_time),
      idempotency_key: idempotencyKey,
    };
  }

  /**
   * The response is built after the commit, so the single writer is not held while it is assembled: from what
   * ingest holds, or, when it needs a record ingest did not read, in a read transaction that reads only those.
   */
  async #render(data: Ingested, iterations: number, job: string | null) {
    const counts = countsOf(data, iterations);
    try {
      return await reportJson(heldRepositories(data), data, counts, true, job);
    } catch (error) {
      if (error !== NOT_HELD) throw error;
    }
    return this.ctx.storage.read((r) => reportJson(heldRepositories(data, r), data, counts, true, job));
  }

  async #full(r: ReadRepositories, project: ProjectRecord, report: ReportRecord) {
    const { data, iterations } = await loadReport(r, project, report);
    const job = await r.jobs.find({ report_id: report.id });
    return reportJson(r, data, countsOf(data, iterations), true, job?.uuid ?? null);
  }
}

/** The UUIDs of the jobs that produced these reports, by report id. */
async function jobsOf(r: ReadRepositories, reportIds: readonly number[]): Promise<Map<number, string>> {
  if (reportIds.length === 0) return new Map();
  const jobs = await r.jobs.all({ report_id: [...reportIds] });
  return new Map(jobs.map((job) => [job.report_id as number, job.uuid]));
}

function userOf(caller: Caller): UserRecord | null {
  return caller.kind === 'user' ? caller.user : null;
}

async function requireReport(
  r: ReadRepositories,
  project: ProjectRecord,
  uuid: string,
): Promise<ReportRecord> {
  const report = await r.reports.find({ uuid: uuid.toLowerCase(), project_id: project.id });
  if (!report) throw new NotFoundError(`report "${uuid}" not found`);
  return report;
}
