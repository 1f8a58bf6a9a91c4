#!/usr/bin/env node
/**
 * `npm run screenshots`: signs in as each demo role, walks every page it can reach by links (the
 * sidebars, list rows, workspace tabs …), and saves a screenshot of each at 1440 and 1024 px wide
 * into screenshots/ (git-ignored). On every page and width it also asserts what a reviewer would
 * otherwise have to spot by eye (docs/ui.md, "Checks"):
 *   - no horizontal page scroll (document scrollWidth ≤ innerWidth);
 *   - no number clipped by its box (an element whose text is a number with scrollWidth > clientWidth);
 *   - no visible snake_case enum value outside editors (inputs, code editors, <code>/<pre>).
 * Exits 1 and lists the failures when any page breaks one.
 *
 * It starts its own server on a fresh seeded in-memory database serving the built app (dist/web, or
 * WEB_DIST; run `npm run build` first), unless `--url http://host:port` points at a running one.
 * `--role admin` (repeatable) limits the accounts; `--max-pages N` bounds each walk (default 60);
 * `--components` also cuts the pictures of docs/ui.md into docs/ui/.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'screenshots');
const PASSWORD = 'Atrium!demo1';
const ACCOUNTS = {
  admin: 'admin@atrium.test',
  adjuster: 'adjuster@atrium.test',
  author: 'author@atrium.test',
  agent: 'agent@agency.test',
};
const WIDTHS = [1440, 1024];
const HEIGHT = 900;
/** Links the walk never follows: they end the session or leave the app. */
const SKIP = [/^\/logout/, /^\/login/, /^\/api\//, /^\/select-role/, /\/download/, /\.(csv|json|xlsx|pdf)$/];

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    role: { type: 'string', multiple: true },
    'max-pages': { type: 'string', default: '60' },
    components: { type: 'boolean', default: false },
  },
});
const roles = values.role?.length ? values.role : Object.keys(ACCOUNTS);
const maxPages = Number(values['max-pages']);

/** `/claims/CLM-000040/exposures/12?tab=x` → `/claims/:id/exposures/:id`: one screenshot per kind of page. */
export function pagePattern(pathWithQuery) {
  return pathWithQuery
    .split('?')[0]
    .split('/')
    .map((segment) => (/\d/.test(segment) ? ':id' : segment))
    .join('/');
}

function slug(pathname) {
  return (
    pathname
      .split('?')[0]
      .replace(/^\/+|\/+$/g, '')
      .replace(/[^a-zA-Z0-9]+/g, '-') || 'home'
  );
}

async function startServer() {
  if (values.url) return { url: values.url.replace(/\/$/, ''), close: async () => {} };
  const webDist = path.resolve(process.env.WEB_DIST ?? path.join(ROOT, 'dist/web'));
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist} is not built; run \`npm run build\` first.`);
  }
  const { startTestServer } = await import('@atrium/sdk/testing');
  return startTestServer({ webDist, env: { LOG_LEVEL: 'warn' } });
}

/** Runs in the page: the three checks, each failure a sentence naming the element. */
function checkPage() {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    problems.push(`horizontal page scroll: ${root.scrollWidth}px wide in a ${window.innerWidth}px window`);
  }
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const NUMBER = /^[-+(]?\s?[$€£¥]?\s?\d[\d,.\s]*%?\)?$/;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.children.length > 0) continue;
    const text = el.textContent?.trim() ?? '';
    if (!NUMBER.test(text) || !visible(el)) continue;
    if (getComputedStyle(el).display === 'inline') continue;
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`clipped number "${text}" in <${el.tagName.toLowerCase()}>`);
  }
  // Editors show what the author typed, identifiers included; everything else should read as words.
  const EDITOR = 'input, textarea, select, code, pre, [contenteditable], .cm-editor, [data-editor], [role="textbox"]';
  const SNAKE = /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const match = SNAKE.exec(node.textContent ?? '');
    const parent = node.parentElement;
    if (!match || !parent || parent.closest(EDITOR) || !visible(parent)) continue;
    if (seen.has(match[0])) continue;
    seen.add(match[0]);
    problems.push(`snake_case value "${match[0]}" in "${node.textContent.trim().slice(0, 80)}"`);
  }
  return problems;
}

/** Same-origin links on the page (path and query, no hash) that the walk may follow. */
async function linksOn(page, origin) {
  const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((a) => a.href));
  const paths = [];
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== origin) continue;
    if (SKIP.some((re) => re.test(url.pathname))) continue;
    paths.push(`${url.pathname}${url.search}`);
  }
  return paths;
}

async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  // Loading skeletons and loaders say the page is still fetching; wait for them to go.
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .mantine-Loader-root'), null, {
      timeout: 10_000,
    })
    .catch(() => {});
}

async function signIn(context, url, email) {
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
  await settle(page);
  return page;
}

/** Pages no link leads to from the sidebars (the demo claim's workspace tabs, My Account). */
const SEEDS = [
  '/',
  '/my-account',
  '/my-account/security',
  '/claims/CLM-000040/details',
  '/claims/CLM-000040/exposures',
  '/claims/CLM-000040/accounting',
  '/claims/CLM-000040/parties',
  '/claims/CLM-000040/attachments',
  '/claims/CLM-000040/injuries',
];

