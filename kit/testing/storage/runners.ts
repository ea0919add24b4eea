import { describe, expect, it } from 'vitest';
import type { JobRecord, New, ProjectRecord, WriteRepositories } from '../../../core/index.js';
import { at, fresh, insertOrganization, insertProject, uuid } from './fixtures.js';
import type { Opener } from './harness.js';

async function insertRunner(tx: WriteRepositories, organizationId: number | null, specs: readonly string[]) {
  const slug = fresh('runner');
  const runner = await tx.runners.insert({
    uuid: uuid(),
    organization_id: organizationId,
    name: slug,
    slug,
    key_hash: fresh('hash'),
    archived: false,
    last_seen: null,
    created: at(0),
    modified: at(0),
  });
  for (const spec of specs) await tx.runnerSpecs.insert({ runner_id: runner.id, spec });
  return runner;
}

function queuedJob(project: ProjectRecord, spec: string, minute: number): New<JobRecord> {
  return {
    uuid: uuid(),
    project_id: project.id,
    user_id: null,
    spec,
    state: 'queued',
    definition: '{}',
    timeout_seconds: 60,
    runner_id: null,
    attempt: 0,
    lease_expires: null,
    heartbeat: null,
    reason: null,
    report_id: null,
    log_bytes: 0,
    log_dropped: 0,
    created: at(minute),
    modified: at(minute),
    started: null,
    finished: null,
  };
}

const LOCKED = { isolation: 'locked' } as const;

