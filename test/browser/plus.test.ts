import { generateKeyPairSync } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLicense } from '../../core/index.js';
import { bearer, signUp } from '../helpers/accounts.js';
import { launchBrowser, logInPage, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { OAuthProvider } from '../helpers/oauth-provider.js';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const provider = new OAuthProvider('benchtrack-client', 'oauth-client-secret-0123');
let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };

// GitHub login is configured, but offered only once an organization holds an enterprise license
beforeAll(async () => {
  await provider.start();
  stack = await startStack({
    plus: {
      codehost: provider.codehost(),
      license_keys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await provider.stop();
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

  it('offers no GitHub login while the server does not (no organization holds an enterprise license)', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.console}/auth/login`);
    await page.getByRole('button', { name: 'Send me a login link' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Log in with GitHub' }).count()).toBe(0);
  });

  it('logs in with GitHub through the provider once the server offers it, and lands logged in', async () => {
    const admin = await signUp(stack.t, 'Root Admin', 'root@example.com');
    const created = await stack.t.app.inject({
      method: 'POST',
      url: '/v0/organizations',
      headers: bearer(admin.token),
      payload: { name: 'Enterprise', slug: 'enterprise' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const license = await issueLicense(
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      { organization: created.json().uuid, level: 'enterprise', entitlement: 1000, period: 'annual' },
      new Date(),
    );
    const patched = await stack.t.app.inject({
      method: 'PATCH',
      url: '/v0/organizations/enterprise',
      headers: bearer(admin.token),
      payload: { license },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    provider.account = {
      login: 'octo',
      name: 'Octo Cat',
      emails: [{ email: 'octo@example.com', primary: true, verified: true }],
    };

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${stack.console}/auth/login`);
    // the provider logs "octo" in at once and sends the browser back to the console with a code
    await page.getByRole('link', { name: 'Log in with GitHub' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/auth/'), { timeout: 15_000 });
    const session = JSON.parse((await page.evaluate("localStorage.getItem('benchtrack.session')")) as string);
    expect(session.user).toMatchObject({ email: 'octo@example.com', name: 'Octo Cat' });
    expect(provider.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/login/oauth/authorize', '/login/oauth/access_token', '/api/v3/user/emails']),
    );
    expect(errors).toEqual([]);
  });
});
