/**
 * Lighthouse (issue 13): desktop performance ≥ 95 and accessibility 100 on /login, on All Modules
 * (`/`) and on the CLM-000040 claim workspace, the median of LIGHTHOUSE_RUNS runs (default 3) each.
 *
 * The app is built with the repository's vite.config.ts (brotli/gzip copies included) into
 * node_modules/.cache/atrium/lighthouse-web — or taken from LIGHTHOUSE_WEB_DIST — and served by a
 * real server on a fresh seeded database. Lighthouse 12 (13 needs Node 22) drives Debian's Chromium
 * with its desktop preset through the remote-debugging port of a persistent Playwright context:
 * /login is measured signed out, then Playwright signs in as the administrator and the other pages
 * are measured with that session (Lighthouse's storage reset is off so the session survives; the
 * HTTP cache is cleared before every run instead, so every run is a cold load).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { startTestServer } from '@atrium/sdk/testing';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** When set, every run's full Lighthouse JSON is written there (audits, TBT/LCP breakdowns, treemap). */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR ? path.resolve(process.env.LIGHTHOUSE_REPORT_DIR) : undefined;
const PERFORMANCE_TARGET = 95;
const ACCESSIBILITY_TARGET = 100;
/**
 * LIGHTHOUSE_CPU_SLOWDOWN=2 asks Lighthouse's simulation to count every task as taking N times as
 * long: how the pages score on a machine N times slower (benchmarkIndex here swings 1,150–2,850
 * between days, so a pass at 2× says the target holds on the slow days too).
 */
const CPU_SLOWDOWN = Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN ?? 1);
const config = {
  ...desktopConfig,
  settings: {
    ...desktopConfig.settings,
    throttling: { ...desktopConfig.settings!.throttling!, cpuSlowdownMultiplier: CPU_SLOWDOWN },
  },
};
const USERNAME = 'admin@atrium.test';
const PASSWORD = 'Atrium!demo1';
const CLAIM = 'CLM-000040';

interface PageUnderTest {
  label: string;
  path: string;
  signedIn: boolean;
}

const PAGES: PageUnderTest[] = [
  { label: '/login', path: '/login', signedIn: false },
  { label: '/ (All Modules)', path: '/', signedIn: true },
  { label: `${CLAIM} workspace`, path: `/claims/${CLAIM}/details`, signedIn: true },
];