/** Runners, their specs, the job queue with its claims, and job logs. */
export function describeRunners(open: Opener): void {
  describe('runners and jobs', () => {
    it('claims the oldest queued job of the specs served, takes each job once, and counts attempts', async () => {
      const storage = await open();
      const { runner, jobs } = await storage.transaction(async (tx) => {
        const project = await insertProject(tx, (await insertOrganization(tx)).id);
        const runner = await insertRunner(tx, null, ['box', 'big-box']);
        const jobs = [];
        for (const [spec, minute] of [
          ['box', 3],
          ['other', 1],
          ['big-box', 2],
        ] as const)
          jobs.push(await tx.jobs.insert(queuedJob(project, spec, minute)));
        return { runner, jobs };
      });
      const lease = { now: at(10), expires: at(11) };
      const scope = { specs: ['box', 'big-box'], organizationId: null };
      expect(await storage.read((r) => r.jobs.claimable(scope))).toBe(true);
      const first = await storage.transaction((tx) => tx.jobs.claim(runner.id, scope, lease), LOCKED);
      expect(first).toMatchObject({
        uuid: jobs[2]?.uuid,
        state: 'running',
        runner_id: runner.id,
        attempt: 1,
        lease_expires: at(11),
        heartbeat: at(10),
        started: at(10),
      });
      const second = await storage.transaction((tx) => tx.jobs.claim(runner.id, scope, lease), LOCKED);
      expect(second?.uuid).toBe(jobs[0]?.uuid);
      expect(
        await storage.transaction((tx) => tx.jobs.claim(runner.id, scope, lease), LOCKED),
      ).toBeUndefined();
      expect(await storage.read((r) => r.jobs.claimable(scope))).toBe(false);
      expect(await storage.read((r) => r.jobs.claimable({ specs: [], organizationId: null }))).toBe(false);
      // back in the queue, the job is claimed again as its second attempt
      await storage.transaction((tx) =>
        tx.jobs.update({ id: jobs[0]?.id }, { state: 'queued', runner_id: null }),
      );
      const again = await storage.transaction((tx) => tx.jobs.claim(runner.id, scope, lease), LOCKED);
      expect(again).toMatchObject({ uuid: jobs[0]?.uuid, attempt: 2 });
    });

    it("claims for an organization's runner only the jobs of that organization's projects", async () => {
      const storage = await open();
      const { mine, theirs } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const mine = await tx.jobs.insert(queuedJob(await insertProject(tx, organization.id), 'box', 2));
        const other = await insertOrganization(tx);
        const theirs = await tx.jobs.insert(queuedJob(await insertProject(tx, other.id), 'box', 1));
        return { mine: { job: mine, organization }, theirs };
      });
      const scope = { specs: ['box'], organizationId: mine.organization.id };
      const lease = { now: at(10), expires: at(11) };
      const claimed = await storage.transaction((tx) => tx.jobs.claim(7, scope, lease), LOCKED);
      expect(claimed?.uuid).toBe(mine.job.uuid);
      expect(await storage.read((r) => r.jobs.claimable(scope))).toBe(false);
      const anyone = await storage.transaction(
        (tx) => tx.jobs.claim(8, { specs: ['box'], organizationId: null }, lease),
        LOCKED,
      );
      expect(anyone?.uuid).toBe(theirs.uuid);
    });

    it('never hands one job to two of many concurrent claims', async () => {
      const storage = await open();
      const count = 6;
      await storage.transaction(async (tx) => {
        const project = await insertProject(tx, (await insertOrganization(tx)).id);
        for (let i = 0; i < count; i++) await tx.jobs.insert(queuedJob(project, 'box', i));
      });
      const scope = { specs: ['box'], organizationId: null };
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, runner) =>
          storage.transaction(
            (tx) => tx.jobs.claim(runner + 1, scope, { now: at(10), expires: at(11) }),
            LOCKED,
          ),
        ),
      );
      const taken = claims.filter((job) => job !== undefined);
      // a claim may find the queue empty while another holds the last rows; none may take a taken job
      expect(new Set(taken.map((job) => job.id)).size).toBe(taken.length);
      const running = await storage.read((r) => r.jobs.all({ state: 'running' }));
      expect(running).toHaveLength(taken.length);
      for (const job of running) expect(job.attempt).toBe(1);
      const left = await storage.transaction(async (tx) => {
        let n = 0;
        while (await tx.jobs.claim(99, scope, { now: at(12), expires: at(13) })) n++;
        return n;
      }, LOCKED);
      expect(taken.length + left).toBe(count);
    });

    it("reads a job's log after a position, and prunes the logs of a project's older jobs", async () => {
      const storage = await open();
      const { jobs, other } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const project = await insertProject(tx, organization.id);
        const jobs = [];
        for (let i = 0; i < 3; i++) {
          const job = await tx.jobs.insert(queuedJob(project, 'box', i));
          for (let piece = 0; piece < 3; piece++)
            await tx.jobLogs.insert({ job_id: job.id, attempt: 1, text: `${i}:${piece}\n`, created: at(i) });
          jobs.push(job);
        }
        const other = await tx.jobs.insert(queuedJob(await insertProject(tx, organization.id), 'box', 0));
        await tx.jobLogs.insert({ job_id: other.id, attempt: 1, text: 'other\n', created: at(0) });
        return { jobs, other };
      });
      const [first, , last] = jobs as [JobRecord, JobRecord, JobRecord];
      const all = await storage.read((r) => r.jobLogs.after(last.id, 0, 100));
      expect(all.map((piece) => piece.text)).toEqual(['2:0\n', '2:1\n', '2:2\n']);
      const rest = await storage.read((r) => r.jobLogs.after(last.id, all[0]?.id ?? 0, 1));
      expect(rest.map((piece) => piece.text)).toEqual(['2:1\n']);
      expect(await storage.transaction((tx) => tx.jobLogs.prune(last.project_id, 2))).toBe(3);
      await storage.read(async (r) => {
        expect(await r.jobLogs.count({ job_id: first.id })).toBe(0);
        expect(await r.jobLogs.count({ job_id: jobs[1]?.id })).toBe(3);
        expect(await r.jobLogs.count({ job_id: other.id })).toBe(1);
      });
      expect(await storage.transaction((tx) => tx.jobLogs.prune(last.project_id, 5))).toBe(0);
    });

    it("deletes a project's jobs and their logs with the project, and keeps runners and specs", async () => {
      const storage = await open();
      const { project, runner } = await storage.transaction(async (tx) => {
        const organization = await insertOrganization(tx);
        const project = await insertProject(tx, organization.id);
        const job = await tx.jobs.insert(queuedJob(project, 'box', 0));
        await tx.jobLogs.insert({ job_id: job.id, attempt: 1, text: 'x', created: at(0) });
        const runner = await insertRunner(tx, organization.id, ['box']);
        return { project, runner };
      });
      await storage.transaction((tx) => tx.projects.deleteWithData(project.id));
      await storage.read(async (r) => {
        expect(await r.jobs.count({ project_id: project.id })).toBe(0);
        expect(await r.jobLogs.count({})).toBe(0);
        expect(await r.runners.find({ id: runner.id })).toMatchObject({ slug: runner.slug });
        expect((await r.runnerSpecs.all({ runner_id: runner.id })).map((s) => s.spec)).toEqual(['box']);
      });
    });
  });
}
