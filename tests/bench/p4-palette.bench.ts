/**
 * P4 command palette: keystroke-to-paint with 10,000 registered commands in headless Chromium,
 * beside stock cmdk (its default filter, 10,000 <Command.Item>) in the same run. Target: Atrium's
 * p95 ≤ 50 ms.
 *
 * A harness page is built with Vite in the run (node_modules/.cache/atrium/p4-harness) in two modes:
 * - atrium: the host's own CommandPalette inside the real shell (createHostRuntime + HostApp with a
 *   signed-in session and a fake backend, the page in the default layout), 10,000 commands
 *   registered through a plugin manifest, opened with Ctrl+K;
 * - cmdk: stock <Command> with the same 10,000 titles and keywords as <Command.Item>s, the default
 *   filter, the same list styling.
 * Keys are typed by Playwright (real key events through the browser's input pipeline). In the page a
 * capture-phase keydown listener takes the event's timestamp; the sample ends at the second
 * requestAnimationFrame after it (React has committed and the frame showing the result was painted).
 * That bound includes up to one extra frame; the tighter "next paint" figure (first frame's
 * rendering done, observed with a message posted from inside requestAnimationFrame) is printed too.
 * Query: "open claim 12", typed P4_REPEATS times per mode and pass (default 4, two passes with the
 * modes alternating), cleared between repetitions; one unmeasured warm-up per page load.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HARNESS_DIR = path.join(ROOT, 'node_modules/.cache/atrium/p4-harness');
const OUT_DIR = path.join(HARNESS_DIR, 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COMMAND_COUNT = 10_000;
const QUERY = 'open claim 12';
const REPEATS = Number(process.env.P4_REPEATS ?? 4);
const PASSES = 2;
const TARGET_P95_MS = 50;

type Mode = 'atrium' | 'cmdk';

/** Import specifiers from the harness to the host's files. */
const host = (file: string) => path.relative(path.join(HARNESS_DIR, 'src'), path.join(ROOT, 'packages/host/src', file));

const COMMANDS_TS = `
/** ${COMMAND_COUNT} commands shaped like a real module's: 'Open Claim 12', 'Renew Policy 7' … */
const VERBS = ['Open', 'Close', 'Renew', 'Print', 'Email', 'Assign', 'Review', 'Approve', 'Archive', 'Export'];
const NOUNS = [
  ['Claim', 'Claims'], ['Policy', 'Policies'], ['Quote', 'Quotes'], ['Contact', 'Contacts'], ['Invoice', 'Invoices'],
  ['Payment', 'Payments'], ['Document', 'Documents'], ['Rule', 'Rules'], ['Line', 'Lines'], ['Report', 'Reports'],
];
export interface BenchCommand { id: string; title: string; group: string; keywords: string[] }
export const COMMANDS: BenchCommand[] = [];
for (const [noun, plural] of NOUNS) {
  for (const verb of VERBS) {
    for (let n = 0; n < ${COMMAND_COUNT / 100}; n++) {
      COMMANDS.push({
        id: \`bench.\${plural.toLowerCase()}.\${verb.toLowerCase()}-\${n}\`,
        title: \`\${verb} \${noun} \${n}\`,
        group: plural,
        keywords: [plural.toLowerCase(), verb.toLowerCase() + ' ' + noun.toLowerCase()],
      });
    }
  }
}
`;

