import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { lastLinkTo, mailsTo, signUp } from '../helpers/accounts.js';
import { launchBrowser, logInPage, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { eventually } from '../helpers/eventually.js';

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

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  // One profile serves every test: each starts alone (other tabs would share its session) and logged out.
  for (const open of browser.context.pages()) await open.close();
  const page = await browser.context.newPage();
  await page.goto(`${stack.console}/auth/login`);
  await page.evaluate('localStorage.clear(); sessionStorage.clear()');
  return { page, errors: watchErrors(page) };
}

describe('console accounts (Chromium)', () => {
  it('signs up through the logged confirmation link, resends it, logs out and logs in again', async () => {
    const { page, errors } = await newPage();
    await page.goto(`${stack.console}/auth/signup`);
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByLabel(/I agree/).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('grace@example.com');

    await page.getByRole('button', { name: 'Resend the link' }).click();
    await page.getByText('A new link is on its way to grace@example.com').waitFor();
    await eventually(() => expect(mailsTo(stack.t, 'grace@example.com')).toHaveLength(2));

    const link = await eventually(() => lastLinkTo(stack.t, 'grace@example.com'));
    expect(link.origin).toBe(stack.console);
    expect(link.pathname).toBe('/auth/confirm');
    await page.goto(link.href);
    await page.waitForURL(`${stack.console}/console/projects`);
    await page.getByRole('navigation', { name: 'Main' }).getByText('Grace Hopper').waitFor();

    await page.getByRole('link', { name: 'Log out' }).click();
    await page.getByText('You are logged out.').waitFor();
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByRole('button', { name: 'Send me a login link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const login = await eventually(() => {
      const mails = mailsTo(stack.t, 'grace@example.com');
      expect(mails).toHaveLength(3);
      return new URL(mails.at(-1)!.link!);
    });
    await page.goto(login.href);
    await page.waitForURL(`${stack.console}/console/projects`);
    expect(errors).toEqual([]);
  });

  it('shows the API message when a confirmation token is refused', async () => {
    const { page } = await newPage();
    await page.goto(`${stack.console}/auth/confirm?token=not-a-token`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text.length).toBeGreaterThan(5);
    expect(text).not.toMatch(/something went wrong/i);
    const api = await fetch(`${stack.api}/v0/auth/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'not-a-token' }),
    });
    expect(text).toBe(((await api.json()) as { message: string }).message);
  });

  it('logs the user out by itself when the session expires', async () => {
    const session = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, { ...session, expiration: new Date(Date.now() + 2_500).toISOString() });
    await page.goto(`${stack.console}/console/organizations`);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByText('Your session expired; log in again.').waitFor({ timeout: 8_000 });
    await page.waitForURL(/\/auth\/login\?next=/);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
  });

  it('logs out every tab when one logs out', async () => {
    const session = await signUp(stack.t, 'Hedy Lamarr', 'hedy@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, session);
    await page.goto(`${stack.console}/console/organizations`);
    const other = await browser.context.newPage();
    await other.goto(`${stack.console}/console/projects`);
    await other.getByRole('navigation', { name: 'Main' }).getByText('Hedy Lamarr').waitFor();
    await page.getByRole('link', { name: 'Log out' }).click();
    await other.getByText('You are logged out.').waitFor();
    await other.waitForURL(/\/auth\/login/);
  });

  it('logs out when the API refuses the session token', async () => {
    const session = await signUp(stack.t, 'Mary Somerville', 'mary@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, { ...session, token: `${session.token}x` });
    await page.goto(`${stack.console}/console/organizations`);
    await page.getByText('Your session is no longer valid; log in again.').waitFor();
    await page.waitForURL(/\/auth\/login/);
  });

  it('adds an API token whose secret is shown once, lists it and revokes it', async () => {
    const session = await signUp(stack.t, 'Ida Rhodes', 'ida@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, session);
    await page.goto(`${stack.console}/console/users/${session.user.slug}/tokens`);
    await page.getByText('No API tokens yet.').waitFor();
    await page.getByRole('link', { name: 'Add a token' }).click();
    await page.getByLabel('Name').fill('GitHub Actions');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('token-secret').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);
    // The secret works as a bearer token against the API.
    const me = await fetch(`${stack.api}/v0/users/${session.user.slug}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { slug: string }).slug).toBe(session.user.slug);

    await page.getByRole('link', { name: 'Back to the tokens' }).click();
    const row = page.getByRole('row', { name: /GitHub Actions/ });
    await row.getByText('active').waitFor();
    expect(await page.locator('main').textContent()).not.toContain(secret);
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Revoke GitHub Actions' }).click();
    await row.getByText(/revoked/).waitFor();
  });

  it('changes account settings and shows the API message for an invalid slug', async () => {
    const session = await signUp(stack.t, 'Karen Jones', 'karen@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, session);
    await page.goto(`${stack.console}/console/users/${session.user.slug}/settings`);
    await page.getByLabel('Name', { exact: true }).fill('Karen Spärck Jones');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByText('Karen Spärck Jones').waitFor();

    await page.getByLabel('E-mail', { exact: true }).fill('karen@cam.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(
        'Saved. The e-mail address changes to karen@cam.example once you open the link sent there; a notice went to karen@example.com.',
      )
      .waitFor();
    expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe('karen@example.com');
    await page.goto(lastLinkTo(stack.t, 'karen@cam.example').href);
    await page.waitForURL(`${stack.console}/console/projects`);
    await page.goto(`${stack.console}/console/users/${session.user.slug}/settings`);
    await eventually(async () =>
      expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe('karen@cam.example'),
    );

    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').getByText(/slug/).waitFor();
  });

  it('creates an organization, invites a member by e-mail, and the member accepts while logged in', async () => {
    const leader = await signUp(stack.t, 'Frances Allen', 'frances@example.com');
    const member = await signUp(stack.t, 'Jean Sammet', 'jean@example.com');
    const { page } = await newPage();
    await logInPage(page, stack, leader);
    await page.goto(`${stack.console}/console/organizations`);
    await page.getByRole('form', { name: 'New organization' }).getByLabel('Name').fill('Compilers Inc');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/console\/organizations\/compilers-inc$/);
    await page.getByText('No projects in this organization yet.').waitFor();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('form', { name: 'Invite a member' }).getByLabel('E-mail').fill('jean@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to jean@example.com').waitFor();

    const invite = await eventually(() => {
      const link = lastLinkTo(stack.t, 'jean@example.com');
      expect(link.pathname).toBe('/auth/invite');
      return link;
    });
    // The member logs in with another browser profile (the leader's page keeps its session).
    const second = await launchBrowser();
    const memberPage = await second.context.newPage();
    await logInPage(memberPage, stack, member);
    await memberPage.goto(invite.href);
    await memberPage.getByRole('button', { name: 'Accept the invitation' }).click();
    await memberPage.waitForURL(/\/console\/organizations\/compilers-inc$/);
    await memberPage.getByRole('heading', { name: 'Compilers Inc' }).waitFor();

    await second.close();
    await page.reload();
    await page.getByRole('row', { name: /Jean Sammet/ }).waitFor();
  });
});
