import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import { CHROMIUM, CHROMIUM_ARGS, checkChromium } from './chromium.js';

/**
 * End-to-end tests drive Debian's Chromium (a browser download fails on these machines) against a
 * real server serving the built SPA (`npm test` builds it first) on a fresh embedded database.
 */
export { CHROMIUM } from './chromium.js';
// ATRIUM_E2E_WEB_DIST lets several people build and test the SPA side by side on one checkout.
export const WEB_DIST = process.env.ATRIUM_E2E_WEB_DIST
  ? path.resolve(process.env.ATRIUM_E2E_WEB_DIST)
  : path.resolve(import.meta.dirname, '../../dist/web');

/**
 * A browser for one test file. In a run of the e2e project every file connects to the one Chromium
 * that shared-browser.global.ts launched for the run (starting Chromium costs seconds on two loaded
 * cores); closing the connection closes only the contexts this file opened. Without that shared
 * Chromium (or when it is gone) the file launches its own.
 */
export async function launchBrowser(): Promise<Browser> {
  checkChromium();
  const endpoint = inject('chromiumWsEndpoint');
  if (endpoint) {
    try {
      return await chromium.connect(endpoint);
    } catch {
      // The shared browser died (a crash in an earlier file): this file still gets one of its own.
    }
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
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
  /**
   * A fresh browser context signed in as `username`, on `redirect`. The first call for a user in a
   * file signs in through /login?redirect=… with the demo password; later calls for that user open
   * their new context with the session the first one stored (its local storage and cookies), as a
   * second tab of the same person would, and fall back to the login form if that session no longer
   * works. A sign-in that stops on a /login/… step (role choice, new password) is not reused.
   */
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
  const signedIn = new Map<string, StorageState>();
  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  });
  // Each test (and each retry of it) starts with no errors recorded: an error that failed a first
  // attempt must not fail its retry too.
  beforeEach(() => {
    errors.length = 0;
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
      const url = started(server).url;
      const open = async (context: BrowserContext) => {
        const page = await context.newPage();
        pages.push(page);
        page.on('pageerror', (error) => errors.push(error.message));
        return page;
      };
      const saved = signedIn.get(username);
      if (saved) {
        const page = await open(await started(browser).newContext({ ...CONTEXT_OPTIONS, storageState: saved }));
        await page.goto(`${url}${redirect}`);
        if (await settledSignedIn(page)) return page;
        // The stored session was ended (signed out, revoked, expired): sign in again.
        signedIn.delete(username);
        await page.context().close();
      }
      const page = await open(await started(browser).newContext(CONTEXT_OPTIONS));
      await page.goto(`${url}/login?redirect=${encodeURIComponent(redirect)}`);
      await page.getByLabel('Email').fill(username);
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // Left the login form for the app (not a further /login/… step): keep the session for reuse.
      await page.waitForURL((next) => next.pathname !== '/login', { timeout: 60_000 }).catch(() => undefined);
      if (!new URL(page.url()).pathname.startsWith('/login') && (await settledSignedIn(page)))
        signedIn.set(username, await page.context().storageState());
      return page;
    },
  };
}

/**
 * Every context asks for reduced motion: the theme then opens modals, menus and collapses without a
 * transition (theme.ts), so Playwright's wait for a stable element does not wait out an animation,
 * and two busy cores draw no animation frames.
 */
const CONTEXT_OPTIONS = { reducedMotion: 'reduce' } as const;

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * True once the app shows a signed-in page (the top bar's user menu), false if it ends on the login
 * form. Waits for whichever comes first.
 */
async function settledSignedIn(page: Page): Promise<boolean> {
  const menu = page.getByRole('button', { name: /user menu$/i });
  const login = page.getByRole('button', { name: 'Sign in', exact: true });
  await menu.or(login).first().waitFor({ timeout: 60_000 });
  return (await menu.count()) > 0;
}