/** Screenshots the page at each width and runs the checks; returns the links on it. */
async function capture(page, role, name, failures) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.waitForTimeout(150); // one layout pass after the resize
    await page.screenshot({ path: path.join(OUT, `${role}-${width}-${name}.png`), fullPage: true });
    for (const problem of await page.evaluate(checkPage)) failures.push(`${role} ${width} ${name}: ${problem}`);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
}

async function walkRole(browser, url, role, failures) {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: HEIGHT } });
  const page = await signIn(context, url, ACCOUNTS[role]);
  const origin = new URL(url).origin;
  const queue = [...SEEDS];
  const patterns = new Set();
  const shots = [];
  const enqueueLinks = async () => {
    for (const next of await linksOn(page, origin)) if (!patterns.has(pagePattern(next))) queue.push(next);
  };
  while (queue.length > 0 && shots.length < maxPages) {
    const pathname = queue.shift();
    if (patterns.has(pagePattern(pathname))) continue;
    patterns.add(pagePattern(pathname));
    await page.goto(`${url}${pathname}`);
    await settle(page);
    const here = page.url();
    const landed = new URL(here).pathname;
    // A redirect to a page already seen.
    if (pagePattern(landed) !== pagePattern(pathname) && patterns.has(pagePattern(landed))) continue;
    patterns.add(pagePattern(landed));
    shots.push(landed);
    await capture(page, role, slug(landed), failures);
    await enqueueLinks();
    // In-page tabs are pages too (a line's risk types, differences, scenarios …).
    const tabs = await page.getByRole('tab').all();
    for (const [index, tab] of tabs.entries()) {
      if (index === 0 || (await tab.getAttribute('aria-selected')) === 'true' || !(await tab.isEnabled())) continue;
      const name = ((await tab.textContent()) ?? `tab-${index}`).trim();
      await tab.click().catch(() => {});
      await settle(page);
      const now = new URL(page.url()).pathname;
      if (now !== landed) {
        if (!patterns.has(pagePattern(now))) {
          patterns.add(pagePattern(now));
          shots.push(now);
          await capture(page, role, slug(now), failures);
          await enqueueLinks();
        }
        await page.goto(here);
        await settle(page);
      } else {
        shots.push(`${landed} (${name})`);
        await capture(page, role, `${slug(landed)}--${slug(name)}`, failures);
        await enqueueLinks();
      }
    }
  }
  await context.close();
  return shots;
}

/** The pictures in docs/ui.md: one element of a real page each, as the administrator sees it. */
const COMPONENTS = [
  { file: 'sidebar.png', path: '/claims', selector: 'nav[aria-label="Main"]' },
  { file: 'module-nav.png', path: '/claims/CLM-000040/details', selector: 'nav[aria-label="Module"]' },
  { file: 'page-header.png', path: '/claims', selector: '.atrium-page-header' },
  { file: 'status-badges.png', path: '/claims/CLM-000040/accounting', selector: 'table[aria-label="Transactions"]' },
  { file: 'data-table.png', path: '/claims/assign-claims', selector: '.atrium-table-scroll' },
  { file: 'stat-grid.png', path: '/claims/CLM-000040/accounting', selector: '[aria-label="Claim totals"]' },
  { file: 'empty-state.png', path: '/claims', selector: '.atrium-empty-state' },
  // The claims list never answers here, so its skeleton stays on screen.
  {
    file: 'loading-state.png',
    path: '/claims',
    selector: '[aria-label="Loading my claims"]',
    hold: /\/api\/claims\/claims\?/,
  },
];

async function captureComponents(browser, url) {
  const dir = path.join(ROOT, 'docs/ui');
  mkdirSync(dir, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
  const page = await signIn(context, url, ACCOUNTS.admin);
  for (const { file, path: pagePath, selector, hold } of COMPONENTS) {
    if (hold) await page.route(hold, () => {});
    await page.goto(`${url}${pagePath}`);
    if (!hold) await settle(page);
    const element = page.locator(selector).first();
    try {
      await element.waitFor({ timeout: 20_000 });
      await element.screenshot({ path: path.join(dir, file), animations: 'disabled' });
    } catch (error) {
      // A picture that cannot be cut does not fail the checks; say which.
      console.error(`docs/ui/${file} not updated: ${error.message.split('\n')[0]}`);
    }
    if (hold) await page.unroute(hold);
  }
  await context.close();
}

async function main() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const failures = [];
  const report = {};
  try {
    for (const role of roles) {
      if (!ACCOUNTS[role]) throw new Error(`Unknown role ${role}; one of ${Object.keys(ACCOUNTS).join(', ')}.`);
      report[role] = await walkRole(browser, server.url, role, failures);
      console.log(`${role}: ${report[role].length} pages`);
    }
    if (values.components) await captureComponents(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
  }
  writeFileSync(path.join(OUT, 'report.json'), JSON.stringify({ pages: report, failures }, null, 2));
  if (failures.length > 0) {
    console.error(`\n${failures.length} problems:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`All pages pass; screenshots in ${path.relative(process.cwd(), OUT)}/`);
}

await main();
