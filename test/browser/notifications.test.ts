import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { launchBrowser, logInPage, shot, startStack, watchErrors, type Stack } from '../helpers/console.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let stack: Stack;
let browser: { context: BrowserContext; close: () => Promise<void> };
let receiver: Receiver;
let ada: Session;
const SECRET = 'console-secret-123';

beforeAll(async () => {
  [stack, browser, receiver] = await Promise.all([
    startStack({ notifications: { allow_private_targets: true } }),
    launchBrowser(),
    startReceiver(),
  ]);
  ada = await signUp(stack.t, 'Ada Lovelace', 'ada@example.com');
  await createProject(stack.t, ada, 'ada-lovelace', { name: 'Bench' });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await receiver?.close();
});

const choices = async () =>
  (
    await stack.t.app.inject({
      method: 'GET',
      url: `/v0/users/${ada.user.slug}/notifications`,
      headers: bearer(ada.token),
    })
  ).json() as { project: { slug: string }; email: string }[];

describe('console notifications (Chromium)', () => {
  it("adds a webhook on the project's settings, sends a test delivery and shows it, and deletes the webhook", async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await logInPage(page, stack, ada);
    await page.goto(`${stack.console}/console/projects/bench/settings`);
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL').fill(receiver.url('/console'));
    await form.getByLabel('Secret').fill(SECRET);
    await form.getByRole('checkbox', { name: /report\.created/ }).check();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /\/console/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      receiver.url('/console'),
      'json',
      'regression.created, regression.updated, regression.closed, report.created',
      'yes',
      'none',
      expect.stringContaining('Test'),
    ]);
    expect(await page.content()).not.toContain(SECRET);

    await row.getByRole('button', { name: /Send a test delivery/ }).click();
    const deliveries = page.getByRole('table', { name: `Deliveries of ${receiver.url('/console')}` });
    const delivery = deliveries.getByRole('row').nth(1);
    await expect
      .poll(async () => (await delivery.getByRole('cell').allTextContents()).slice(1, 4), { timeout: 15_000 })
      .toEqual(['ping', 'delivered · 200', '1']);
    expect(await delivery.getByRole('cell').nth(4).textContent()).toMatch(/^HTTP 200 in \d+ ms$/);
    // the webhook's row follows its last delivery too
    await expect
      .poll(async () => (await row.getByRole('cell').nth(4).textContent())?.trim(), { timeout: 15_000 })
      .toBe('delivered · 200 ping');
    expect(receiver.received.filter((r) => r.url === '/console')).toHaveLength(1);
    await shot(page, 'webhooks');

    // a redelivery sends the same delivery again
    await delivery.getByRole('button', { name: /^Redeliver/ }).click();
    await expect
      .poll(() => receiver.received.filter((r) => r.url === '/console').length, { timeout: 15_000 })
      .toBe(2);
    await expect
      .poll(async () => (await delivery.getByRole('cell').allTextContents()).slice(2, 4), { timeout: 15_000 })
      .toEqual(['delivered · 200', '2']);

    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: /Delete the webhook/ }).click();
    await page.getByText('No webhooks yet.').waitFor();
    expect(errors).toEqual([]);
  });

  it("sets the e-mail choice of a project on the account page, and the e-mail's link turns it off", async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await logInPage(page, stack, ada);
    await page.goto(`${stack.console}/console/users/${ada.user.slug}/settings`);
    const select = page.getByLabel('E-mail about Bench');
    await expect.poll(() => select.inputValue(), { timeout: 15_000 }).toBe('off');
    await select.selectOption('daily');
    await expect
      .poll(choices, { timeout: 15_000 })
      .toMatchObject([{ project: { slug: 'bench' }, email: 'daily' }]);
    await shot(page, 'email-choices');

    const project = (await stack.t.app.inject({ method: 'GET', url: '/v0/projects/bench' })).json();
    const { token } = await new Tokens({ current: stack.t.config }).issue('unsubscribe', ada.user.uuid, {
      project: project.uuid,
    });
    // the link works without logging in (the unsubscribe call carries no session)
    const anonymous = await browser.context.newPage();
    await anonymous.goto(`${stack.console}/notifications/unsubscribe?token=${token}`);
    // opening the link changes nothing: a scanner that follows it must not unsubscribe anyone
    await anonymous.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await shot(anonymous, 'unsubscribe');
    expect(await choices()).toHaveLength(1);
    await anonymous.getByRole('button', { name: 'Unsubscribe' }).click();
    await anonymous.getByText('You get no more e-mail about Bench.').waitFor();
    expect(await choices()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