interface RunFigures {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Lighthouse's measure of this machine's CPU at the time (higher is faster; ~1,000–2,000 here). */
  benchmarkIndex: number;
  /** Failed accessibility audits and the failing nodes' selectors, for whoever fixes them. */
  a11yFailures: string[];
  /** The biggest savings the performance audits name, e.g. unused JavaScript. */
  opportunities: string[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function webDist(): Promise<string> {
  if (process.env.LIGHTHOUSE_WEB_DIST) return path.resolve(process.env.LIGHTHOUSE_WEB_DIST);
  const outDir = path.join(ROOT, 'node_modules/.cache/atrium/lighthouse-web');
  const started = performance.now();
  await build({
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  console.log(`built the app in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return outDir;
}

function figures(lhr: Result): RunFigures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const a11yFailures = (lhr.categories.accessibility?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id]!)
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
    .map((audit) => {
      const items = (audit.details as { items?: { node?: { selector?: string; snippet?: string } }[] } | undefined)
        ?.items;
      const nodes = (items ?? []).slice(0, 4).map((item) => item.node?.snippet ?? item.node?.selector ?? '?');
      return `${audit.id}: ${nodes.join(' | ')}`;
    });
  const opportunities = Object.values(lhr.audits)
    .filter((audit) => audit.details?.type === 'opportunity' && (audit.score ?? 1) < 0.9)
    .map((audit) => `${audit.id}: ${audit.displayValue ?? ''}`);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    a11yFailures,
    opportunities,
  };
}

async function signIn(context: BrowserContext, baseUrl: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { name: 'All Modules' }).waitFor();
  // A production build does not install the example plugin (scripts/example-plugins-plugin.ts).
  await page.getByRole('link', { name: 'Claims' }).first().waitFor();
  if ((await page.getByRole('link', { name: 'Hello' }).count()) > 0)
    throw new Error('The production build installs the example plugin (a Hello link is shown).');
  // The claim must exist for its workspace to be measured at all.
  await page.goto(`${baseUrl}/claims/${CLAIM}/details`);
  await page
    .getByRole('heading', { name: new RegExp(CLAIM) })
    .first()
    .waitFor();
  await page.close();
}

async function main() {
  const dist = await webDist();
  const server = await startTestServer({ webDist: dist });
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'atrium-lighthouse-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage', '--remote-debugging-port=0'],
  });
  let failed = false;
  try {
    // Chromium writes the port it chose into the profile.
    const port = Number(readFileSync(path.join(userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
    const blank = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(blank);
    const flags: Flags = {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: true,
    };
    const rows: { page: PageUnderTest; runs: RunFigures[] }[] = [];
    let signedIn = false;
    for (const target of PAGES) {
      if (target.signedIn && !signedIn) {
        await signIn(context, server.url);
        signedIn = true;
      }
      const runs: RunFigures[] = [];
      for (let run = 0; run < RUNS; run++) {
        await cdp.send('Network.clearBrowserCache');
        const result = await lighthouse(`${server.url}${target.path}`, flags, config);
        if (!result) throw new Error(`Lighthouse returned nothing for ${target.path}`);
        if (result.lhr.runtimeError) throw new Error(`${target.path}: ${result.lhr.runtimeError.message}`);
        const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
        if (landed !== target.path) throw new Error(`${target.path} landed on ${landed} (not signed in?)`);
        if (REPORT_DIR) {
          mkdirSync(REPORT_DIR, { recursive: true });
          const name = `${target.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}-${run + 1}.json`;
          writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(result.lhr));
        }
        runs.push(figures(result.lhr));
      }
      rows.push({ page: target, runs });
    }

    console.log(
      `\nLighthouse ${desktopConfig.settings?.formFactor ?? 'desktop'}, median of ${RUNS} runs (range)` +
        (CPU_SLOWDOWN !== 1 ? `, CPU counted ${CPU_SLOWDOWN}× slower` : ''),
    );
    for (const { page, runs } of rows) {
      const pick = (key: 'performance' | 'accessibility' | 'fcp' | 'lcp' | 'tbt' | 'cls') => runs.map((r) => r[key]);
      const range = (values: number[], digits = 0) =>
        `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
      const perf = median(pick('performance'));
      const a11y = median(pick('accessibility'));
      const ok = perf >= PERFORMANCE_TARGET && a11y >= ACCESSIBILITY_TARGET;
      if (!ok) failed = true;
      console.log(
        `${ok ? 'PASS' : 'FAIL'} ${page.label.padEnd(24)} performance ${range(pick('performance'))}` +
          `  accessibility ${range(pick('accessibility'))}` +
          `  FCP ${range(pick('fcp'))} ms  LCP ${range(pick('lcp'))} ms  TBT ${range(pick('tbt'))} ms` +
          `  CLS ${range(pick('cls'), 3)}  benchmarkIndex ${range(runs.map((r) => r.benchmarkIndex))}`,
      );
      const last = runs.at(-1)!;
      for (const failure of last.a11yFailures) console.log(`       accessibility: ${failure}`);
      for (const opportunity of last.opportunities) console.log(`       opportunity: ${opportunity}`);
    }
    console.log(`targets: performance ≥ ${PERFORMANCE_TARGET}, accessibility ${ACCESSIBILITY_TARGET}`);
    // Scores depend on the machine's speed at the moment: compare runs only at a similar index.
    console.log(`machine: load average ${loadavg()[0]!.toFixed(1)} at the end`);
  } finally {
    await context.close();
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
