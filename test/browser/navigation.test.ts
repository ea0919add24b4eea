import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, shot, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { REPO_ROOT } from '../helpers/process.js';
import { seedHistory, submitRun } from '../helpers/runs.js';

// The console's ways in and across: the first-run guide and a new token's run line (run as pasted), and the pages of
// branches, testbeds and benchmarks that their names link to wherever they appear.
let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let ada: Session;
let page: Page;
let errors: string[];
const LONG = 'parser::json/deserialize_large_document';
const BENCHMARKS = [LONG, 'tokenize'];

async function api<T>(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<T> {
  const response = await stack.t.app.inject({
    method,
    url: `/v0${path}`,
    headers: bearer(ada.token),
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
  });
  expect(response.statusCode, response.body).toBe(method === 'POST' ? 201 : 200);
  return response.json() as T;
}

/** The words (letters and digits) of an element's text that a line break cuts in two. */
function brokenWords(selector: string, on: Page = page): Promise<string[]> {
  // A string, not a function: test/ is compiled without the DOM's types.
  return on.evaluate(`(() => {
    const broken = [];
    for (const element of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/[A-Za-z0-9]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  })()`);
}

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.console });
  ada = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  page = await browser.context.newPage();
  errors = watchErrors(page);
  await logInPage(page, stack, ada);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('first run (Chromium)', () => {
  it('guides a new organization to its first run, and a new token comes with a run line that works as pasted', async () => {
    await page.goto(`${stack.console}/console/projects`);
    const guide = page.getByRole('region', { name: 'Get started' });
    await guide.waitFor();
    const placeholder = (await guide.getByTestId('first-run-command').textContent())!;
    expect(placeholder).toContain(`--host ${stack.api} --token YOUR_TOKEN --project my-project`);
    expect(await guide.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(
      '/console/organizations/ada-lovelace',
    );

    await guide.getByRole('link', { name: 'Create an API token' }).click();
    await page.getByLabel('Name').fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('token-secret').textContent())!.trim();
    const line = (await page.getByTestId('run-command').textContent())!.trim();
    expect(line).toBe(
      `benchtrack run --host ${stack.api} --token ${secret} --project my-project --adapter json "benchtrack mock"`,
    );
    await page.getByRole('button', { name: 'Copy the command' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(line);

    // The line as a shell runs it, with `benchtrack` the built client: it submits a report to a new project.
    const bin = mkdtempSync(join(tmpdir(), 'benchtrack-bin-'));
    try {
      writeFileSync(
        join(bin, 'benchtrack'),
        `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, 'dist', 'cli-bundle', 'main.js')}" "$@"\n`,
      );
      chmodSync(join(bin, 'benchtrack'), 0o755);
      const run = await promisify(execFile)('/bin/sh', ['-c', line], {
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: bin },
      });
      expect(run.stdout).toContain('benchtrack::mock_0');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
    const reports = await api<unknown[]>('GET', '/projects/my-project/reports');
    expect(reports).toHaveLength(1);

    // With a project, the guide is gone.
    await page.goto(`${stack.console}/console/projects`);
    await page.getByRole('link', { name: 'my-project' }).first().waitFor();
    expect(await page.getByRole('region', { name: 'Get started' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('branch, testbed and benchmark pages, and the explorer on a phone (Chromium)', () => {
  let report: string;
  beforeAll(async () => {
    await createProject(stack.t, ada, 'ada-lovelace', { name: 'Nav', visibility: 'public' });
    await seedHistory(stack.api, ada.token, 'nav', { benchmarks: BENCHMARKS, jump: LONG });
    await api('POST', '/projects/nav/branches', { name: 'feature', start_point: { branch: 'main' } });
    report = (
      await submitRun(stack.api, ada.token, {
        project: 'nav',
        branch: 'feature',
        testbed: 'arm',
        start: new Date(Date.now() - 3_600_000),
        results: { [LONG]: { latency: { value: 1500 } } },
      })
    ).uuid;
  });

  it('links the names of the report table and breaks benchmark names between words only', async () => {
    await page.setViewportSize({ width: 720, height: 900 });
    try {
      const [main] = await api<{ uuid: string }[]>('GET', '/projects/nav/reports?branch=main&per_page=1');
      await page.goto(`${stack.console}/console/projects/nav/reports/${main!.uuid}`);
      const table = page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader', { name: 'Upper limit' }) });
      const link = table.getByRole('link', { name: LONG });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(
        `/console/projects/nav/benchmarks/${encodeURIComponent('parser-json-deserialize-large-document')}`,
      );
      expect(await brokenWords('table.results a.name')).toEqual([]);
      expect(await page.getByRole('link', { name: 'main', exact: true }).getAttribute('href')).toBe(
        '/console/projects/nav/branches/main',
      );
      expect(await page.getByRole('link', { name: 'linux', exact: true }).getAttribute('href')).toBe(
        '/console/projects/nav/testbeds/linux',
      );
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    expect(errors).toEqual([]);
  });

  it("shows a branch's start point, last report and plot", async () => {
    await page.goto(`${stack.console}/console/projects/nav/reports`);
    await page.getByRole('link', { name: 'feature', exact: true }).first().click();
    await page.waitForURL(`${stack.console}/console/projects/nav/branches/feature`);
    await page.getByRole('heading', { name: 'Branch: feature' }).waitFor();
    const start = page.getByTestId('start-point');
    expect(await start.getByRole('link', { name: 'main' }).getAttribute('href')).toBe(
      '/console/projects/nav/branches/main',
    );
    expect(await start.textContent()).toMatch(/^main at #12 [0-9a-f]{7}$/);
    expect(await page.getByTestId('last-report').getAttribute('href')).toBe(
      `/console/projects/nav/reports/${report}`,
    );
    await page.locator('[data-testid=perf-plot][data-ready]').first().waitFor();
    expect(await page.title()).toBe('Branch: feature · Nav · Benchtrack');

    // the testbed's page, from the report's facts
    await page.getByTestId('last-report').click();
    await page.getByRole('link', { name: 'arm', exact: true }).click();
    await page.getByRole('heading', { name: 'Testbed: arm' }).waitFor();
    expect(await page.getByTestId('last-report').getAttribute('href')).toBe(
      `/console/projects/nav/reports/${report}`,
    );
    await page.locator('[data-testid=perf-plot][data-ready]').first().waitFor();
    expect(errors).toEqual([]);
  });

  it("shows a benchmark's last report over every branch and testbed, and its plot", async () => {
    await page.goto(`${stack.console}/console/projects/nav/benchmarks`);
    await page.getByRole('link', { name: LONG }).click();
    await page.getByRole('heading', { name: `Benchmark: ${LONG}` }).waitFor();
    const plot = page.locator('[data-testid=perf-plot][data-ready]');
    await plot.first().waitFor();
    // main on linux and feature on arm (main's history shows on feature too, through its start point)
    await expect
      .poll(() => page.getByTestId('last-report').getAttribute('href'))
      .toBe(`/console/projects/nav/reports/${report}`);
    expect(await page.getByRole('link', { name: 'Plot in the explorer' }).getAttribute('href')).toMatch(
      /\/perf\?branches=[0-9a-f-]{36},[0-9a-f-]{36}&testbeds=/,
    );
    // and the other benchmark has none on the feature branch: its last report is main's
    await page.goto(`${stack.console}/console/projects/nav/benchmarks/tokenize`);
    await page.getByRole('heading', { name: 'Benchmark: tokenize' }).waitFor();
    await plot.first().waitFor();
    await expect
      .poll(() => page.getByTestId('last-report').getAttribute('href'))
      .not.toBe(`/console/projects/nav/reports/${report}`);
    expect(errors).toEqual([]);
  });

  it('puts the plot within the first screen, the picker folded into a button that opens it', async () => {
    const phone = await browser.context.newPage();
    const phoneErrors = watchErrors(phone);
    await phone.setViewportSize({ width: 390, height: 844 });
    try {
      await phone.goto(`${stack.console}/console/projects/nav/perf`);
      // the default selection arrives, then the plot
      const plot = phone.locator('[data-testid=perf-plot][data-ready]');
      await plot.waitFor();
      await shot(phone, 'explorer-phone');
      const box = (await plot.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      const toggle = phone.getByRole('button', { name: /^Choose what to plot/ });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.textContent()).toMatch(/1 branch, 1 testbed, 2 benchmarks, 1 measure/);
      const search = phone.getByRole('searchbox', { name: 'Search benchmarks' });
      expect(await search.isVisible()).toBe(false);

      // the key under the plot keeps the benchmark's words whole too
      await phone.locator('.legend-table .name').first().waitFor();
      expect(await brokenWords('.legend-table .name', phone)).toEqual([]);

      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await search.waitFor();
      await toggle.click();
      await search.waitFor({ state: 'hidden' });
    } finally {
      await phone.close();
    }
    expect(phoneErrors).toEqual([]);
  });
});

describe('a threshold of many benchmarks (Chromium)', () => {
  const WIDE = Array.from({ length: 12 }, (_, i) => `b${String(i + 1).padStart(2, '0')}`);
  beforeAll(async () => {
    await createProject(stack.t, ada, 'ada-lovelace', { name: 'Wide', visibility: 'public' });
    await seedHistory(stack.api, ada.token, 'wide', { benchmarks: WIDE, jump: 'b11' });
  });

  it('plots the benchmarks with the most alerts first, a few lines at a time, and shows the alert rate', async () => {
    const [threshold] = await api<{ uuid: string }[]>('GET', '/projects/wide/thresholds');
    await page.goto(`${stack.console}/console/projects/wide/thresholds/${threshold!.uuid}`);
    expect((await page.getByTestId('alert-rate').textContent())!.trim()).toBe(
      '0.08 alerts per report over the 90 days: 1 alert in 13 reports',
    );
    await page.locator('[data-testid=perf-plot][data-ready]').waitFor();
    const key = page.getByRole('list', { name: 'Key' }).getByRole('listitem');
    expect(await key.count()).toBe(8);
    expect((await key.first().textContent())!.trim()).toBe('b11 1 alert');
    expect((await key.nth(1).textContent())!.trim()).toBe('b01');
    await page.getByText('The 8 of 12 benchmarks with the most alerts in the window.').waitFor();

    await page.getByRole('button', { name: 'Plot all 12' }).click();
    await expect.poll(() => key.count()).toBe(12);
    const explorer = await page
      .getByRole('link', { name: 'Open them all in the explorer' })
      .getAttribute('href');
    expect(new URLSearchParams(explorer!.split('?')[1]).get('benchmarks')!.split(',')).toHaveLength(12);
    expect(errors).toEqual([]);
  });
});

describe('project cards (Chromium)', () => {
  it('show the last run, what needs triage and runs per day, from the one list request', async () => {
    const lists: string[] = [];
    const watch = (r: { url: () => string }) => {
      const url = new URL(r.url());
      if (url.origin === stack.api && /^\/v0\/(projects|organizations)/.test(url.pathname))
        lists.push(url.pathname);
    };
    page.on('request', watch);
    try {
      await page.goto(`${stack.console}/console/projects`);
      const card = page
        .getByTestId('project-card')
        .filter({ has: page.getByRole('link', { name: 'Nav', exact: true }) });
      await card.getByText(/^Last run /).waitFor();
      await shot(page, 'project-cards');
      const alerts = await api<{ active: number }>('GET', '/projects/nav/alerts/counts');
      const reports = await api<unknown[]>('GET', '/projects/nav/reports?per_page=255');
      expect(alerts.active).toBeGreaterThan(0);
      const badge = card.getByRole('link', {
        name: `${alerts.active} active alert${alerts.active > 1 ? 's' : ''}`,
      });
      expect(await badge.getAttribute('href')).toBe('/console/projects/nav/alerts');
      expect(await card.getByTestId('sparkline').getAttribute('aria-label')).toBe(
        `${reports.length} reports over the last 30 days`,
      );
      expect(await card.locator('[data-testid=sparkline] rect.day').count()).toBeGreaterThan(10);
      // one list answers every card: no request per card
      expect(lists.filter((p) => p.startsWith('/v0/projects'))).toEqual(['/v0/projects']);
    } finally {
      page.off('request', watch);
    }
    expect(errors).toEqual([]);
  });
});
