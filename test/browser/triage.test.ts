import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, shot, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { seedSteps, stepHash } from '../helpers/steps.js';

// Regressions in the console. Project "engine" (URL https://github.com/example/repo): 60 daily reports of six
// latency benchmarks with 2% noise under a t-test threshold; bench_1 and bench_3 15% slower from version 45,
// bench_5 15% faster from version 50: one open regression and one open improvement.
let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let ada: Session;
let page: Page;
let errors: string[];
const BENCHMARKS = Array.from({ length: 6 }, (_, i) => `bench_${i}`);

interface Regression {
  uuid: string;
  kind: string;
  status: string;
  first_bad: { number: number };
  last_good: { number: number } | null;
}

async function apiGet<T>(path: string): Promise<T> {
  const response = await stack.t.app.inject({ method: 'GET', url: `/v0${path}`, headers: bearer(ada.token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

const openRegressions = () => apiGet<Regression[]>('/projects/engine/regressions?status=open&sort=status');

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  ada = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  await createProject(stack.t, ada, 'ada-lovelace', {
    name: 'Engine',
    url: 'https://github.com/example/repo',
    visibility: 'public',
  });
  // a start 70 days back keeps the reports inside the explorer's default window
  await seedSteps(stack.t, ada, {
    project: 'engine',
    benchmarks: BENCHMARKS,
    level: (name, version) =>
      (name === 'bench_1' || name === 'bench_3') && version >= 45
        ? 1.15
        : name === 'bench_5' && version >= 50
          ? 0.85
          : 1,
    seed: 7,
    start: Date.now() - 70 * 86_400_000,
  });
  page = await browser.context.newPage();
  errors = watchErrors(page);
  await logInPage(page, stack, ada);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('regressions in the console (Chromium)', () => {
  it('opens a project on its Regressions page: the open changes with their counts, untriaged first', async () => {
    // untriaged first, the newest first among them: the improvement at version 50, then the regression at 45
    const open = await openRegressions();
    expect(open.map((r) => [r.kind, r.status, r.first_bad.number])).toEqual([
      ['improvement', 'untriaged', 50],
      ['regression', 'untriaged', 45],
    ]);
    await page.goto(`${stack.console}/console/projects`);
    await page.getByRole('link', { name: 'Engine' }).click();
    await page.waitForURL(`${stack.console}/console/projects/engine`);
    await page.getByRole('heading', { name: 'Regressions', exact: true }).waitFor();
    expect(
      await page.getByRole('link', { name: 'Regressions', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    // each tab's title names the page, then the project
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Regressions · Engine · Benchtrack');
    const rows = page.locator('table.regressions tbody tr[data-uuid]');
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid')))).toEqual(
      open.map((r) => r.uuid),
    );
    const first = (await rows.nth(1).textContent())!;
    expect(first).toContain('▲ Regression');
    expect(first).toMatch(/#44 0{7} → #45 0{7}/);
    expect(first).toMatch(/\+1\d(\.\d)? %/);
    // the branch and testbed of a row link to their pages
    expect(await rows.nth(1).getByRole('link', { name: 'main', exact: true }).getAttribute('href')).toBe(
      '/console/projects/engine/branches/main',
    );
    expect(await rows.nth(1).getByRole('link', { name: 'linux', exact: true }).getAttribute('href')).toBe(
      '/console/projects/engine/testbeds/linux',
    );
    await expect.poll(() => page.getByTestId('count-open').textContent(), { timeout: 10_000 }).toBe(' 2');

    // The kind filter goes to the URL and to the API.
    await page.getByLabel('Kind').selectOption('improvement');
    await page.waitForURL(/kind=improvement/);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().getAttribute('data-uuid')).toBe(open[0]!.uuid);
    await page.getByLabel('Kind').selectOption('');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Alerts · Engine · Benchtrack');
    expect(errors).toEqual([]);
  });

  it('triages from the keyboard on the list: j moves, a acknowledges, and the row and counts follow', async () => {
    const [improvement, regression] = await openRegressions();
    await page.goto(`${stack.console}/console/projects/engine/regressions`);
    const rows = page.locator('table.regressions tbody tr[data-uuid]');
    await rows.first().focus();
    await page.keyboard.press('j');
    expect(await page.evaluate('document.activeElement.dataset.uuid')).toBe(regression!.uuid);
    await page.keyboard.press('k');
    expect(await page.evaluate('document.activeElement.dataset.uuid')).toBe(improvement!.uuid);
    await page.keyboard.press('a');
    const row = page.locator(`tr[data-uuid="${improvement!.uuid}"]`);
    await expect.poll(() => row.locator('.badge').textContent(), { timeout: 10_000 }).toBe('acknowledged');
    await page
      .getByRole('status')
      .getByText(/Marked the change at .* acknowledged/)
      .waitFor();
    const after = await apiGet<Regression>(`/projects/engine/regressions/${improvement!.uuid}`);
    expect(after.status).toBe('acknowledged');
    // acknowledged is still open: both stay listed, the untriaged one now first
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid')))).toEqual([
      regression!.uuid,
      improvement!.uuid,
    ]);
    expect(await page.getByTestId('count-open').textContent()).toBe(' 2');

    // Undo puts it back.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => row.locator('.badge').textContent(), { timeout: 10_000 }).toBe('untriaged');
    expect(errors).toEqual([]);
  });

  it('opens a regression with Enter: its range with a GitHub compare link, a plot per series, keyboard triage and its history', async () => {
    const regression = (await openRegressions()).find((r) => r.kind === 'regression');
    await page.goto(`${stack.console}/console/projects/engine/regressions`);
    await page.locator(`table.regressions tbody tr[data-uuid="${regression!.uuid}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.console}/console/projects/engine/regressions/${regression!.uuid}`);
    await page.getByRole('heading', { name: 'Regression: 2 series at version 45' }).waitFor();
    const compare = page.getByRole('link', { name: /^Compare/ });
    expect(await compare.getAttribute('href')).toBe(
      `https://github.com/example/repo/compare/${stepHash(44)}...${stepHash(45)}`,
    );
    expect(await page.getByRole('link', { name: 'first bad commit' }).getAttribute('href')).toBe(
      `https://github.com/example/repo/commit/${stepHash(45)}`,
    );
    const plots = page.getByTestId('regression-series');
    await expect.poll(() => plots.count(), { timeout: 10_000 }).toBe(2);
    expect((await plots.allTextContents()).map((text) => text.split(' ')[0]).sort()).toEqual([
      'bench_1',
      'bench_3',
    ]);
    for (const plot of await plots.all()) {
      const ready = plot.locator('[data-testid=perf-plot][data-ready]');
      await ready.waitFor();
      await expect.poll(() => ready.getAttribute('data-regression-markers'), { timeout: 10_000 }).toBe('1');
    }

    // e marks it expected, without a form: the status and the history change.
    await page.locator('section.regression').focus();
    await page.keyboard.press('e');
    await expect
      .poll(() => page.getByTestId('regression-status').textContent(), { timeout: 10_000 })
      .toBe('expected');
    const history = page.getByTestId('regression-history');
    await expect
      .poll(() => history.getByRole('listitem').last().textContent(), { timeout: 10_000 })
      .toMatch(/untriaged → expected by Ada Lovelace/);
    expect((await apiGet<Regression>(`/projects/engine/regressions/${regression!.uuid}`)).status).toBe(
      'expected',
    );

    // The form sets the note and the assignee.
    await page.getByLabel('Note').fill('the new parser');
    await page.getByLabel('Assignee').selectOption({ label: 'Ada Lovelace' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('dd.note').getByText('the new parser').waitFor();
    const saved = await apiGet<Regression & { note: string; assignee: { slug: string } }>(
      `/projects/engine/regressions/${regression!.uuid}`,
    );
    expect(saved).toMatchObject({ note: 'the new parser', assignee: { slug: 'ada-lovelace' } });
    await shot(page, 'regression');
    expect(errors).toEqual([]);
  });

  it('marks the regressions of the plotted series on the explorer plot', async () => {
    const uuid = async (kind: string, name: string) =>
      (await apiGet<{ uuid: string; name: string }[]>(`/projects/engine/${kind}?per_page=255`)).find(
        (d) => d.name === name,
      )!.uuid;
    const query = [
      `branches=${await uuid('branches', 'main')}`,
      `testbeds=${await uuid('testbeds', 'linux')}`,
      `benchmarks=${await uuid('benchmarks', 'bench_1')},${await uuid('benchmarks', 'bench_0')}`,
      `measures=${await uuid('measures', 'Latency')}`,
      'range=90d',
    ].join('&');
    await page.goto(`${stack.console}/console/projects/engine/perf?${query}`);
    const plot = page.locator('[data-testid=perf-plot][data-ready]');
    await plot.waitFor();
    // bench_1 belongs to the (now expected) regression; bench_0 to none
    await expect.poll(() => plot.getAttribute('data-regression-markers'), { timeout: 10_000 }).toBe('1');
    expect(errors).toEqual([]);
  });

  it("sets a measure's direction on the Measures page", async () => {
    await page.goto(`${stack.console}/console/projects/engine/measures`);
    const select = page.getByLabel('Which way Latency is better');
    expect(await select.inputValue()).toBe('lower_is_better');
    await select.selectOption('higher_is_better');
    await page.getByRole('status').getByText('Latency: higher is better.').waitFor();
    const [latency] = await apiGet<{ direction: string | null }[]>('/projects/engine/measures');
    expect(latency!.direction).toBe('higher_is_better');
    expect(errors).toEqual([]);
  });
});
