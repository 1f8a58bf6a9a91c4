/**
 * Where a page's load spends its main thread: records a Chromium trace and a V8 CPU profile of cold
 * loads of one page and lists the long tasks (> 50 ms), the blocking time after first contentful
 * paint (Lighthouse's TBT, unthrottled) and the functions that run inside the long tasks, mapped
 * through the build's source maps to source files.
 *
 *   node --import tsx tests/bench/trace-page.ts <web-dist> [<web-dist-b>] [--path=/claims/CLM-000040/details]
 *        [--runs=5] [--json=out.json] [--cpu=4]
 *
 * Given two builds it serves each from its own server and alternates the loads A, B, A, B … in the
 * same minutes, so that a shared machine's load weighs on both alike (issue 13's Lighthouse work:
 * scores there swing with the machine). The build is a `vite build` output with source maps.
 * Compare the CPU-time figures: a task's wall time on a loaded machine also counts its wait for a
 * core. TRACE_DUMP=file.json writes the last load's trace (and file.cpuprofile); REACT_COMPONENTS=1
 * with a build of tests/bench/vite.profile.config.ts adds React's per-component render timings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USERNAME = 'admin@atrium.test';
const PASSWORD = 'Atrium!demo1';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const dists = args.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
const PAGE = option('path', '/claims/CLM-000040/details');
const RUNS = Number(option('runs', '5'));
const JSON_OUT = option('json', '');
const TOP = Number(option('top', '25'));
/** `--cpu=4`: Chromium runs the page's main thread N times slower, so a fast day shows a slow day's long tasks. */
const CPU_THROTTLE = Number(option('cpu', '1'));
if (dists.length === 0) throw new Error('usage: trace-page.ts <web-dist> [<web-dist-b>] [--path=…] [--runs=…]');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: on a loaded machine `dur` also counts the time the thread waited for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  cat: string;
  args?: Record<string, unknown> & { name?: string; data?: Record<string, unknown> };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface LoadFigures {
  variant: string;
  longTasks: { start: number; duration: number; top: [string, number][]; kinds: [string, number][] }[];
  tbt: number;
  /** TBT from the tasks' CPU time, what the same tasks would block on an idle machine. */
  cpuTbt: number;
  /** Main-thread CPU time of all tasks from navigation on, ms. */
  cpuTotal: number;
  /** Tasks whose CPU time passes 50 ms: their CPU ms. */
  cpuLong: number[];
  fcp: number;
  lcp: number;
  scriptMs: number;
  /** Self time per function (source-mapped) inside long tasks, ms. */
  selfInLong: Map<string, number>;
  /** Inclusive time per function inside long tasks, ms (each function once per sample). */
  totalInLong: Map<string, number>;
  /** Time inside long tasks per nearest project frame (packages/, plugins/): whose code caused it. */
  ownInLong: Map<string, number>;
  /** Per long task, time per trace event kind directly under the task (layout, style, script …). */
  kinds: Map<string, number>[];
  requests: string[];
}

const consumers = new Map<string, SourceMapConsumer | null>();
function original(dist: string, url: string, line: number, column: number, fallback: string): string {
  const file = url.split('/assets/')[1];
  if (!file) return `${fallback || '(anonymous)'} ${url ? url.slice(-40) : '(native)'}`;
  const key = `${dist}/${file}`;
  if (!consumers.has(key)) {
    try {
      consumers.set(key, new SourceMapConsumer(JSON.parse(readFileSync(`${dist}/assets/${file}.map`, 'utf8'))));
    } catch {
      consumers.set(key, null);
    }
  }
  const consumer = consumers.get(key);
  if (!consumer) return `${fallback} ${file}:${line}:${column}`;
  let pos = consumer.originalPositionFor({ line: line + 1, column });
  // A function's first token may have no mapping of its own (rolldown's module wrappers): the next one.
  if (!pos.source)
    pos = consumer.originalPositionFor({ line: line + 1, column, bias: SourceMapConsumer.LEAST_UPPER_BOUND });
  const source = (pos.source ?? file).replace(/^(\.\.\/)+/, '').replace(/^(work\/wt\/[^/]+\/)?(node_modules\/)?/, '');
  // The minified name says little; the name at the function's start in the source says more.
  return `${pos.name ?? fallback ?? '(anonymous)'} ${source}:${pos.line ?? '?'}`;
}

