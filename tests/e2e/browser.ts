import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * End-to-end tests drive Debian's Chromium (a browser download fails on these machines) against a
 * real server serving the built SPA (`npm test` builds it first) on a fresh embedded database.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// ATRIUM_E2E_WEB_DIST lets several people build and test the SPA side by side on one checkout.
export const WEB_DIST = process.env.ATRIUM_E2E_WEB_DIST
  ? path.resolve(process.env.ATRIUM_E2E_WEB_DIST)
  : path.resolve(import.meta.dirname, '../../dist/web');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}; install it with apt-get install -y chromium.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function startAppServer(): Promise<TestServer> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('dist/web is not built; run `npx vite build` (npm test does it).');
  }
  return startTestServer({ webDist: WEB_DIST });
}

/** Every demo account's password (README, "Demo accounts"). */
export const DEMO_PASSWORD = 'Atrium!demo1';

export interface E2eSession {
  /** Set once the file's beforeAll has run. */
  readonly server: TestServer;
  readonly browser: Browser;
  /** Uncaught errors of every page opened through signIn; tests assert it stays empty. */
  readonly errors: string[];
  /** Opens a fresh browser context on /login?redirect=… and submits the demo password. */
  signIn(username: string, redirect: string): Promise<Page>;
}

/**
 * The set-up every end-to-end file shares; call it inside `describe`. It starts the app server and
 * the browser for the file, keeps a screenshot of every open page when a test fails
 * (`/tmp/<name>-e2e-<n>.png`, for whoever reads the failure), and closes both afterwards.
 */
export function useE2eSession(name: string): E2eSession {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const errors: string[] = [];
  const pages: Page[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const [index, page] of pages.entries())
      if (!page.isClosed()) await page.screenshot({ path: `/tmp/${name}-e2e-${index}.png` }).catch(() => {});
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('The e2e session has not started yet (use it inside a test).');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    errors,
    async signIn(username, redirect) {
      const page = await (await started(browser).newContext()).newPage();
      pages.push(page);
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${started(server).url}/login?redirect=${encodeURIComponent(redirect)}`);
      await page.getByLabel('Email').fill(username);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      return page;
    },
  };
}
