import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, shot, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { createRunner, jobBody, queueJob, runnerCalls } from '../helpers/runners.js';

let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let admin: Session;

beforeAll(async () => {
  stack = await startStack({ runners: { heartbeat_timeout: '60s' } });
  browser = await launchBrowser();
  admin = await signUp(stack.t, 'Ada Admin', 'ada@example.com');
  await createProject(stack.t, admin, 'ada-admin', { name: 'Bench' });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('console runners and jobs (Chromium)', () => {
  it("shows administrators the runners' state, current job and last heartbeat, and a project's jobs with their output", async () => {
    const { t } = stack;
    const runner = await createRunner(t, admin.token, { name: 'Bench Box', specs: ['bench-box'] });
    await createRunner(t, admin.token, { name: 'Spare Box', specs: ['spare-box'] });
    const calls = runnerCalls(t, runner, () => runner.key);
    const queued = await queueJob(
      t,
      admin.token,
      'bench',
      jobBody('bench-box', { command: ['cargo bench'] }),
    );
    const held = (await calls.claim()).json();
    await calls.heartbeat(held.uuid, { attempt: 1, output: 'Compiling bench v0.1.0\n' });

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await logInPage(page, stack, admin);
    await page.goto(`${stack.console}/console/projects`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).click();
    const row = page.getByRole('table', { name: 'Runners' }).getByRole('row', { name: /Bench Box/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'Bench Box bench-box',
      'bench-box',
      'running',
      queued.uuid.slice(0, 8),
      expect.stringMatching(/^\d+ s ago$/),
    ]);
    await shot(page, 'runners');
    const spare = page.getByRole('row', { name: /Spare Box/ });
    expect(await spare.getByRole('cell').allTextContents()).toEqual([
      'Spare Box spare-box',
      'spare-box',
      'offline',
      '—',
      'never',
    ]);

    // the current job's link opens the job in its project
    await row.getByRole('link', { name: queued.uuid.slice(0, 8) }).click();
    await page.getByRole('heading', { name: 'Job on bench-box' }).waitFor();
    const log = page.getByLabel('Job output');
    await expect.poll(() => log.textContent()).toContain('Compiling bench v0.1.0');
    // the page follows the output while the job runs
    await calls.heartbeat(held.uuid, { attempt: 1, output: 'bench parse ... 42 ns/iter\n' });
    await expect.poll(() => log.textContent(), { timeout: 10_000 }).toContain('bench parse ... 42 ns/iter');
    await shot(page, 'job');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.locator('dl.facts').textContent()).toContain('canceled by ada-admin');
    expect((await calls.heartbeat(held.uuid, { attempt: 1 })).json().state).toBe('canceled');

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Jobs' }).click();
    const jobRow = page.getByRole('table', { name: 'Jobs' }).getByRole('row').nth(1);
    await jobRow.waitFor();
    const cells = await jobRow.getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual([
      'bench-box',
      'canceled',
      'cargo bench',
      'aaaaaaa',
      'Bench Box',
      'Ada Admin',
    ]);
    expect(errors).toEqual([]);
  });

  it('shows the Runners link to administrators only', async () => {
    const other = await signUp(stack.t, 'Bo Member', 'bo@example.com');
    const page = await browser.context.newPage();
    await logInPage(page, stack, other);
    await page.goto(`${stack.console}/console/projects`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).waitFor();
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).count(),
    ).toBe(0);
    // the page answers what the API lets the user see: no runner of an organization they lead
    await page.goto(`${stack.console}/console/runners`);
    await page.getByText('No runners yet.').waitFor();
    expect(
      (await stack.t.app.inject({ method: 'GET', url: '/v0/runners', headers: bearer(other.token) })).json(),
    ).toEqual([]);
  });
});