const MEASURE_TS = `
/** Keystroke-to-paint samples, taken from a capture-phase keydown listener. */
interface P4 { measuring: boolean; samples: number[]; nextPaint: number[]; handled: number[]; lastStart: number; pending: number; waiters: (() => void)[]; ready: boolean; idle(): Promise<void> }
const p4: P4 = {
  measuring: false, samples: [], nextPaint: [], handled: [], lastStart: 0, pending: 0, waiters: [], ready: false,
  idle() {
    return this.pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.waiters.push(resolve));
  },
};
(window as unknown as { __p4: P4 }).__p4 = p4;
window.addEventListener('keydown', (event) => {
  if (!p4.measuring) return;
  const now = performance.now();
  const start = event.timeStamp > 0 && event.timeStamp <= now ? event.timeStamp : now;
  p4.pending++;
  p4.lastStart = start;
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => p4.nextPaint.push(performance.now() - start);
    channel.port2.postMessage(0);
    requestAnimationFrame(() => {
      p4.samples.push(performance.now() - start);
      if (--p4.pending === 0) for (const resolve of p4.waiters.splice(0)) resolve();
    });
  });
}, true);
// Bubble phase on window: runs after React handled the input event (and rendered, for a discrete event).
window.addEventListener('input', () => {
  if (p4.measuring) queueMicrotask(() => p4.handled.push(performance.now() - p4.lastStart));
});
export {};
`;

