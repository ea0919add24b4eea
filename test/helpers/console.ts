import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { hostOptions } from '../../console/host/options.js';
import { createConsoleHost } from '../../console/host/serve.js';
import type { ConfigDocument } from '../../core/index.js';
import { createTestApp, type TestApp } from './app.js';
import type { Session } from './accounts.js';
import { CONSOLE_BUILD } from './build-dist.js';
import { freePort } from './free-port.js';

/**
 * Debian's Chromium headless shell (`chromium-headless-shell`): the same Blink and V8 as `chromium` without the
 * browser's user interface layer, and what Playwright itself drives for headless runs. The full browser in headless
 * mode took 78 s of CPU for the five browser files, the shell 32 s (the files' wall time 66 -> 43 s, run back to back).
 */
export const CHROMIUM = '/usr/bin/chromium-headless-shell';

export interface Stack {
  readonly t: TestApp;
  /** http://127.0.0.1:port of the API and of the console. */
  readonly api: string;
  readonly console: string;
  close(): Promise<void>;
}

/**
 * The real API (temporary database, mail in the log, `document` added to its configuration) and the real
 * console host in front of the built app, with console.url pointing at the host so e-mailed links open the console.
 */
export async function startStack(document: Omit<ConfigDocument, 'console'> = {}): Promise<Stack> {
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...document, console: { url: consoleUrl } });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const host: Server = createConsoleHost(
    hostOptions(['--url', consoleUrl, '--api-url', api, '--host', '127.0.0.1'], {}, CONSOLE_BUILD),
  );
  host.listen(port, '127.0.0.1');
  await once(host, 'listening');
  return {
    t,
    api,
    console: consoleUrl,
    async close() {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
      await t.close();
    },
  };
}

/** Debian's Chromium headless shell through playwright-core, in a fresh profile; never a downloaded browser. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `browser tests need Debian's Chromium headless shell at ${CHROMIUM}: apt-get install -y chromium-headless-shell`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'benchtrack-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.setDefaultTimeout(10_000);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Logs a page in as the console does after confirming a link: the session in localStorage. */
export async function logInPage(
  page: Page,
  stack: Stack,
  session: Session & { expiration?: string },
): Promise<void> {
  await page.goto(`${stack.console}/auth/login`);
  const value = JSON.stringify({
    token: session.token,
    user: session.user,
    expiration: session.expiration ?? new Date(Date.now() + 86_400_000).toISOString(),
  });
  // A string, not a function: test/ is compiled without the DOM's types.
  await page.evaluate(`localStorage.setItem('benchtrack.session', ${JSON.stringify(value)})`);
}

/** Fails the test on any uncaught error in the page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Tracks a page's requests; the function returned waits until none has been in flight for `quietMs`. That is
 * Playwright's `networkidle` with a shorter quiet time than its fixed 500 ms, for loops over many pages: a page's
 * fetches start as it renders, and the ones they lead to start when they answer.
 */
export function trackRequests(page: Page, quietMs = 100): () => Promise<void> {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (by: number) => {
    inFlight += by;
    lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  return async () => {
    for (const deadline = Date.now() + 10_000; inFlight > 0 || Date.now() - lastChange < quietMs;) {
      if (Date.now() > deadline) throw new Error(`${inFlight} requests still in flight after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

/** Saves a screenshot of a failing step for the developer (BENCHTRACK_SHOTS=dir). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.BENCHTRACK_SHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
