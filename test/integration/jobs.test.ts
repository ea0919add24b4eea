import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freshPostgresDatabase, onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { loseExpiredAttempt } from '../../core/runners/release.js';
import { createRunner, jobBody, queueJob, runnerCalls, type CreatedRunner } from '../helpers/runners.js';

let t: TestApp;
let admin: Session;
let ada: Session;
let stranger: Session;
/** The API's clock: leases run out when a test moves it on (the sweep runs every 250 ms of real time). */
let clock = Date.UTC(2026, 0, 1);
const P = 'bench';

const call = (token: string | undefined, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

const job = async (uuid: string) => (await call(ada.token, 'GET', `/v0/projects/${P}/jobs/${uuid}`)).json();

beforeAll(async () => {
  t = await createTestApp({ runners: { heartbeat_timeout: '1s' } }, { now: () => new Date(clock) });
  admin = await signUp(t, 'Admin User', 'admin@example.com');
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  stranger = await signUp(t, 'Sam Stranger', 'sam@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Bench' });
  await createProject(t, ada, 'ada-lovelace', { name: 'Secret', visibility: 'private' });
});
afterAll(() => t.close());

/** A runner of its own spec for one test, and its calls. */
async function runnerFor(spec: string, name = spec): Promise<CreatedRunner & ReturnType<typeof runnerCalls>> {
  const runner = await createRunner(t, admin.token, { name, specs: [spec] });
  return { ...runner, ...runnerCalls(t, runner, () => runner.key) };
}

async function claimed(runner: ReturnType<typeof runnerCalls>) {
  const response = await runner.claim();
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { uuid: string; attempt: number; spec: string; lease: { expires: string } };
}

describe('queuing jobs', () => {
  it('is for logged-in members who may write to the project', async () => {
    const queued = await queueJob(t, ada.token, P, jobBody('q-box', { timeout: 600 }));
    expect(queued).toMatchObject({
      state: 'queued',
      spec: 'q-box',
      command: ['sh bench.sh'],
      iterations: 1,
      timeout: 600,
      attempt: 0,
      runner: null,
      report: null,
      user: { slug: 'ada-lovelace' },
      settings: { adapter: 'json' },
    });
    expect((await call(undefined, 'POST', `/v0/projects/${P}/jobs`, jobBody('q-box'))).statusCode).toBe(401);
    // the stranger may read the public project, not write to it: 404 as for a missing project
    expect((await call(stranger.token, 'POST', `/v0/projects/${P}/jobs`, jobBody('q-box'))).statusCode).toBe(
      404,
    );
    expect(
      (await call(stranger.token, 'POST', '/v0/projects/secret/jobs', jobBody('q-box'))).statusCode,
    ).toBe(404);
    expect((await call(undefined, 'POST', '/v0/projects/secret/jobs', jobBody('q-box'))).statusCode).toBe(
      404,
    );
    // anyone who may read the project sees its jobs
    const listed = await call(undefined, 'GET', `/v0/projects/${P}/jobs?spec=q-box&state=queued`);
    expect(listed.json().map((j: { uuid: string }) => j.uuid)).toContain(queued.uuid);
    expect((await call(stranger.token, 'GET', `/v0/projects/secret/jobs`)).statusCode).toBe(404);
  });

  it('refuses a bad job naming the field and the rule', async () => {
    const refused = async (extra: Record<string, unknown>) => {
      const response = await call(ada.token, 'POST', `/v0/projects/${P}/jobs`, jobBody('q-box', extra));
      expect(response.statusCode, response.body).toBe(400);
      return response.json().message as string;
    };
    expect(await refused({ repository: 'https://bot:secret@example.com/x.git' })).toMatch(
      /^body\.repository: must not carry a password/,
    );
    expect(await refused({ repository: '--upload-pack=touch /tmp/x' })).toMatch(
      /^body\.repository: must be an/,
    );
    expect(await refused({ hash: 'HEAD' })).toMatch(/^body\.hash: must be a full git commit hash/);
    expect(await refused({ file: ['../etc/passwd'] })).toMatch(/^body\.file\[0\]: must be a path inside/);
    expect(await refused({ timeout: 0 })).toMatch(/^body\.timeout: must be at least 1 second/);
    expect(await refused({ spec: 'Bench Box' })).toMatch(/^body\.spec: must be a slug/);
  });
});

