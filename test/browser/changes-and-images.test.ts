import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { submitRun } from '../helpers/runs.js';

// Issue 18 item 7: change points on the explorer's plot (with a toggle) and on the report that confirmed one;
// issue 19 item 6: the image link in SVG and in the dark theme.
// Project "steps": 35 daily runs under a change_point threshold; "up" steps from 100 to 110 on day 24 (one
// confirmed change point, some reports later), "flat" only ripples by ±0.5 %.
let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let ada: Session;
let page: Page;
let errors: string[];
const DAYS = 35;
const STEP_AT = 24;
const NOW = Date.now();
const ripple = (n: number) => ((n * 37) % 11) / 5 - 1;
const reports: string[] = [];

async function apiGet<T>(path: string): Promise<T> {
  const response = await stack.t.app.inject({ method: 'GET', url: `/v0${path}`, headers: bearer(ada.token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

async function perfUrl(): Promise<string> {
  const uuid = async (kind: string, name: string) =>
    (await apiGet<{ uuid: string; name: string }[]>(`/projects/steps/${kind}`)).find((d) => d.name === name)!
      .uuid;
  const benchmarks = `${await uuid('benchmarks', 'up')},${await uuid('benchmarks', 'flat')}`;
  return `${stack.console}/console/projects/steps/perf?branches=${await uuid('branches', 'main')}&testbeds=${await uuid('testbeds', 'linux')}&benchmarks=${benchmarks}&measures=${await uuid('measures', 'Latency')}`;
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.console });
  ada = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  for (let n = 0; n < DAYS; n++) {
    const report = await submitRun(stack.api, ada.token, {
      project: 'steps',
      start: new Date(NOW - (DAYS - n) * 86_400_000),
      results: {
        up: { latency: { value: (n < STEP_AT ? 100 : 110) + ripple(n) } },
        flat: { latency: { value: 50 + ripple(n + 3) / 2 } },
      },
      thresholds: { latency: { test: 'change_point', upper_boundary: 0.9995, max_sample_size: 200 } },
    });
    reports.push(report.uuid);
  }
  page = await browser.context.newPage();
  errors = watchErrors(page);
  await logInPage(page, stack, ada);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('change points in the console (Chromium)', () => {
  it('draws and lists change points on the explorer plot when the toggle is on, and follows hidden lines', async () => {
    await page.goto(await perfUrl());
    const plot = page.locator('[data-testid=perf-plot][data-ready]');
    await plot.waitFor();
    const toggle = page.getByRole('checkbox', { name: 'Change points' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await plot.getAttribute('data-change-markers')).toBe('0');
    expect(await page.getByTestId('change-list').count()).toBe(0);

    await toggle.check();
    await expect.poll(() => new URL(page.url()).searchParams.get('changes')).toBe('true');
    // A table, one row per change point: series, version (linking to the report), date, levels, change, p-value.
    const list = page.getByTestId('change-list');
    const table = list.getByRole('table', { name: 'Change points' });
    const items = table.locator('tbody').getByRole('row');
    await items.first().waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.map((h) => h.trim())).toEqual([
      'Series',
      'Version',
      'Date',
      'Before → after',
      'Change',
      'p-value',
    ]);
    expect(await items.count()).toBe(1);
    const cells = (await items.first().getByRole('cell').allTextContents()).map((c) => c.trim());
    expect(cells[0]).toBe('up');
    expect(cells[1]).toMatch(new RegExp(`^#${STEP_AT} [0-9a-f]{7}$`));
    expect(cells[3]).toMatch(/^(99|10\d)(\.\d+)? → 1(09|10|11)(\.\d+)? /);
    expect(cells[4]).toMatch(/^\+\d+(\.\d)? %$/);
    expect(await items.first().getByRole('link').getAttribute('href')).toBe(
      `/console/projects/steps/reports/${reports[STEP_AT]}`,
    );
    await expect
      .poll(() => page.locator('[data-testid=perf-plot][data-ready]').getAttribute('data-change-markers'))
      .toBe('1');

    // Hiding "up" takes its change point off the plot and out of the list.
    await page.getByRole('checkbox', { name: 'Show up', exact: true }).uncheck();
    await list.getByText('No change point in the shown series').waitFor();
    await expect
      .poll(() => page.locator('[data-testid=perf-plot][data-ready]').getAttribute('data-change-markers'))
      .toBe('0');

    // The toggle is in the URL: a reload keeps it on.
    await page.reload();
    await page.locator('[data-testid=perf-plot][data-ready]').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Change points' }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('lists the change point a report confirmed, linking to the report where the new level starts', async () => {
    const alerts =
      await apiGet<{ report: string; change_point: { report: string } | null }[]>('/projects/steps/alerts');
    const confirmed = alerts.filter((a) => a.change_point !== null);
    expect(confirmed).toHaveLength(1);
    const { report, change_point } = confirmed[0]!;
    expect(change_point!.report).toBe(reports[STEP_AT]);
    expect(report).not.toBe(reports[STEP_AT]);

    await page.goto(`${stack.console}/console/projects/steps/reports/${report}`);
    const section = page.getByTestId('confirmed-changes');
    await section.getByRole('heading', { name: 'Change points this report confirmed' }).waitFor();
    const item = section.getByRole('listitem');
    expect(await item.count()).toBe(1);
    expect(await item.textContent()).toMatch(
      /^up \(Latency\): (99|10\d)(\.\d+)? → 1(09|10|11)(\.\d+)? .*\(\+\d+(\.\d)? %\), from the report where the new level starts/,
    );
    expect(
      await item.getByRole('link', { name: 'the report where the new level starts' }).getAttribute('href'),
    ).toBe(`/console/projects/steps/reports/${reports[STEP_AT]}`);
    // A report that confirmed nothing has no such list.
    await page.goto(`${stack.console}/console/projects/steps/reports/${reports[3]}`);
    await page.getByRole('heading', { name: /^Report of / }).waitFor();
    expect(await page.getByTestId('confirmed-changes').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('image link variants (Chromium)', () => {
  it('copies the image link as PNG or SVG, light or dark, and the snippets follow the choice', async () => {
    await page.goto(await perfUrl());
    await page.locator('[data-testid=perf-plot][data-ready]').waitFor();
    const copied = async (button: string) => {
      await page.getByRole('button', { name: button }).click();
      return (await page.evaluate('navigator.clipboard.readText()')) as string;
    };
    const plain = new URL(await copied('Copy image link'));
    expect(plain.searchParams.has('format')).toBe(false);
    expect(plain.searchParams.has('theme')).toBe(false);

    await page.getByLabel('Image format and theme').selectOption({ label: 'SVG, dark' });
    const text = await copied('Copy image link');
    const link = new URL(text);
    expect(link.pathname).toBe('/v0/projects/steps/perf/img');
    expect(link.searchParams.get('format')).toBe('svg');
    expect(link.searchParams.get('theme')).toBe('dark');
    const image = await fetch(link, { headers: bearer(ada.token) });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await image.text()).toContain('fill="#0d1117"');
    expect(await copied('Copy Markdown')).toContain(`(${text})`);
    expect(errors).toEqual([]);
  });
});
