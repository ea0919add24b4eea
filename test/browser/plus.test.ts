import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.js';
import { launchBrowser, logInPage, startStack, watchErrors, type Stack } from '../helpers/console.js';

let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('console plus pages (Chromium)', () => {
  it("shows an administrator the server's statistics with a plot of the daily volume", async () => {
    const admin = await signUp(stack.t, 'Ada Admin', 'ada@example.com');
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await logInPage(page, stack, admin);
    await page.goto(`${stack.console}/console/projects`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Server' }).click();
    await page.getByRole('heading', { name: 'Server statistics' }).waitFor();
    const users = page.getByRole('row', { name: /^users/ });
    // the statistics arrive after the page's heading
    await expect.poll(async () => (await users.getByRole('cell').allTextContents()).at(-1)).toBe('1');
    expect(await page.getByRole('img', { name: /Metrics per day over the last 30 days/ }).count()).toBe(1);
    expect(await page.locator('main').textContent()).toContain('nothing is sent anywhere');
    expect(errors).toEqual([]);
  });

  it('offers no GitHub login when the server does not', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.console}/auth/login`);
    await page.getByRole('button', { name: 'Send me a login link' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Log in with GitHub' }).count()).toBe(0);
  });
});