describe('claims', () => {
  it('hand each job to one of many runners claiming at once', async () => {
    const runners = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runnerFor('many-box', `many-${i}`)),
    );
    const queued = [];
    for (let i = 0; i < 10; i++) queued.push((await queueJob(t, ada.token, P, jobBody('many-box'))).uuid);
    const taken: string[] = [];
    for (let round = 0; round < 10 && taken.length < queued.length; round++) {
      const answers = await Promise.all(runners.map((runner) => runner.claim()));
      for (const answer of answers) if (answer.statusCode === 200) taken.push(answer.json().uuid);
      // a runner that asks again gives back what it held: finish each claimed job first
      for (const [i, answer] of answers.entries())
        if (answer.statusCode === 200) {
          const { uuid, attempt } = answer.json();
          const end = await runners[i]?.finish(uuid, { attempt, state: 'failed', reason: 'test' });
          expect(end?.statusCode, end?.body).toBe(204);
        }
    }
    expect(taken.sort()).toEqual(queued.sort());
    for (const uuid of queued) expect((await job(uuid)).attempt).toBe(1);
  });

  it("of an organization's runner take only the jobs of that organization's projects", async () => {
    const theirs = await signUp(t, 'Other Leader', 'other@example.com');
    const runner = await createRunner(t, theirs.token, {
      name: 'Their Box',
      specs: ['org-box'],
      organization: 'other-leader',
    });
    const calls = runnerCalls(t, runner, () => runner.key);
    await queueJob(t, ada.token, P, jobBody('org-box'));
    expect((await calls.claim()).statusCode).toBe(204);
    await createProject(t, theirs, 'other-leader', { name: 'Theirs' });
    const own = await queueJob(t, theirs.token, 'theirs', jobBody('org-box'));
    expect((await claimed(calls)).uuid).toBe(own.uuid);
  });

  it('wait for a job queued meanwhile (long poll)', async () => {
    const runner = await runnerFor('poll-box');
    const started = Date.now();
    const waiting = runner.claim(5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queued = await queueJob(t, ada.token, P, jobBody('poll-box'));
    const answer = await waiting;
    expect(answer.statusCode).toBe(200);
    expect(answer.json().uuid).toBe(queued.uuid);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe.runIf(onPostgres)('claims, several API processes on one database', () => {
  it('hand each job to one runner, and three sweeps requeue a lost job once', async () => {
    const url = t.config.database.url as string;
    const others = await Promise.all(
      [0, 1].map(() =>
        createTestApp(
          { database: { url }, runners: { heartbeat_timeout: '1s' } },
          { now: () => new Date(clock) },
        ),
      ),
    );
    try {
      const apps = [t, ...others];
      const runners = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const runner = await createRunner(t, admin.token, { name: `shared-${i}`, specs: ['shared-box'] });
          return runnerCalls(apps[i % apps.length] as TestApp, runner, () => runner.key);
        }),
      );
      const queued = [];
      for (let i = 0; i < 12; i++) queued.push((await queueJob(t, ada.token, P, jobBody('shared-box'))).uuid);
      const taken: { uuid: string; attempt: number; runner: number }[] = [];
      for (let round = 0; round < 12 && taken.length < queued.length; round++) {
        const answers = await Promise.all(runners.map((runner) => runner.claim()));
        for (const [i, answer] of answers.entries()) {
          if (answer.statusCode !== 200) continue;
          const { uuid, attempt } = answer.json();
          taken.push({ uuid, attempt, runner: i });
          expect(
            (await runners[i]?.finish(uuid, { attempt, state: 'failed', reason: 'test' }))?.statusCode,
          ).toBe(204);
        }
      }
      expect(taken.map((x) => x.uuid).sort()).toEqual(queued.sort());
      const lost = await queueJob(t, ada.token, P, jobBody('shared-box'));
      const held = await runners[1]?.claim();
      expect(held?.json()).toMatchObject({ uuid: lost.uuid, attempt: 1 });
      clock += 1500;
      await eventually(async () => expect((await job(lost.uuid)).state).toBe('queued'), 10_000);
      // every process sweeps; only one ends the attempt
      await new Promise((resolve) => setTimeout(resolve, 600));
      const log = (await call(ada.token, 'GET', `/v0/projects/${P}/jobs/${lost.uuid}/log`)).json();
      const notes = log.filter((p: { text: string }) => p.text.includes('attempt 1 of 3 ended'));
      expect(notes).toHaveLength(1);
      expect(await job(lost.uuid)).toMatchObject({ state: 'queued', attempt: 1 });
    } finally {
      for (const other of others) await other.close();
    }
  });
});

