import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, shot, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { seedHistory, submitRun } from '../helpers/runs.js';

let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let leader: Session;
let page: Page;
let errors: string[];
const BENCHMARKS = ['parse/small', 'parse/large', 'tokenize'];

async function apiGet<T>(path: string): Promise<T> {
  const response = await stack.t.app.inject({
    method: 'GET',
    url: `/v0${path}`,
    headers: bearer(leader.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.console });
  leader = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  page = await browser.context.newPage();
  errors = watchErrors(page);
  await logInPage(page, stack, leader);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('console project pages (Chromium)', () => {
  it('creates a public project from its organization and opens its empty explorer', async () => {
    const [org] = await apiGet<{ slug: string }[]>('/organizations');
    await page.goto(`${stack.console}/console/organizations/${org!.slug}`);
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Name').fill('Parser');
    await form.getByLabel('URL').fill('https://example.com/parser');
    await form.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${stack.console}/console/projects/parser/perf`);
    await page.getByText('Choose at least one branch, testbed, benchmark and measure.').waitFor();

    await seedHistory(stack.api, leader.token, 'parser', { benchmarks: BENCHMARKS, jump: 'parse/large' });
    await submitRun(stack.api, leader.token, {
      project: 'parser',
      branch: 'feature-x',
      // Older than main's last run: the explorer opens on the branch with the most recent data.
      start: new Date(Date.now() - 5 * 86_400_000),
      results: { tokenize: { latency: { value: 3100 } } },
    });
  });

  it('finds the run in the explorer: defaults, search and select all, state in the URL, details of a point', async () => {
    await page.goto(`${stack.console}/console/projects/parser/perf`);
    const status = page.getByTestId('plot-status');
    await status.getByText('3 series, 39 points').waitFor();
    expect(page.url()).toMatch(
      /branches=[0-9a-f-]{36}&testbeds=[0-9a-f-]{36}&benchmarks=[0-9a-f-]{36},[0-9a-f-]{36},/,
    );
    await page
      .getByRole('row', { name: /parse\/large/ })
      .getByText('1 alert')
      .waitFor();

    await page.getByRole('button', { name: 'Clear' }).click();
    await status.getByText('Choose at least one branch').waitFor();
    await page.getByRole('searchbox', { name: 'Search benchmarks' }).fill('parse');
    await page.getByRole('button', { name: 'Select all 2 matching' }).click();
    await status.getByText('2 series, 26 points').waitFor();
    await page.reload();
    await status.getByText('2 series, 26 points').waitFor();

    // Keyboard: focus the plot, move to a point, and follow its report link.
    await page.getByTestId('perf-plot').focus();
    await page.keyboard.press('ArrowRight');
    const tooltip = page.getByTestId('plot-tooltip');
    await tooltip.waitFor();
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toMatch(/parse\/large|parse\/small/);
    expect(text).toMatch(/Version#\d+ [0-9a-f]{7}/);
    expect(text).toContain('Limits');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/projects\/parser\/reports\/[0-9a-f-]{36}$/);
    await page.getByRole('columnheader', { name: 'Upper limit' }).waitFor();
    await page.goBack();

    // Hover with the mouse shows the same details.
    const box = (await page.getByTestId('perf-plot').locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await tooltip.getByText('Open the report').waitFor();

    await page.getByLabel('Y axis').selectOption('log');
    await page.getByLabel('X axis').selectOption('version');
    await page.waitForURL(/x_axis=version/);
    expect(page.url()).toContain('y_axis=log');
    await status.getByText('2 series, 26 points').waitFor();
    expect(errors).toEqual([]);
  });

  it('refuses a selection of more than 255 series before asking the API, saying how many it makes', async () => {
    const query = new URL(page.url()).searchParams;
    const benchmark = query.get('benchmarks')!.split(',')[0]!;
    query.set('benchmarks', Array.from({ length: 128 }, () => benchmark).join(','));
    query.set('measures', `${query.get('measures')},${query.get('measures')}`);
    await page.goto(`${stack.console}/console/projects/parser/perf?${query}`);
    await page
      .getByRole('alert')
      .getByText(/makes 256 series .* at most 255/)
      .waitFor();
    await page.goBack();
    await page.getByTestId('plot-status').getByText('2 series, 26 points').waitFor();
  });

  it('copies an embeddable image link and downloads the selection as CSV', async () => {
    await page.getByRole('button', { name: 'Copy image link' }).click();
    await page.getByText('Copied').waitFor();
    const link = new URL((await page.evaluate('navigator.clipboard.readText()')) as string);
    expect(link.origin).toBe(stack.api);
    expect(link.pathname).toBe('/v0/projects/parser/perf/img');
    const image = await fetch(link);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // Read to the end: an unread answer keeps its connection busy, and the API's close waits for it.
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(csv).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^branch,testbed,benchmark,measure,units,report,/);
    expect(lines).toHaveLength(27);
  });

  it('pins plots to the dashboard, reorders and removes them', async () => {
    await page.getByRole('button', { name: 'Pin to dashboard' }).click();
    await page.getByRole('form', { name: 'Pin to the dashboard' }).getByLabel('Title').fill('Parsing');
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByText('Pinned.').waitFor();
    await page.getByRole('searchbox', { name: 'Search benchmarks' }).fill('tokenize');
    await page.getByRole('button', { name: 'Deselect matching' }).waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: 'tokenize' }).check();
    await page.getByTestId('plot-status').getByText('3 series').waitFor();
    await page.getByRole('button', { name: 'Pin to dashboard' }).click();
    await page.getByRole('button', { name: 'Pin to dashboard' }).click();
    await page.getByRole('form', { name: 'Pin to the dashboard' }).getByLabel('Title').fill('Everything');
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByRole('link', { name: 'Open the dashboard' }).click();

    const titles = page.locator('.dashboard h2');
    await expect.poll(() => titles.allTextContents()).toEqual(['Parsing', 'Everything']);
    await page.getByTestId('perf-plot').first().waitFor();
    await page.getByRole('button', { name: 'Move Everything up' }).click();
    await expect.poll(() => titles.allTextContents()).toEqual(['Everything', 'Parsing']);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Parsing' }).click();
    await expect.poll(() => titles.allTextContents()).toEqual(['Everything']);
    const plots = await apiGet<{ title: string }[]>('/projects/parser/plots');
    expect(plots.map((p) => p.title)).toEqual(['Everything']);
  });

  it('lists reports with filters and shows every result of one', async () => {
    await page.goto(`${stack.console}/console/projects/parser/reports`);
    await page
      .getByText('1–14 of 14')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    const rows = page.locator('tbody tr');
    // the list answers after the page draws: at load 9-10 in CI that took over expect.poll's default 1 s
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(14);
    await page.getByLabel('Branch').selectOption({ label: 'feature-x' });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(page.url()).toMatch(/branch=[0-9a-f-]{36}/);
    // the report's link (its date); the branch and testbed beside it link to their pages
    await rows.first().getByRole('link').first().click();
    await page.getByRole('cell', { name: 'tokenize' }).waitFor();
    await page.getByRole('cell', { name: '3,100' }).waitFor();
  });

  it('dismisses and reactivates an alert, then dismisses all', async () => {
    // All, not the default Active: a dismissed alert stays in view
    await page.goto(`${stack.console}/console/projects/parser/alerts?status=all`);
    const row = page.getByRole('row', { name: /parse\/large/ });
    await row.getByText('active').waitFor();
    await row.getByRole('button', { name: 'Dismiss the alert on parse/large' }).click();
    await row.getByText('dismissed').waitFor();
    // the row changes at once; the API has the change once its answer is in
    const status = async () => (await apiGet<{ status: string }[]>('/projects/parser/alerts'))[0]!.status;
    await expect.poll(status, { timeout: 10_000 }).toBe('dismissed');
    await row.getByRole('button', { name: 'Reactivate the alert on parse/large' }).click();
    await row.getByText('active').waitFor();
    // the alert page reads the API: open it once the reactivation is in, not only on screen
    await expect.poll(status, { timeout: 10_000 }).toBe('active');

    // Its own page, where the CLI's links lead.
    await row.getByRole('link', { name: 'parse/large' }).click();
    await page.getByRole('heading', { name: 'Alert: parse/large' }).waitFor();
    await page.getByText(/above the upper limit/).waitFor();
    await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await page.locator('.facts .badge').getByText('dismissed').waitFor();
    await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
    await page.locator('.facts .badge').getByText('active').waitFor();
    await page.getByRole('link', { name: 'All alerts' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Dismiss all (1)' }).click();
    // the Active list, where the link leads, has nothing left; All shows the alert dismissed
    await page.getByText('No active alerts.').waitFor();
    expect(await status()).toBe('dismissed');
    await page.getByRole('button', { name: /^All/ }).click();
    await row.getByText('dismissed').waitFor();
  });

  it('archives a branch, shows it among the archived ones, and unarchives it', async () => {
    await page.goto(`${stack.console}/console/projects/parser/branches`);
    await page.getByRole('button', { name: 'Archive feature-x' }).click();
    await page.getByText('feature-x archived.').waitFor();
    await page.getByRole('button', { name: 'Archive feature-x' }).waitFor({ state: 'detached' });
    const [branch] = await apiGet<{ archived: boolean }[]>('/projects/parser/branches?archived=true');
    expect(branch!.archived).toBe(true);
    await page.getByLabel(/Show archived branches/).check();
    await page.getByRole('heading', { name: 'Archived branches' }).waitFor();
    await page.getByRole('button', { name: 'Unarchive feature-x' }).click();
    await page.getByText('No archived branches.').waitFor();
    await page.getByLabel(/Show archived branches/).uncheck();
    await page.getByRole('button', { name: 'Archive feature-x' }).waitFor();
  });

  it('creates a threshold, gives it a new model and lists the history of models', async () => {
    await page.goto(`${stack.console}/console/projects/parser/thresholds`);
    await page.getByRole('cell', { name: 't_test · upper 0.99' }).waitFor();
    await page.getByRole('link', { name: 'Add a threshold' }).click();
    await page.getByLabel('Branch').selectOption({ label: 'feature-x' });
    await page.getByLabel('Testbed').selectOption({ label: 'linux' });
    await page.getByLabel('Measure').selectOption({ label: 'Latency' });
    await page.getByLabel('Model').selectOption('percentage');
    await page.getByLabel('Upper boundary').fill('0.1');
    // what the new model's upper boundary shows when the form first appears (the page is rendered in place)
    await page.evaluate(`
      window.firstUpperBoundary = [];
      new MutationObserver((_, observer) => {
        const label = [...document.querySelectorAll('form[aria-label="New model"] label')]
          .find((element) => element.textContent.startsWith('Upper boundary'));
        const input = label?.querySelector('input');
        if (!input) return;
        window.firstUpperBoundary.push(input.value);
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    `);
    await page.getByRole('button', { name: 'Create threshold' }).click();
    await page.getByRole('heading', { name: 'Threshold: feature-x · linux · Latency' }).waitFor();
    // the current model's, from the first moment: a value typed at once is not overwritten after
    await page.getByRole('form', { name: 'New model' }).waitFor();
    expect(await page.evaluate('window.firstUpperBoundary')).toEqual(['0.1']);

    await page.getByLabel('Upper boundary').fill('0.2');
    await page.getByRole('button', { name: 'Save the new model' }).click();
    await page.locator('.facts').getByText('0.2', { exact: true }).waitFor();
    // both models: the new one (current) and the one it replaced
    const history = page.locator('table tbody tr');
    await expect.poll(() => history.count()).toBe(2);
    await expect.poll(() => history.nth(0).textContent()).toContain('current');

    // The replaced model stays in the history.
    await page.goto(`${stack.console}/console/projects/parser/thresholds`);
    await page.getByRole('link', { name: 'main' }).click();
    await page.locator('.facts').getByText('0.99', { exact: true }).waitFor();
    await page.getByLabel('Upper boundary').fill('0.95');
    await page.getByRole('button', { name: 'Save the new model' }).click();
    await expect.poll(() => history.count(), { timeout: 10_000 }).toBe(2);
    await history.nth(1).getByRole('link').click();
    await page.getByText('An earlier model.').waitFor();
    await page.locator('.facts').getByText('0.99', { exact: true }).waitFor();
  });

  it('shows a public project to a visitor who is not logged in, sent there from console links', async () => {
    const visitor = await launchBrowser();
    try {
      const anonymous = await visitor.context.newPage();
      await page.goto(`${stack.console}/console/projects/parser/perf`);
      await page.getByTestId('plot-status').getByText('3 series').waitFor();
      const query = new URL(page.url()).search;
      expect(query).toContain('benchmarks=');
      await anonymous.goto(`${stack.console}/console/projects/parser/perf${query}`);
      await anonymous.waitForURL(`${stack.console}/perf/parser${query}`);
      await shot(anonymous, 'anonymous-perf');
      await anonymous
        .getByTestId('plot-status')
        .getByText(/\d series/)
        .waitFor();
      await anonymous.getByRole('link', { name: 'Log in' }).waitFor();

      await anonymous.goto(`${stack.console}/console/projects/parser/alerts`);
      await anonymous.waitForURL(`${stack.console}/perf/parser/alerts`);
      await anonymous.getByRole('button', { name: /^All/ }).click();
      await anonymous.getByRole('row', { name: /parse\/large/ }).waitFor();
      expect(
        await anonymous
          .getByRole('button', { name: /Dismiss the alert|Reactivate the alert|Dismiss all/ })
          .count(),
      ).toBe(0);
      await anonymous.goto(`${stack.console}/perf/parser/reports`);
      await expect.poll(() => anonymous.locator('tbody tr').count()).toBe(14);

      // Made private in its settings, the project is no longer visible without logging in.
      await page.goto(`${stack.console}/console/projects/parser/settings`);
      await page.getByLabel('Visibility').selectOption('private');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await anonymous.goto(`${stack.console}/perf/parser`);
      await anonymous.getByRole('alert').waitFor();
      await anonymous.getByText('A private project is visible only to its members').waitFor();
    } finally {
      await visitor.close();
    }
  });
});