async function signIn(context: BrowserContext, baseUrl: string) {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.close();
}

async function collectTrace(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => {
    events.push(...(data.value as unknown as TraceEvent[]));
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'loading',
        'blink.user_timing',
        'toplevel',
        'v8.execute',
      ],
    },
  });
  await run();
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

async function measure(
  context: BrowserContext,
  server: TestServer,
  dist: string,
  variant: string,
): Promise<LoadFigures> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1350, height: 940 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  if (CPU_THROTTLE !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
  const requests: string[] = [];
  cdp.on('Network.responseReceived', (e: { response: { url: string; status: number } }) => {
    if (!e.response.url.startsWith('data:'))
      requests.push(`${e.response.status} ${e.response.url.replace(server.url, '')}`);
  });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // React's profiling build logs each component's render on its component track only in profile
  // mode, which it turns on when it sees the React DevTools hook: a do-nothing one.
  if (process.env.REACT_COMPONENTS)
    // A string, not a function: tsx would compile a function with helpers the page does not have.
    await page.addInitScript(
      'window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), inject: () => 1,' +
        ' onCommitFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {} };',
    );
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  let profile!: Profile;
  const events = await collectTrace(cdp, async () => {
    await page.goto(`${server.url}${PAGE}`, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    profile = ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile;
  });
  if (process.env.TRACE_DUMP) {
    writeFileSync(process.env.TRACE_DUMP, JSON.stringify(events));
    writeFileSync(process.env.TRACE_DUMP.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
  }
  if (errors.length) console.log(`  console errors (${variant}): ${errors.join(' | ')}`);
  await page.close();

  // The page's renderer main thread: the CrRendererMain with the most task time.
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const taskName = (e: TraceEvent) =>
    e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  let main = mains[0]!;
  let best = -1;
  for (const m of mains) {
    const total = events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && taskName(e))
      .reduce((s, e) => s + (e.dur ?? 0), 0);
    if (total > best) [best, main] = [total, m];
  }
  const onMain = (e: TraceEvent) => e.pid === main.pid && e.tid === main.tid;
  const nav =
    events.find((e) => onMain(e) && e.name === 'navigationStart') ?? events.find((e) => e.name === 'navigationStart')!;
  const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main.pid);
  const lcpEvents = events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.pid === main.pid);
  const t0 = nav.ts;
  const fcp = fcpEvent ? (fcpEvent.ts - t0) / 1000 : NaN;
  const lcp = lcpEvents.length ? (lcpEvents.at(-1)!.ts - t0) / 1000 : NaN;
  const tasks = events.filter((e) => onMain(e) && taskName(e) && e.ts >= t0).sort((a, b) => a.ts - b.ts);
  // Nested RunTasks (a task that runs a nested loop) would count twice: keep outermost ones.
  const outer: TraceEvent[] = [];
  for (const t of tasks) {
    const last = outer.at(-1);
    if (last && t.ts < last.ts + (last.dur ?? 0)) continue;
    outer.push(t);
  }
  const fcpTs = fcpEvent?.ts ?? t0;
  let tbt = 0;
  for (const t of outer) {
    const start = Math.max(t.ts, fcpTs);
    const end = t.ts + (t.dur ?? 0);
    const blocking = (end - start) / 1000 - 50;
    if (end > start && blocking > 0) tbt += blocking;
  }
  let cpuTbt = 0;
  let cpuTotal = 0;
  const cpuLong: number[] = [];
  for (const t of outer) {
    const cpu = (t.tdur ?? t.dur ?? 0) / 1000;
    cpuTotal += cpu;
    if (cpu > 50) cpuLong.push(cpu);
    if (t.ts + (t.dur ?? 0) > fcpTs && cpu > 50) cpuTbt += cpu - 50;
  }
  const scriptMs =
    events
      .filter(
        (e) =>
          onMain(e) &&
          e.ph === 'X' &&
          (e.name === 'EvaluateScript' || e.name === 'FunctionCall' || e.name === 'v8.compile'),
      )
      .reduce((s, e) => s + (e.dur ?? 0), 0) / 1000;

  // Samples → (timestamp, node); nodes → source-mapped names and parents.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = new Map<number, string>();
  const nameOf = (id: number) => {
    if (!label.has(id)) {
      const f = byId.get(id)!.callFrame;
      label.set(id, original(dist, f.url, f.lineNumber, f.columnNumber, f.functionName));
    }
    return label.get(id)!;
  };
  const longTasks = outer.filter((t) => (t.dur ?? 0) > 50_000);
  const selfInLong = new Map<string, number>();
  const totalInLong = new Map<string, number>();
  const perTask = longTasks.map(() => new Map<string, number>());
  const ownInLong = new Map<string, number>();
  const own = (name: string) => / (packages|plugins)\//.test(name);
  let ts = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    ts += profile.timeDeltas[i]!;
    const next = profile.timeDeltas[i + 1] ?? 100;
    const index = longTasks.findIndex((t) => ts >= t.ts && ts < t.ts + (t.dur ?? 0));
    if (index < 0) continue;
    const ms = next / 1000;
    const id = profile.samples[i]!;
    const self = nameOf(id);
    if (self.startsWith('(idle)') || self.startsWith('(program)')) {
      selfInLong.set(self, (selfInLong.get(self) ?? 0) + ms);
      continue;
    }
    selfInLong.set(self, (selfInLong.get(self) ?? 0) + ms);
    let owner = '(no project frame)';
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n))
      if (own(nameOf(n))) {
        owner = nameOf(n);
        break;
      }
    ownInLong.set(owner, (ownInLong.get(owner) ?? 0) + ms);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const name = nameOf(n);
      if (seen.has(name)) continue;
      seen.add(name);
      totalInLong.set(name, (totalInLong.get(name) ?? 0) + ms);
      perTask[index]!.set(name, (perTask[index]!.get(name) ?? 0) + ms);
    }
  }
  const kinds = longTasks.map((t) => {
    const end = t.ts + (t.dur ?? 0);
    const byKind = new Map<string, number>();
    const inside = events
      .filter((e) => onMain(e) && e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts < end && !taskName(e))
      .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    let covered = t.ts;
    for (const e of inside) {
      if (e.ts < covered) continue; // nested in an event already counted
      byKind.set(e.name, (byKind.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      covered = e.ts + (e.dur ?? 0);
    }
    return byKind;
  });
  return {
    variant,
    kinds,
    ownInLong,
    longTasks: longTasks.map((t, i) => ({
      start: (t.ts - t0) / 1000,
      kinds: [...kinds[i]!.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5),
      duration: (t.dur ?? 0) / 1000,
      top: [...perTask[i]!.entries()]
        .filter(([n]) => !n.startsWith('(root)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8),
    })),
    tbt,
    cpuTbt,
    cpuTotal,
    cpuLong,
    fcp,
    lcp,
    scriptMs,
    selfInLong,
    totalInLong,
    requests,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length ? (sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2) : NaN;
};

async function main() {
  const servers = await Promise.all(dists.map((webDist) => startTestServer({ webDist })));
  const context = await chromium.launchPersistentContext('', {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const results: LoadFigures[][] = dists.map(() => []);
  try {
    for (const server of servers) await signIn(context, server.url);
    // One unmeasured load each: the server's first answers (and Chromium's own warm-up) are slower.
    for (let i = 0; i < servers.length; i++) await measure(context, servers[i]!, dists[i]!, 'warm-up');
    for (let run = 0; run < RUNS; run++) {
      for (let i = 0; i < servers.length; i++) {
        const variant = String.fromCharCode(65 + i);
        const figures = await measure(context, servers[i]!, dists[i]!, variant);
        results[i]!.push(figures);
        console.log(
          `${variant} run ${run + 1}: CPU TBT ${figures.cpuTbt.toFixed(0)} ms, CPU ${figures.cpuTotal.toFixed(0)} ms,` +
            ` CPU long tasks ${figures.cpuLong.map((t) => t.toFixed(0)).join(' ')}; wall TBT ${figures.tbt.toFixed(0)} ms  FCP ${figures.fcp.toFixed(0)}  LCP ${figures.lcp.toFixed(0)}` +
            `  long tasks ${figures.longTasks.map((t) => `${t.duration.toFixed(0)}@${t.start.toFixed(0)}`).join(' ')}` +
            `  load ${loadavg()[0]!.toFixed(2)}`,
        );
      }
    }
  } finally {
    await context.close();
    await Promise.all(servers.map((s) => s.close()));
  }
  console.log(
    `\n${PAGE}, ${RUNS} cold loads each, unthrottled; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let i = 0; i < dists.length; i++) {
    const runs = results[i]!;
    const variant = String.fromCharCode(65 + i);
    const longSum = runs.map((r) => r.longTasks.reduce((s, t) => s + t.duration, 0));
    console.log(
      `\n${variant} ${dists[i]}: median CPU TBT ${median(runs.map((r) => r.cpuTbt)).toFixed(0)} ms` +
        ` (${runs.map((r) => r.cpuTbt.toFixed(0)).join(', ')}), CPU ${median(runs.map((r) => r.cpuTotal)).toFixed(0)} ms,` +
        ` CPU long-task total ${median(runs.map((r) => r.cpuLong.reduce((a, b) => a + b, 0))).toFixed(0)} ms; wall: TBT ${median(runs.map((r) => r.tbt)).toFixed(0)} ms` +
        ` (${runs.map((r) => r.tbt.toFixed(0)).join(', ')}), long-task total ${median(longSum).toFixed(0)} ms,` +
        ` long tasks ${median(runs.map((r) => r.longTasks.length))}, FCP ${median(runs.map((r) => r.fcp)).toFixed(0)},` +
        ` LCP ${median(runs.map((r) => r.lcp)).toFixed(0)}, requests ${median(runs.map((r) => r.requests.length))}`,
    );
    const total = new Map<string, number>();
    const self = new Map<string, number>();
    const owners = new Map<string, number>();
    for (const r of runs) {
      for (const [k, v] of r.ownInLong) owners.set(k, (owners.get(k) ?? 0) + v / runs.length);
      for (const [k, v] of r.totalInLong) total.set(k, (total.get(k) ?? 0) + v / runs.length);
      for (const [k, v] of r.selfInLong) self.set(k, (self.get(k) ?? 0) + v / runs.length);
    }
    console.log(`  inclusive time inside long tasks (mean ms per load):`);
    for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`);
    console.log(`  self time inside long tasks (mean ms per load):`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`);
    console.log(`  time inside long tasks by nearest project frame (mean ms per load):`);
    for (const [k, v] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`);
    const last = runs.at(-1)!;
    console.log(`  last load's long tasks:`);
    for (const t of last.longTasks)
      console.log(
        `    ${t.duration.toFixed(0)} ms at ${t.start.toFixed(0)} [${t.kinds.map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ')}]: ${t.top.map(([n, v]) => `${n} ${v.toFixed(0)}`).join('; ')}`,
      );
    console.log(`  last load's requests: ${last.requests.join('  ')}`);
  }
  if (JSON_OUT)
    writeFileSync(
      JSON_OUT,
      JSON.stringify(
        results.map((runs) =>
          runs.map((r) => ({
            ...r,
            kinds: r.kinds.map((k) => Object.fromEntries(k)),
            ownInLong: Object.fromEntries(r.ownInLong),
            selfInLong: Object.fromEntries(r.selfInLong),
            totalInLong: Object.fromEntries(r.totalInLong),
          })),
        ),
        null,
        1,
      ),
    );
  process.exit(0);
}

await main();