describe('leases', () => {
  it('are extended by heartbeats, which carry the output the log then shows', async () => {
    const runner = await runnerFor('beat-box');
    const queued = await queueJob(t, ada.token, P, jobBody('beat-box'));
    const held = await claimed(runner);
    expect(held).toMatchObject({
      uuid: queued.uuid,
      attempt: 1,
      state: 'running',
      lease: { heartbeat_interval: 0.333 },
    });
    expect(Date.parse(held.lease.expires)).toBe(clock + 1000);
    clock += 500;
    const beat = await runner.heartbeat(held.uuid, { attempt: 1, output: 'warming up\n' });
    expect(beat.json()).toEqual({ state: 'running', lease_expires: new Date(clock + 1000).toISOString() });
    await runner.heartbeat(held.uuid, { attempt: 1, output: 'bench 1 … done\n' });
    const log = (after = 0) =>
      call(ada.token, 'GET', `/v0/projects/${P}/jobs/${held.uuid}/log?after=${after}`);
    const pieces = (await log()).json() as { position: number; text: string; attempt: number }[];
    expect(pieces.map((p) => p.text).join('')).toBe(
      '[benchtrack] attempt 1 on runner "beat-box"\nwarming up\nbench 1 … done\n',
    );
    expect((await log(pieces[1]?.position)).json().map((p: { text: string }) => p.text)).toEqual([
      'bench 1 … done\n',
    ]);
    expect(await job(held.uuid)).toMatchObject({ state: 'running', runner: { slug: 'beat-box' } });
    const view = await call(admin.token, 'GET', '/v0/runners/beat-box');
    expect(view.json()).toMatchObject({ state: 'running', job: { uuid: held.uuid } });
    // the runner's own jobs only
    const other = await runnerFor('beat-other');
    expect((await other.heartbeat(held.uuid, { attempt: 1 })).statusCode).toBe(409);
    expect(
      (await runner.finish(held.uuid, { attempt: 1, state: 'failed', reason: 'exit 2' })).statusCode,
    ).toBe(204);
    expect(await job(held.uuid)).toMatchObject({ state: 'failed', reason: 'exit 2' });
  });

  it('are not lost by a sweep that read them before a heartbeat extended them', async () => {
    const runner = await runnerFor('race-box');
    const queued = await queueJob(t, ada.token, P, jobBody('race-box'));
    const held = await claimed(runner);
    // what a slow sweep read: the lease of the claim
    const stale = await t.storage.read((r) => r.jobs.find({ uuid: queued.uuid }));
    clock += 700;
    expect((await runner.heartbeat(held.uuid, { attempt: 1 })).statusCode).toBe(200);
    clock += 700; // past the claim's lease, within the heartbeat's
    const outcome = await t.storage.transaction((tx) =>
      loseExpiredAttempt(tx, stale!, 'no heartbeat', new Date(clock)),
    );
    expect(outcome).toBeUndefined();
    expect(await job(queued.uuid)).toMatchObject({ state: 'running', attempt: 1 });
    expect(
      (await runner.finish(held.uuid, { attempt: 1, state: 'failed', reason: 'done here' })).statusCode,
    ).toBe(204);
  });

  it('run out without heartbeats: the job is queued again, another runner finishes it, the late one is refused', async () => {
    const first = await runnerFor('lost-box', 'lost-a');
    const queued = await queueJob(t, ada.token, P, jobBody('lost-box'));
    const held = await claimed(first);
    clock += 1500;
    await eventually(async () => expect((await job(queued.uuid)).state).toBe('queued'), 10_000);
    expect(await job(queued.uuid)).toMatchObject({ attempt: 1, runner: null });
    const b = await runnerFor('lost-box', 'lost-b');
    const again = await claimed(b);
    expect(again).toMatchObject({ uuid: queued.uuid, attempt: 2 });
    // the first runner comes back: its lease is gone, and so is its report
    expect((await first.heartbeat(held.uuid, { attempt: 1, output: 'late' })).statusCode).toBe(409);
    const late = await first.report(P, held);
    expect(late.statusCode, late.body).toBe(409);
    const done = await b.report(P, again, 7);
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({
      testbed: { slug: 'lost-box' },
      job: queued.uuid,
      user: { slug: 'ada-lovelace' },
    });
    // the same report again (a retry after a lost answer) is the same report
    const retry = await b.report(P, again, 7);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().uuid).toBe(done.json().uuid);
    const reports = await call(ada.token, 'GET', `/v0/projects/${P}/reports?testbed=lost-box`);
    expect(reports.json().map((r: { uuid: string }) => r.uuid)).toEqual([done.json().uuid]);
    expect(reports.json()[0].job).toBe(queued.uuid);
    expect(await job(queued.uuid)).toMatchObject({
      state: 'succeeded',
      report: done.json().uuid,
      attempt: 2,
    });
    const log = (await call(ada.token, 'GET', `/v0/projects/${P}/jobs/${queued.uuid}/log`)).json();
    expect(log.map((p: { text: string }) => p.text).join('')).toContain(
      'attempt 1 of 3 ended: runner "lost-a" sent no heartbeat for 1s; the job is queued again',
    );
  });

  it('fail the job after its third lost attempt, with the reason', async () => {
    const runner = await runnerFor('fail-box');
    const queued = await queueJob(t, ada.token, P, jobBody('fail-box'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await claimed(runner)).attempt).toBe(attempt);
      clock += 1500;
      const expected = attempt < 3 ? 'queued' : 'failed';
      await eventually(async () => expect((await job(queued.uuid)).state).toBe(expected), 10_000);
    }
    expect((await job(queued.uuid)).reason).toBe(
      'runner "fail-box" sent no heartbeat for 1s (attempt 3 of 3)',
    );
    expect((await runner.claim()).statusCode).toBe(204);
  });
});

