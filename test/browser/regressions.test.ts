import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { bearer, signUp, type Session } from '../helpers/accounts.js';
import {
  launchBrowser,
  logInPage,
  shot,
  startStack,
  trackRequests,
  watchErrors,
  type Stack,
} from '../helpers/console.js';
import { submitRun } from '../helpers/runs.js';

// Issue 19: the pages where people go to find a regression. One project, "engine": main has a daily run of three
// benchmarks for 30 days under a t-test threshold, with "encode" 60 % slower on days 20 and 29 (two alerts on one
// series); feature ran only on days 0 to 9 under a percentage threshold whose upper limit sits far above its data,
// with "encode" 75 % slower on day 9 (a third alert).
let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let leader: Session;
let page: Page;
let errors: string[];
const DAYS = 30;
const BENCHMARKS = ['decode', 'encode', 'parse'];
const NOW = Date.now();
const day = (d: number) => new Date(NOW - (DAYS - d) * 86_400_000 + 3_600_000);

async function apiGet<T>(path: string): Promise<T> {
  const response = await stack.t.app.inject({
    method: 'GET',
    url: `/v0${path}`,
    headers: bearer(leader.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

async function seed(): Promise<void> {
  for (let d = 0; d < DAYS; d++) {
    const results: Record<string, Record<string, { value: number }>> = {};
    BENCHMARKS.forEach((name, k) => {
      const base = (k + 1) * 1000 * (1 + 0.01 * Math.sin(d));
      results[name] = { latency: { value: name === 'encode' && (d === 20 || d === 29) ? base * 1.6 : base } };
    });
    // A second measure with wide tick labels, for the right y axis.
    results.parse!.throughput = { value: 123_456_789 + d * 1_000_000 };
    await submitRun(stack.api, leader.token, {
      project: 'engine',
      start: day(d),
      results,
      thresholds: { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 } },
    });
    if (d < 10) {
      await submitRun(stack.api, leader.token, {
        project: 'engine',
        branch: 'feature',
        start: day(d),
        results: {
          decode: { latency: { value: 1000 + (d % 3) } },
          encode: { latency: { value: d === 9 ? 3500 : 2000 + (d % 3) } },
        },
        thresholds: { latency: { test: 'percentage', upper_boundary: 0.5 } },
      });
    }
  }
}

/** The explorer's URL for the given dimension names (resolved to UUIDs through the API). */
async function perfUrl(
  names: { branches: string[]; benchmarks: string[]; measures?: string[] },
  extra = '',
): Promise<string> {
  const uuids = async (kind: string, wanted: string[]) => {
    const all = await apiGet<{ uuid: string; name: string }[]>(`/projects/engine/${kind}?per_page=255`);
    return wanted.map((name) => all.find((d) => d.name === name)!.uuid).join(',');
  };
  const query = [
    `branches=${await uuids('branches', names.branches)}`,
    `testbeds=${await uuids('testbeds', ['linux'])}`,
    `benchmarks=${await uuids('benchmarks', names.benchmarks)}`,
    `measures=${await uuids('measures', names.measures ?? ['Latency'])}`,
  ].join('&');
  return `${stack.console}/console/projects/engine/perf?${query}${extra}`;
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.console });
  leader = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  await seed();
  page = await browser.context.newPage();
  errors = watchErrors(page);
  await logInPage(page, stack, leader);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('issue 19 bugs (Chromium)', () => {
  it('keeps a hidden line hidden by its identity when a range change leaves another series out', async () => {
    await page.goto(await perfUrl({ branches: ['feature', 'main'], benchmarks: ['decode'] }));
    const status = page.getByTestId('plot-status');
    await status.getByText('2 series, 40 points').waitFor();
    const row = (branch: string) =>
      page.locator('.legend tbody tr').filter({ has: page.getByRole('cell', { name: branch, exact: true }) });
    const mainRow = row('main');
    await mainRow.getByRole('checkbox').uncheck();
    await page.getByText('1 of 2 lines shown').waitFor();

    // The last 7 days: feature has no data there, so the answer holds main alone.
    await page.getByLabel('Range').selectOption('7d');
    await status.getByText(/^1 series, \d+ points/).waitFor();
    await page.getByText('0 of 1 lines shown').waitFor();
    expect(await mainRow.getByRole('checkbox').isChecked()).toBe(false);

    // The identity is in the URL: a reload, and the way back to all time, keep main hidden and feature shown.
    await page.reload();
    await page.getByText('0 of 1 lines shown').waitFor();
    await page.getByLabel('Range').selectOption('all');
    await page.getByText('1 of 2 lines shown').waitFor();
    expect(await mainRow.getByRole('checkbox').isChecked()).toBe(false);
    expect(await row('feature').getByRole('checkbox').isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('includes drawn threshold limits in the automatic y range', async () => {
    await page.goto(await perfUrl({ branches: ['feature'], benchmarks: ['decode'] }));
    await page.getByTestId('plot-status').getByText('1 series, 10 points').waitFor();
    await page.locator('[data-testid=perf-plot][data-ready]').waitFor();
    const perf = await apiGet<{
      results: { metrics: { boundary: { upper_limit: number | null } | null }[] }[];
    }>(`/projects/engine/perf?${new URL(page.url()).search.slice(1)}`);
    const highest = Math.max(...perf.results[0]!.metrics.map((m) => m.boundary?.upper_limit ?? -Infinity));
    expect(highest).toBeGreaterThan(1400);
    const plot = page.getByTestId('perf-plot');
    await expect
      .poll(async () => Number(await plot.getAttribute('data-y-max')))
      .toBeGreaterThanOrEqual(highest);

    // Without bounds drawn, the range hugs the data again.
    await page.getByLabel('Boundaries').uncheck();
    await expect.poll(async () => Number(await plot.getAttribute('data-y-max'))).toBeLessThan(1400);
  });

  it('keeps axis titles clear of the tick labels, on the left and on the right axis', async () => {
    await page.goto(
      await perfUrl({
        branches: ['main'],
        benchmarks: ['decode', 'parse'],
        measures: ['Latency', 'Throughput'],
      }),
    );
    await page.getByTestId('plot-status').getByText('3 series, 90 points').waitFor();
    await shot(page, 'axes');
    const plot = page.getByTestId('perf-plot');
    const titles = page.locator('.axis-title');
    await expect
      .poll(() => titles.allTextContents())
      .toEqual(['Latency · nanoseconds (ns)', 'Throughput · operations / second (ops/s)']);
    // Beside the canvas where uPlot draws the ticks and their labels, never over it, and inside the frame. The
    // plot can be drawn again after the status shows (its canvas and titles replaced): the four boxes are read
    // together, again until all of them are in place.
    await expect
      .poll(
        async () => {
          const [canvas, frame, left, right] = await Promise.all([
            plot.locator('canvas').boundingBox(),
            page.locator('.plot-frame').first().boundingBox(),
            titles.nth(0).boundingBox(),
            titles.nth(1).boundingBox(),
          ]);
          if (!canvas || !frame || !left || !right) return 'not in place';
          return {
            leftOfCanvas: left.x + left.width <= canvas.x + 1,
            leftInFrame: left.x >= frame.x - 1,
            rightOfCanvas: right.x >= canvas.x + canvas.width - 1,
            rightInFrame: right.x + right.width <= frame.x + frame.width + 1,
          };
        },
        { timeout: 10_000 },
      )
      .toEqual({ leftOfCanvas: true, leftInFrame: true, rightOfCanvas: true, rightInFrame: true });
  });
});

describe('alerts list (Chromium)', () => {
  it('groups alerts by series with a count, shows when the run ran and its commit, filters, and undoes a dismiss', async () => {
    await page.goto(`${stack.console}/console/projects/engine/alerts`);
    await page.getByText('3 alerts on 2 series').waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // Series with the most recent run first: encode on main ran a day ago, on feature 21 days ago.
    const main = rows.nth(0);
    expect(await main.textContent()).toMatch(/^encode.*main · linux/);
    await main.getByRole('button', { name: 'Show the 2 alerts on encode' }).click();
    await expect.poll(() => rows.count()).toBe(4);
    await shot(page, 'alerts');
    const runs = await rows.locator('td[data-label=Ran]').allTextContents();
    const ran = (d: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(day(d));
    // backdated: the day each report ran, not the minute it was received
    expect(runs).toEqual([ran(29), ran(29), ran(20), ran(9)]);
    const commits = await rows.locator('td[data-label=Commit]').allTextContents();
    for (const commit of commits) expect(commit).toMatch(/^#\d+ [0-9a-f]{7}$/);
    await main.getByRole('button', { name: 'Hide the 2 alerts on encode' }).click();

    await page.getByLabel('Branch').selectOption({ label: 'feature' });
    await page.getByText('1 alert on 1 series').waitFor();
    expect(page.url()).toMatch(/branch=[0-9a-f-]{36}/);
    expect(await rows.first().textContent()).toMatch(/^encode.*feature · linux/);
    await page.getByLabel('Branch').selectOption({ label: 'main' });
    await page.getByLabel('Benchmark').selectOption({ label: 'encode' });
    await page.getByText('2 alerts on 1 series').waitFor();

    // Dismiss the series' two alerts: a visible confirmation, and Undo brings them back.
    await page.getByRole('button', { name: 'Dismiss the 2 active alerts on encode' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Dismissed 2 alerts.' });
    await done.waitFor();
    const statuses = async () =>
      (await apiGet<{ status: string; threshold: { branch: { name: string } } }[]>('/projects/engine/alerts'))
        .filter((a) => a.threshold.branch.name === 'main')
        .map((a) => a.status);
    // the rows change at once; the API has the change once its answers are in
    await expect.poll(statuses, { timeout: 10_000 }).toEqual(['dismissed', 'dismissed']);
    await done.getByRole('button', { name: 'Undo' }).click();
    await done.waitFor({ state: 'detached' });
    await expect.poll(statuses, { timeout: 10_000 }).toEqual(['active', 'active']);
    await page.getByRole('button', { name: 'Dismiss the 2 active alerts on encode' }).waitFor();
    expect(errors).toEqual([]);
  });
});

interface AlertBrief {
  uuid: string;
  report: string;
  start_time: string;
  benchmark: { uuid: string; name: string };
  measure: { uuid: string };
  threshold: { uuid: string; branch: { name: string } };
}

/** The most recent alert on main (encode, day 29). */
async function lastMainAlert(): Promise<AlertBrief> {
  const alerts = await apiGet<AlertBrief[]>('/projects/engine/alerts');
  return alerts
    .filter((a) => a.threshold.branch.name === 'main')
    .sort((a, b) => Date.parse(b.start_time) - Date.parse(a.start_time))[0]!;
}

describe('report, alert and threshold pages (Chromium)', () => {
  it('shows a report with a plot per measure, a change column, alerted rows first, and the explorer on its alert', async () => {
    const alert = await lastMainAlert();
    await page.goto(`${stack.console}/console/projects/engine/reports/${alert.report}`);
    const rows = page.locator('table.results tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    // encode (alerted) before decode, though decode comes first by name
    expect(await rows.nth(0).locator('td').first().textContent()).toBe('encode');
    expect(await rows.nth(0).locator('td[data-label="Δ% baseline"]').textContent()).toMatch(
      /^\+\d+(\.\d)? %$/,
    );
    expect(await rows.nth(0).locator('td[data-label="Δ% limit"]').textContent()).toMatch(/^\+\d+(\.\d)? %$/);
    // one plot per measure (latency, throughput), each drawn
    await expect.poll(() => page.locator('[data-testid=perf-plot][data-ready]').count()).toBe(2);
    await shot(page, 'report');

    const href = new URL(
      (await page.getByRole('link', { name: 'Plot in the explorer' }).getAttribute('href'))!,
      stack.console,
    );
    expect(href.searchParams.get('benchmarks')).toBe(alert.benchmark.uuid);
    expect(href.searchParams.get('measures')).toBe(alert.measure.uuid);
    expect(href.searchParams.get('range')).toBe('custom');
    const ran = Date.parse(alert.start_time);
    expect(Number(href.searchParams.get('start_time'))).toBeLessThan(ran);
    expect(Number(href.searchParams.get('end_time'))).toBeGreaterThan(ran);
    await page.getByRole('link', { name: 'Plot in the explorer' }).click();
    await page
      .getByTestId('plot-status')
      .getByText(/^1 series, \d+ points/)
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('shows an alert with a plot around it, how far past the limit, its commit, and the report before', async () => {
    const alert = await lastMainAlert();
    await page.goto(`${stack.console}/console/projects/engine/alerts/${alert.uuid}`);
    await page.locator('[data-testid=perf-plot][data-ready]').waitFor();
    await page
      .locator('.facts strong')
      .getByText(/^\+\d+(\.\d)? %$/)
      .waitFor();
    expect(await page.locator('.facts dd.mono').textContent()).toMatch(/^#\d+ [0-9a-f]{40}$/);
    await page.getByRole('link', { name: 'the report before' }).waitFor();
    await shot(page, 'alert');
    await page.getByRole('link', { name: 'the report before' }).click();
    const before = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      day(28),
    );
    await page.getByRole('heading', { name: `Report of ${before}` }).waitFor();
  });

  it('lists thresholds with their open alerts and sample sizes in words, and plots one with its limits', async () => {
    await page.goto(`${stack.console}/console/projects/engine/thresholds`);
    const row = (branch: string) =>
      page.locator('tbody tr').filter({ has: page.getByRole('link', { name: branch, exact: true }) });
    await row('main').getByText('at most 64').waitFor();
    // open alerts come from a request of their own, after the thresholds
    await expect.poll(() => row('main').locator('td').nth(5).textContent()).toBe('2');
    await row('feature').getByText('no sample size limits').waitFor();
    await expect.poll(() => row('feature').locator('td').nth(5).textContent()).toBe('1');
    await row('feature').getByRole('link', { name: 'feature' }).click();
    await page.getByRole('heading', { name: 'Threshold: feature · linux · Latency' }).waitFor();
    const plot = page.locator('[data-testid=perf-plot][data-ready]');
    await plot.waitFor();
    expect(await plot.getAttribute('aria-label')).toMatch(/^Latency on feature · linux with its limits/);
    await shot(page, 'threshold');
  });
});

describe('embedding and the dashboard (Chromium)', () => {
  it('copies Markdown and HTML that show a rolling image and link back to the perf page', async () => {
    await page.goto(await perfUrl({ branches: ['main'], benchmarks: BENCHMARKS }, '&range=90d'));
    await page.getByTestId('plot-status').getByText('3 series, 90 points').waitFor();
    const clipboard = async (button: string) => {
      await page.getByRole('button', { name: button }).click();
      return (await page.evaluate('navigator.clipboard.readText()')) as string;
    };
    const markdown = /^\[!\[([^\]]+)\]\((\S+)\)\]\((\S+)\)$/.exec(await clipboard('Copy Markdown'));
    expect(markdown).not.toBeNull();
    const [, alt, src, href] = markdown!;
    expect(alt).toBe('engine');
    const image = new URL(src!);
    expect(image.origin + image.pathname).toBe(`${stack.api}/v0/projects/engine/perf/img`);
    // the last 90 days stay relative: the image rolls forward
    expect(image.searchParams.get('window')).toBe(String(90 * 86_400));
    expect(image.searchParams.has('start_time')).toBe(false);
    const png = await fetch(image);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    await png.arrayBuffer();
    const page90 = new URL(href!);
    expect(page90.origin + page90.pathname).toBe(`${stack.console}/perf/engine`);
    expect(page90.searchParams.get('range')).toBe('90d');

    const html = await clipboard('Copy HTML');
    expect(html).toBe(
      `<a href="${href!.replace(/&/g, '&amp;')}"><img src="${src!.replace(/&/g, '&amp;')}" alt="engine" width="600"></a>`,
    );
    const visitor = await browser.context.newPage();
    await visitor.goto(href!);
    await visitor.getByTestId('plot-status').getByText('3 series, 90 points').waitFor();
    await visitor.close();
  });

  it('titles an untitled pin by what it shows, and keys each pinned plot', async () => {
    await page.getByRole('button', { name: 'Pin to dashboard' }).click();
    const form = page.getByRole('form', { name: 'Pin to the dashboard' });
    expect(await form.getByLabel('Title').getAttribute('placeholder')).toBe(
      'decode, encode, parse · Latency on main',
    );
    await form.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByRole('link', { name: 'Open the dashboard' }).click();
    await page.getByRole('heading', { name: 'decode, encode, parse · Latency on main' }).waitFor();
    const key = page.getByRole('list', { name: 'Key' });
    await expect
      .poll(() => key.getByRole('listitem').allTextContents())
      .toEqual([' decode', ' encode', ' parse']);
  });
});

describe('errors written for people (Chromium)', () => {
  it('says what is wrong in sentences, writes not-found for people, and keeps the last plot with a Retry when the API is down', async () => {
    const visitor = await browser.context.newPage();
    try {
      await visitor.goto(`${stack.console}/auth/signup`);
      await visitor.getByLabel('Name').fill('Grace Hopper');
      await visitor.getByLabel('E-mail').fill('grace@example.com');
      await visitor.getByRole('button', { name: 'Sign up' }).click();
      const error = visitor.getByRole('alert');
      await error.getByText('Accept the terms to sign up.', { exact: true }).waitFor();
    } finally {
      await visitor.close();
    }

    await page.goto(`${stack.console}/console/projects/engine/alerts/00000000-0000-4000-8000-000000000000`);
    await page
      .getByRole('alert')
      .getByText(/There is no alert “00000000-0000-4000-8000-000000000000” here: it may have been deleted/)
      .waitFor();

    await page.goto(await perfUrl({ branches: ['main'], benchmarks: BENCHMARKS }));
    const status = page.getByTestId('plot-status');
    await status.getByText('3 series, 90 points').waitFor();
    await page.route('**/v0/projects/engine/perf?**', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Range').selectOption('7d');
    await page
      .getByRole('alert')
      .getByText(/Cannot reach the API at .*: is it running\?/)
      .waitFor();
    // the last plot stays, dimmed
    await page.locator('.stale [data-testid=perf-plot]').waitFor();
    await page.unroute('**/v0/projects/engine/perf?**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await status.getByText(/^3 series, \d+ points/).waitFor();
    await page.locator('.stale').waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

/** The share of an element's pixels brighter than half (0 to 1), from a screenshot. */
async function brightShare(element: Locator): Promise<number> {
  const { data, info } = await sharp(await element.screenshot())
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let bright = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 128) bright++;
  return bright / (data.length / info.channels);
}

/** The relative luminance (0 to 1) of a CSS rgb() color. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
}

describe('dark mode (Chromium)', () => {
  it('follows the system setting: dark pages, cards and plots with light text, and back', async () => {
    const dark = await browser.context.newPage();
    try {
      await dark.emulateMedia({ colorScheme: 'dark' });
      await dark.goto(`${stack.console}/console/projects/engine/alerts`);
      await dark.getByText('3 alerts on 2 series').waitFor();
      const style = (selector: string, property: string) =>
        dark.evaluate(
          `getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`,
        ) as Promise<string>;
      expect(
        luminance(
          await style('body', 'backgroundColor').then((c) =>
            c === 'rgba(0, 0, 0, 0)' ? style('html', 'backgroundColor') : c,
          ),
        ),
      ).toBeLessThan(0.15);
      expect(luminance(await style('main', 'color'))).toBeGreaterThan(0.7);
      expect(luminance(await style('.table-wrap', 'backgroundColor'))).toBeLessThan(0.15);
      expect(luminance(await style('tr.row-alert', 'backgroundColor'))).toBeLessThan(0.25);

      await dark.goto(await perfUrl({ branches: ['main'], benchmarks: BENCHMARKS }));
      const plot = dark.locator('[data-testid=perf-plot][data-ready]');
      await plot.waitFor();
      await shot(dark, 'dark-perf');
      // tick labels and grid drawn light on the dark card: some bright pixels, on a mostly dark plot
      const darkShare = await brightShare(plot);
      expect(darkShare).toBeGreaterThan(0.002);
      expect(darkShare).toBeLessThan(0.2);
      await dark.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => brightShare(plot)).toBeGreaterThan(0.8);
    } finally {
      await dark.close();
    }
  });
});

describe('every page fits a 390 px phone screen (Chromium)', () => {
  it('has no page wider than the screen, and the Dismiss buttons on it', async () => {
    const phone = await browser.context.newPage();
    const settled = trackRequests(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    try {
      const [alert] =
        await apiGet<{ uuid: string; report: string; threshold: { uuid: string } }[]>(
          '/projects/engine/alerts',
        );
      const base = `${stack.console}/console/projects/engine`;
      const pages = [
        `${base}/alerts`,
        `${base}/reports`,
        `${base}/reports/${alert!.report}`,
        `${base}/alerts/${alert!.uuid}`,
        `${base}/thresholds`,
        `${base}/thresholds/${alert!.threshold.uuid}`,
        `${base}/branches`,
        `${base}/branches/main`,
        `${base}/benchmarks/${BENCHMARKS[0]!.replaceAll('_', '-')}`,
        `${base}/plots`,
        `${base}/settings`,
        await perfUrl({ branches: ['main'], benchmarks: BENCHMARKS }),
        `${stack.console}/console/projects`,
        `${stack.console}/console/organizations`,
        `${stack.console}/console/users/${leader.user.slug}/tokens`,
        `${stack.console}/console/users/${leader.user.slug}/settings`,
      ];
      for (const url of pages) {
        await phone.goto(url);
        await phone.locator('main h1, main h2').first().waitFor();
        await settled();
        await shot(phone, `phone-${new URL(url).pathname.split('/').slice(-2).join('-')}`);
        // The widest element that sticks out, named in the failure.
        const wide = await phone.evaluate(`[...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
          .filter((e) => getComputedStyle(e).position === 'absolute' || !e.parentElement.closest('.table-wrap, .tabs'))
          .map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))
          .slice(0, 5).join(' ')`);
        const width = await phone.evaluate('document.documentElement.scrollWidth');
        expect(width, `${url}: ${wide}`).toBeLessThanOrEqual(390);
      }
      await phone.goto(`${base}/alerts`);
      const dismiss = phone.getByRole('button', { name: /^Dismiss the alert/ }).first();
      const box = (await dismiss.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});

describe('explorer defaults and keyboard (Chromium)', () => {
  it('opens on open alerts first, skips to the plot, steps from the newest point, and outlines no page', async () => {
    const uuid = async (kind: string, name: string) =>
      (await apiGet<{ uuid: string; name: string }[]>(`/projects/engine/${kind}?per_page=255`)).find(
        (d) => d.name === name,
      )!.uuid;
    await page.goto(`${stack.console}/console/projects/engine/perf`);
    await page.waitForURL(/benchmarks=/);
    // main ran last; encode has its open alerts, so it comes first
    let query = new URL(page.url()).searchParams;
    expect(query.get('branches')).toBe(await uuid('branches', 'main'));
    expect(query.get('benchmarks')!.split(',')[0]).toBe(await uuid('benchmarks', 'encode'));
    await page.getByTestId('plot-status').getByText('3 series, 90 points').waitFor();

    await page.getByRole('link', { name: 'Skip to the plot' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe('perf-plot');
    await page.keyboard.press('ArrowRight');
    const newest = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      day(29),
    );
    await page.getByTestId('plot-tooltip').getByText(newest).waitFor();

    // Focus moves to main after a page change, without a full-page outline.
    await page.getByRole('link', { name: 'Alerts', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/alerts$/);
    // the console moves focus once the new page has rendered, which can come after the URL changed
    await expect.poll(() => page.evaluate('document.activeElement.id'), { timeout: 10_000 }).toBe('main');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('none');

    // A run on another branch and testbed now: the explorer opens there.
    await submitRun(stack.api, leader.token, {
      project: 'engine',
      branch: 'release',
      testbed: 'arm',
      start: new Date(),
      results: { parse: { latency: { value: 3000 } } },
    });
    await page.goto(`${stack.console}/console/projects/engine/perf`);
    await page.waitForURL(/benchmarks=/);
    query = new URL(page.url()).searchParams;
    expect(query.get('branches')).toBe(await uuid('branches', 'release'));
    expect(query.get('testbeds')).toBe(await uuid('testbeds', 'arm'));
    await page.getByTestId('plot-status').getByText('1 series, 1 point').waitFor();
  });
});
