import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page, Response } from 'playwright-core';
import type { E2eSession } from './browser.js';
import {
  ALLOWED_CONSOLE_ERRORS,
  ALLOWED_RESPONSES,
  ALLOWED_VIOLATIONS,
  type AllowedViolation,
} from './walker-allow-list.js';

/**
 * The one shared navigation walker (issue 15; issue 13 adds its checks to the same visits). For a
 * demo account it signs in, collects every link of All Modules and the user menu, opens each, and
 * on every page it lands on also follows the main sidebar and the module's page strip (the "Main"
 * and "Module" navigation).
 * Every visit must:
 * - land on a page that is neither "Page not found" nor /forbidden,
 * - log no console error and get no 4xx/5xx answer, unless walker-allow-list.ts lists it with its
 *   reason,
 * - have no serious or critical axe-core violation (axe-core injected into the page), unless
 *   allow-listed,
 * - not scroll sideways at 1280 and 1440 px wide.
 * It answers the problems found, one line each, so that one run shows all of them.
 */

/** The demo accounts, one per role (README "Demo accounts"); `npm test` walks one per role class. */
export const WALKER_ACCOUNTS = {
  administrator: 'admin@atrium.test',
  adjuster: 'adjuster@atrium.test',
  supervisor: 'supervisor@atrium.test',
  underwriter: 'underwriter@atrium.test',
  author: 'author@atrium.test',
  agent: 'agent@agency.test',
  agency: 'agency@agency.test',
} as const;

export const WIDTHS = [1280, 1440] as const;
const HEIGHT = 900;

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');
let axeText: Promise<string> | undefined;
const axeSource = () => (axeText ??= readFile(AXE_SCRIPT, 'utf8'));

export interface WalkResult {
  /** Paths visited, in order. */
  visited: string[];
  problems: string[];
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

function violationAllowed(violation: AxeViolation, path: string, allowed: readonly AllowedViolation[]) {
  return allowed.some((a) => a.rule === violation.id && (!a.paths || a.paths.some((p) => p.test(path))));
}

function requestKey(response: Response): string {
  const url = new URL(response.url());
  return `${response.request().method()} ${url.pathname}`;
}

/** Internal links (same origin, not a download) as paths with their query. */
async function linkPaths(page: Page, origin: string, links: ReturnType<Page['getByRole']>): Promise<string[]> {
  const hrefs = await links.evaluateAll((elements) => elements.map((e) => (e as HTMLAnchorElement).href));
  return hrefs.flatMap((href) => {
    if (!href) return [];
    const url = new URL(href, origin);
    if (url.origin !== origin) return [];
    return [`${url.pathname}${url.search}`];
  });
}

/** Waits until the page has settled: loaded, no request in flight for a moment, a main heading. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => {});
  await page
    .getByRole('heading', { level: 1 })
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => {});
}

export async function walkAs(e2e: E2eSession, username: string): Promise<WalkResult> {
  const problems: string[] = [];
  const visited: string[] = [];
  let current = '/';
  const page = await e2e.signIn(username, '/');
  await page.setViewportSize({ width: WIDTHS[1], height: HEIGHT });
  const origin = e2e.server.url;

  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (ALLOWED_CONSOLE_ERRORS.some((a) => a.message.test(text))) return;
    problems.push(`${username} ${current}: console error: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`${username} ${current}: uncaught error: ${error.message}`));
  page.on('response', (response) => {
    const status = response.status();
    if (status < 400) return;
    const key = requestKey(response);
    const allowed = ALLOWED_RESPONSES.some(
      (a) => a.status === status && a.request.test(key) && (!a.users || a.users.includes(username)),
    );
    if (!allowed) problems.push(`${username} ${current}: ${status} ${key}`);
  });

  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  // All Modules: a full page of module tiles (no sidebar).
  const tiles = page.getByRole('main').getByRole('link');
  await tiles.first().waitFor({ timeout: 30_000 });
  await settle(page);

  // The top bar's carrier logo: a link only when the carrier has a website (the demo carrier has none).
  if ((await page.getByRole('link', { name: / website$/ }).count()) > 0)
    problems.push(`${username}: the carrier logo links to a website the demo carrier does not have`);

  const queue: string[] = ['/'];
  // One page of each shape: My work lists records (five quotes, five claims), and the second of a
  // kind (/quote/Q-900002 after /quote/Q-900001) is the same screen with other data.
  const shape = (path: string) => path.replace(/\d+/g, '#');
  const seen = new Set<string>(queue.map(shape));
  const enqueue = (paths: string[]) => {
    for (const path of paths)
      if (!seen.has(shape(path))) {
        seen.add(shape(path));
        queue.push(path);
      }
  };
  enqueue(await linkPaths(page, origin, tiles));

  // The user menu's links (My Account, and any page of the app it offers).
  await page.getByRole('button', { name: /user menu$/ }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  enqueue(await linkPaths(page, origin, menu.getByRole('menuitem')));
  await page.keyboard.press('Escape');
  // The menu leaves with a transition: axe on the first page must not see it half-closed.
  await menu.waitFor({ state: 'hidden' });

  for (let index = 0; index < queue.length; index++) {
    const path = queue[index]!;
    if (path === '/logout' || path.startsWith('/logout?')) continue;
    current = path;
    visited.push(path);
    // In-app navigation (the router follows popstate), as a click on a link would: no reload per page.
    if (index > 0)
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    await settle(page);
    const landed = new URL(page.url());
    if (landed.pathname === '/forbidden') problems.push(`${username} ${path}: lands on /forbidden`);
    if ((await page.getByRole('heading', { name: 'Page not found' }).count()) > 0)
      problems.push(`${username} ${path}: Page not found`);
    if (
      (await page.getByRole('heading', { name: 'Forbidden', exact: true }).count()) > 0 &&
      landed.pathname !== '/forbidden'
    )
      problems.push(`${username} ${path}: shows Forbidden`);

    // The sidebar and the module's own pages (the page strip), where the page has them.
    for (const name of ['Main', 'Module']) {
      const nav = page.getByRole('navigation', { name, exact: true });
      if ((await nav.count()) > 0) enqueue(await linkPaths(page, origin, nav.getByRole('link')));
    }

    // Accessibility: serious and critical violations (issue 13).
    // Evaluated over the DevTools protocol, which the page's Content-Security-Policy does not govern
    // (a script tag would be refused: script-src 'self').
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource());
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }
      ).axe;
      const result = await axe.run(document, {
        resultTypes: ['violations'],
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      });
      return result.violations as AxeViolation[];
    });
    for (const violation of violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
      if (violationAllowed(violation, landed.pathname, ALLOWED_VIOLATIONS)) continue;
      const where = violation.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ');
      problems.push(`${username} ${path}: axe ${violation.impact} ${violation.id} (${violation.help}) at ${where}`);
    }

    // No sideways page scroll at the widths people use (issue 13).
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${username} ${path}: scrolls sideways by ${overflow}px at ${width}px`);
    }
  }
  await page.context().close();
  return { visited, problems };
}