describe('cancel', () => {
  it('ends a queued job, and a running one whose runner learns it at its next heartbeat', async () => {
    const runner = await runnerFor('cancel-box');
    const queued = await queueJob(t, ada.token, P, jobBody('cancel-box'));
    expect((await call(undefined, 'POST', `/v0/projects/${P}/jobs/${queued.uuid}/cancel`)).statusCode).toBe(
      401,
    );
    expect(
      (await call(stranger.token, 'POST', `/v0/projects/${P}/jobs/${queued.uuid}/cancel`)).statusCode,
    ).toBe(404);
    const canceled = await call(ada.token, 'POST', `/v0/projects/${P}/jobs/${queued.uuid}/cancel`);
    expect(canceled.json()).toMatchObject({ state: 'canceled', reason: 'canceled by ada-lovelace' });
    expect((await runner.claim()).statusCode).toBe(204);
    const again = await call(ada.token, 'POST', `/v0/projects/${P}/jobs/${queued.uuid}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('only a queued or running job can be canceled');

    const running = await queueJob(t, ada.token, P, jobBody('cancel-box'));
    const held = await claimed(runner);
    expect((await call(ada.token, 'POST', `/v0/projects/${P}/jobs/${running.uuid}/cancel`)).statusCode).toBe(
      200,
    );
    expect((await runner.heartbeat(held.uuid, { attempt: 1 })).json()).toEqual({
      state: 'canceled',
      lease_expires: null,
    });
    expect((await runner.report(P, held)).statusCode).toBe(409);
    expect(await t.storage.read((r) => r.reports.count({}))).toBe(
      await t.storage.read((r) => r.jobs.count({ state: 'succeeded' })),
    );
  });
});

describe('timeouts', () => {
  it('end an attempt the runner stopped, and a job that runs past its timeout', async () => {
    const runner = await runnerFor('slow-box');
    const first = await queueJob(t, ada.token, P, jobBody('slow-box'));
    const held = await claimed(runner);
    const ended = await runner.finish(held.uuid, {
      attempt: 1,
      state: 'timed_out',
      reason: 'the command ran longer than 10 s',
      output: 'still going\n',
    });
    expect(ended.statusCode, ended.body).toBe(204);
    expect(await job(first.uuid)).toMatchObject({
      state: 'timed_out',
      reason: 'the command ran longer than 10 s',
    });
    expect((await runner.finish(held.uuid, { attempt: 1, state: 'failed', reason: 'x' })).statusCode).toBe(
      409,
    );

    const overdue = await queueJob(t, ada.token, P, jobBody('slow-box', { timeout: 1 }));
    const running = await claimed(runner);
    // heartbeats keep the lease, but the job's own timeout (1 s) and the grace (the heartbeat timeout) run out
    for (let i = 0; i < 4; i++) {
      clock += 700;
      expect((await runner.heartbeat(running.uuid, { attempt: 1 })).statusCode).toBe(200);
    }
    await eventually(async () => expect((await job(overdue.uuid)).state).toBe('timed_out'), 10_000);
    expect((await job(overdue.uuid)).reason).toContain('ran longer than its timeout of 1 s');
    expect((await runner.heartbeat(running.uuid, { attempt: 1 })).json().state).toBe('timed_out');
  });
});

describe("a runner's key", () => {
  it('rotated mid-job stops working at once; with the new key the runner claims the job again and finishes it once', async () => {
    const runner = await createRunner(t, admin.token, { name: 'rotate-box', specs: ['rotate-box'] });
    let key = runner.key;
    const calls = runnerCalls(t, runner, () => key);
    const queued = await queueJob(t, ada.token, P, jobBody('rotate-box'));
    const held = await claimed(calls);
    const rotated = await call(admin.token, 'POST', `/v0/runners/${runner.slug}/key`);
    const oldKey = key;
    key = rotated.json().key;
    const withOld = runnerCalls(t, runner, () => oldKey);
    expect((await withOld.heartbeat(held.uuid, { attempt: 1 })).statusCode).toBe(401);
    expect((await withOld.report(P, held)).statusCode).toBe(401);
    expect(await t.storage.read((r) => r.jobs.find({ uuid: queued.uuid }))).toMatchObject({
      report_id: null,
    });
    // the runner starts again with its new key: its attempt ends, and it takes the job anew
    const again = await claimed(calls);
    expect(again).toMatchObject({ uuid: queued.uuid, attempt: 2 });
    expect((await calls.report(P, again)).statusCode).toBe(201);
    expect(await job(queued.uuid)).toMatchObject({ state: 'succeeded', attempt: 2 });
  });

  it('of an archived runner stops working, and its running job is queued again at once', async () => {
    const runner = await runnerFor('archive-box');
    const queued = await queueJob(t, ada.token, P, jobBody('archive-box'));
    const held = await claimed(runner);
    const archived = await t.app.inject({
      method: 'PATCH',
      url: `/v0/runners/${runner.slug}`,
      headers: bearer(admin.token),
      payload: { archived: true },
    });
    expect(archived.statusCode).toBe(200);
    expect(await job(queued.uuid)).toMatchObject({ state: 'queued', attempt: 1 });
    expect((await runner.heartbeat(held.uuid, { attempt: 1 })).statusCode).toBe(401);
  });
});

describe('job logs', () => {
  it('keep at most 1 MiB of output per job and count the rest', async () => {
    const runner = await runnerFor('log-box');
    const queued = await queueJob(t, ada.token, P, jobBody('log-box'));
    const held = await claimed(runner);
    const before = (await job(queued.uuid)).log.bytes as number;
    const chunk = `${'é'.repeat(30_000)}\n`;
    for (let i = 0; i < 20; i++) {
      const beat = await runner.heartbeat(held.uuid, {
        attempt: 1,
        output: chunk,
        dropped: i === 0 ? 10 : 0,
      });
      expect(beat.statusCode, beat.body).toBe(200);
    }
    const sent = before + 20 * Buffer.byteLength(chunk) + 10;
    const { log } = await job(queued.uuid);
    expect(log.bytes).toBe(1_048_576);
    expect(log.bytes + log.dropped).toBe(sent);
    const pieces = (await call(ada.token, 'GET', `/v0/projects/${P}/jobs/${queued.uuid}/log`)).json();
    const text = pieces.map((p: { text: string }) => p.text).join('');
    expect(Buffer.byteLength(text)).toBe(1_048_576);
    // cut on a character, never inside one
    expect(text).not.toContain('\uFFFD');
  });
});

describe('an API restart', () => {
  it('loses no queued job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchtrack-jobs-'));
    const postgres = onPostgres ? await freshPostgresDatabase() : undefined;
    const database = postgres ? { url: postgres.url } : { file: join(dir, 'restart.db') };
    try {
      const first = await createTestApp({ database });
      const owner = await signUp(first, 'Owner User', 'owner@example.com');
      await createProject(first, owner, 'owner-user', { name: 'Kept' });
      const queued = await queueJob(first, owner.token, 'kept', jobBody('kept-box'));
      const runner = await createRunner(first, owner.token, { name: 'kept', specs: ['kept-box'] });
      await first.close();
      const second = await createTestApp({ database });
      try {
        const answer = await runnerCalls(second, runner, () => runner.key).claim();
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toMatchObject({ uuid: queued.uuid, attempt: 1 });
      } finally {
        await second.close();
      }
    } finally {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