const MAIN_TSX = `
import '@mantine/core/styles.css';
import '${host('host.css')}';
import './measure.ts';
import { createRouteRef, defineCommand, definePlugin, createMemoryStorage } from '@atrium/sdk';
import { Command } from 'cmdk';
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { createAuthStore } from '${host('auth/auth-store.ts')}';
import { HostApp } from '${host('host-app.tsx')}';
import { createHostPlugin } from '${host('host-plugin.ts')}';
import { createHostMemoryRouter } from '${host('host-router.tsx')}';
import { createHostRuntime } from '${host('host-runtime.ts')}';
import { COMMANDS } from './commands.ts';

const markReady = () => {
  (window as unknown as { __p4: { ready: boolean } }).__p4.ready = true;
};
const root = createRoot(document.getElementById('root')!);
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What the shell asks the server for at start, answered in the page. */
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
  if (url.pathname === '/api/v2/insured/get_primary_carrier')
    return json({ success: true, data: { name: 'Atrium Mutual Insurance', website: null, logo_url: null } });
  if (url.pathname === '/api/v2/utils/meta') return json({ success: true, data: { live_status: false } });
  if (url.pathname === '/api/v2/settings/get_setting_value') return json({ success: true, data: 0 });
  if (url.pathname === '/api/access/evaluations') {
    const body = JSON.parse(String(init?.body)) as { requests: unknown[] };
    return json({ results: body.requests.map(() => ({ evaluation: true })) });
  }
  return json({ errors: [{ detail: 'Not found' }] }, 404);
};

function mountAtrium() {
  window.fetch = fakeFetch;
  const storage = createMemoryStorage();
  const auth = createAuthStore({ storage });
  auth.getState().installSessionProvider({ refresh: async (current) => current, signOut: async () => {} });
  auth.getState().setSession({
    accessToken: 'bench',
    expiresAt: Date.now() + 3_600_000,
    user: { id: 'u-1', username: 'bench', name: 'Bench User', email: 'bench@example.com', roles: ['Administrator'] },
  });
  auth.getState().setEffectiveRole('Administrator');
  const benchRoute = createRouteRef({ name: 'bench:page', path: '/bench' });
  function BenchPage() {
    useEffect(markReady, []);
    return <p>bench page</p>;
  }
  const benchPlugin = definePlugin({
    id: 'bench',
    title: 'Bench',
    routes: [{ name: benchRoute.name, path: benchRoute.path, meta: { layout: 'default', requiresAuth: false }, loader: async () => ({ default: BenchPage }) }],
    commands: COMMANDS.map((c) => defineCommand({ id: c.id, title: c.title, group: c.group, keywords: c.keywords, run() {} })),
  });
  const runtime = createHostRuntime({
    manifests: [createHostPlugin({ withLoginPlaceholder: true }), benchPlugin],
    auth,
    storage,
    fetch: fakeFetch,
    platform: 'other',
  });
  root.render(<HostApp runtime={runtime} router={createHostMemoryRouter(runtime, '/bench')} />);
}

const GROUPS = [...Map.groupBy(COMMANDS, (c) => c.group)];

function StockPalette() {
  useEffect(markReady, []);
  return (
    <div style={{ maxWidth: 640, margin: '12vh auto', border: '1px solid #ddd', borderRadius: 4 }}>
      <Command label="Command palette" loop className="atrium-palette">
        <Command.Input autoFocus placeholder="Type a command…" />
        <Command.List>
          <Command.Empty>No results found.</Command.Empty>
          {GROUPS.map(([heading, items]) => (
            <Command.Group key={heading} heading={heading}>
              {items.map((c) => (
                <Command.Item key={c.id} value={c.title} keywords={c.keywords} onSelect={() => {}}>
                  {c.title}
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
      </Command>
    </div>
  );
}

if (new URLSearchParams(location.search).get('mode') === 'cmdk') root.render(<StockPalette />);
else mountAtrium();
`;

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>P4 palette harness</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`;

async function buildHarness(): Promise<number> {
  const started = performance.now();
  rmSync(HARNESS_DIR, { recursive: true, force: true });
  mkdirSync(path.join(HARNESS_DIR, 'src'), { recursive: true });
  writeFileSync(path.join(HARNESS_DIR, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(HARNESS_DIR, 'src/commands.ts'), COMMANDS_TS);
  writeFileSync(path.join(HARNESS_DIR, 'src/measure.ts'), MEASURE_TS);
  writeFileSync(path.join(HARNESS_DIR, 'src/main.tsx'), MAIN_TSX);
  await build({
    configFile: false,
    root: HARNESS_DIR,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: OUT_DIR, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return (performance.now() - started) / 1000;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}

interface Samples {
  toPaint: number[];
  nextPaint: number[];
  /** keydown → the input event handled (React rendered), before any frame. */
  handled: number[];
  loadMs: number[];
  openMs: number[];
}

async function typeQuery(page: Page, measured: boolean, input: string) {
  await page.fill(input, '');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate((on) => ((window as any).__p4.measuring = on), measured);
  for (const character of QUERY) {
    await page.keyboard.type(character);
    await page.evaluate(() => (window as any).__p4.idle());
  }
  await page.evaluate(() => ((window as any).__p4.measuring = false));
}

async function runMode(page: Page, baseUrl: string, mode: Mode, into: Samples) {
  const loadStarted = performance.now();
  await page.goto(`${baseUrl}?mode=${mode}`);
  await page.waitForFunction(() => (window as any).__p4?.ready === true, null, { timeout: 60_000 });
  into.loadMs.push(performance.now() - loadStarted);
  const input = '[cmdk-input]';
  if (mode === 'atrium') {
    // The overlays chunk loads right after the first paint; the binding is live once the shell is.
    const openStarted = performance.now();
    for (let attempt = 0; ; attempt++) {
      await page.keyboard.press('Control+k');
      try {
        await page.waitForSelector(input, { state: 'visible', timeout: 2_000 });
        break;
      } catch (error) {
        if (attempt >= 10) throw error;
      }
    }
    into.openMs.push(performance.now() - openStarted);
  }
  await page.focus(input);
  await typeQuery(page, false, input); // warm-up
  for (let i = 0; i < REPEATS; i++) await typeQuery(page, true, input);
  const { samples, nextPaint, handled } = await page.evaluate(() => {
    const p4 = (window as any).__p4;
    return { samples: p4.samples as number[], nextPaint: p4.nextPaint as number[], handled: p4.handled as number[] };
  });
  const shown = await page.locator('[cmdk-item]').count();
  if (shown === 0) throw new Error(`${mode}: no palette items are shown for '${QUERY}'`);
  into.toPaint.push(...samples);
  into.nextPaint.push(...nextPaint);
  into.handled.push(...handled);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

const started = performance.now();
const buildSeconds = await buildHarness();
const { server, url } = await serve(OUT_DIR);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const results: Record<Mode, Samples> = {
  atrium: { toPaint: [], nextPaint: [], handled: [], loadMs: [], openMs: [] },
  cmdk: { toPaint: [], nextPaint: [], handled: [], loadMs: [], openMs: [] },
};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  for (let pass = 0; pass < PASSES; pass++) {
    for (const mode of (pass % 2 === 0 ? ['atrium', 'cmdk'] : ['cmdk', 'atrium']) as Mode[]) {
      await runMode(page, url, mode, results[mode]);
    }
  }
  if (errors.length) console.warn(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  server.close();
}

const atrium = results.atrium;
const cmdk = results.cmdk;
console.log(`harness built with vite in ${buildSeconds.toFixed(1)} s; Chromium ${browser.version()}`);
console.log(
  `${COMMAND_COUNT.toLocaleString('en')} commands; query '${QUERY}' typed ${REPEATS * PASSES} times per mode (${PASSES} alternating passes, warm-up excluded)`,
);
console.log(
  `atrium = the host's CommandPalette (packages/host/src/palette) in the full host runtime (createHostRuntime + HostApp, default layout), SDK fuzzy index, shouldFilter={false}, ${'≤'} 50 rendered items`,
);
console.log('cmdk   = stock <Command> with 10,000 <Command.Item value={title} keywords>, default filter');
console.log('');
console.log('keystroke → paint (keydown timestamp → 2nd requestAnimationFrame)');
for (const [name, samples] of [
  ['atrium', atrium],
  ['cmdk  ', cmdk],
] as const) {
  console.log(
    `  ${name}  p50 ${ms(percentile(samples.toPaint, 50)).padStart(9)}  p95 ${ms(percentile(samples.toPaint, 95)).padStart(9)}  max ${ms(Math.max(...samples.toPaint)).padStart(9)}  (${samples.toPaint.length} keystrokes)`,
  );
}
console.log('keystroke → next paint (keydown timestamp → after the first frame rendered)');
for (const [name, samples] of [
  ['atrium', atrium],
  ['cmdk  ', cmdk],
] as const) {
  console.log(
    `  ${name}  p50 ${ms(percentile(samples.nextPaint, 50)).padStart(9)}  p95 ${ms(percentile(samples.nextPaint, 95)).padStart(9)}`,
  );
}
console.log('keystroke → input handled by React (script only, no frame)');
for (const [name, samples] of [
  ['atrium', atrium],
  ['cmdk  ', cmdk],
] as const) {
  console.log(
    `  ${name}  p50 ${ms(percentile(samples.handled, 50)).padStart(9)}  p95 ${ms(percentile(samples.handled, 95)).padStart(9)}`,
  );
}
console.log(
  `page load to ready: atrium ${atrium.loadMs.map((v) => ms(v)).join(', ')}; cmdk ${cmdk.loadMs.map((v) => ms(v)).join(', ')}`,
);
console.log(`atrium Ctrl+K to palette shown (first open after load): ${atrium.openMs.map((v) => ms(v)).join(', ')}`);
if (process.env.P4_VERBOSE) {
  // Per typed prefix: which keystrokes are the slow ones.
  for (const [name, samples] of [
    ['atrium', atrium],
    ['cmdk  ', cmdk],
  ] as const) {
    const byPosition = [...QUERY].map((_, i) => samples.toPaint.filter((_, j) => j % QUERY.length === i));
    console.log(
      `  ${name} median by prefix: ${byPosition.map((v, i) => `'${QUERY.slice(0, i + 1)}' ${percentile(v, 50).toFixed(0)}`).join(', ')}`,
    );
  }
}
const p95 = percentile(atrium.toPaint, 95);
console.log('');
console.log(
  `atrium p95 ${ms(p95)} (target ≤ ${TARGET_P95_MS} ms)  ${p95 <= TARGET_P95_MS ? 'MET' : 'NOT MET'}; stock cmdk p95 ${ms(percentile(cmdk.toPaint, 95))} (${(percentile(cmdk.toPaint, 95) / p95).toFixed(1)}× atrium)`,
);
console.log(`run took ${((performance.now() - started) / 1000).toFixed(0)} s`);
