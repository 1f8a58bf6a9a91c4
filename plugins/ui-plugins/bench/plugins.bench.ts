/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * Third-party plugin runtime (issue 22, `npm run bench -- plugins`): in headless Chromium, the slot
 * mount time of 10 plugins on one page (p95) and the RPC round trip (p95), each beside a baseline
 * measured in the same run.
 *
 * - atrium: the runtime's own bridge (`web/runtime/plugin-bridge.ts`: handshake on a fresh
 *   MessageChannel, zod at the boundary, flood limit, heartbeat) and patch check (`risk-patch.ts`),
 *   bundled with esbuild; each plugin is a `sandbox="allow-scripts"` iframe whose page is served
 *   under the real sandbox CSP (`PLUGIN_CSP`) and loads the real `@atrium/plugin-client`.
 *   Mount = iframe created → the plugin's hello accepted and welcome sent (what the slot waits for).
 *   Round trip = the host sends `button-clicked` → the plugin calls `updateRisk` (a JSON Patch) → the
 *   host parses and applies the patch and answers `result` → the plugin's promise resolves and it
 *   sends a `toast` → the host has parsed that toast.
 * - baseline: the same pages without Atrium: a plain same-origin iframe (no sandbox, no CSP) that
 *   posts to its parent; mount = created → first message; round trip = a bare MessageChannel echo
 *   (no parsing, no patch). What Atrium adds is the difference.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { PLUGIN_CSP } from '../server/plugin-file-routes.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PLUGINS = 10;
const PAGE_LOADS = Number(process.env.PLUGINS_BENCH_LOADS ?? 8);
const ROUND_TRIPS = Number(process.env.PLUGINS_BENCH_TRIPS ?? 200);

const HOST_TS = `
import { createBridge } from '${path.join(ROOT, 'plugins/ui-plugins/web/runtime/plugin-bridge.ts')}';
import { applyRiskPatch } from '${path.join(ROOT, 'plugins/ui-plugins/web/runtime/risk-patch.ts')}';
const fields = ['roof_year', 'year_built'];
const risk = { field_answers: { roof_year: null, year_built: 1987 } };
const w = window as any;
w.mountAtrium = (n: number) => new Promise<number[]>((resolve) => {
  const times: number[] = []; w.bridges = [];
  for (let i = 0; i < n; i++) {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    const start = performance.now();
    let waiter: ((t: number) => void) | null = null;
    const bridge = createBridge({
      frame,
      welcome: () => ({ slot: 'quote:risk-edit:button-row', context: { risk, fields }, configuration: {} }),
      onReady: () => { times.push(performance.now() - start); if (times.length === n) resolve(times); },
      onFail: (reason) => { throw new Error(reason); },
      onMessage: (message) => {
        if (message.type === 'update-risk') {
          const patched = applyRiskPatch(risk, message.patch, fields);
          bridge.send(patched.ok ? { type: 'result', call: message.call, ok: true } : { type: 'result', call: message.call, ok: false, error: patched.error });
        }
        if (message.type === 'toast' && waiter) { const w2 = waiter; waiter = null; w2(performance.now()); }
      },
    });
    frame.onload = () => bridge.loaded();
    frame.src = '/plugin.html';
    document.body.appendChild(frame);
    w.bridges.push({ bridge, next: () => new Promise<number>((r) => { waiter = r; }) });
  }
});
w.tripAtrium = async (count: number) => {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const b = w.bridges[i % w.bridges.length];
    const start = performance.now();
    const done = b.next();
    b.bridge.send({ type: 'button-clicked', id: 'roof' });
    out.push((await done) - start);
  }
  return out;
};
w.mountBaseline = (n: number) => new Promise<number[]>((resolve) => {
  const times: number[] = []; w.ports = [];
  for (let i = 0; i < n; i++) {
    const frame = document.createElement('iframe');
    const start = performance.now();
    frame.onload = () => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { channel.port1.onmessage = null; times.push(performance.now() - start); w.ports.push(channel.port1); if (times.length === n) resolve(times); };
      frame.contentWindow!.postMessage('connect', '*', [channel.port2]);
    };
    frame.src = '/baseline.html';
    document.body.appendChild(frame);
  }
});
w.tripBaseline = async (count: number) => {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const port: MessagePort = w.ports[i % w.ports.length];
    const start = performance.now();
    await new Promise<void>((r) => { port.onmessage = () => r(); port.postMessage({ type: 'button-clicked', id: 'roof' }); });
    out.push(performance.now() - start);
  }
  return out;
};
`;

const PLUGIN_HTML = `<!doctype html><meta charset="utf-8">
<script src="/api/integrations/plugins/sdk/plugin-client.js"></script>
<script>
AtriumPlugin.connect({
  buttons: [{ id: 'roof', text: 'Roof' }],
  onButton: function (id, plugin) {
    plugin.updateRisk([{ op: 'replace', path: '/field_answers/roof_year', value: 2024 }]).then(function () { plugin.toast('ok'); });
  },
});
</script>`;
const BASELINE_HTML = `<!doctype html><meta charset="utf-8"><script>
addEventListener('message', function (e) { var port = e.ports[0]; port.onmessage = function (m) { port.postMessage(m.data); }; port.postMessage('hello'); });
</script>`;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => `${x.toFixed(2)} ms`;

async function main() {
  const bundle = await build({
    stdin: { contents: HOST_TS, loader: 'ts', resolveDir: ROOT },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  const hostJs = bundle.outputFiles[0]!.text;
  const client = readFileSync(createRequire(import.meta.url).resolve('@atrium/plugin-client'), 'utf8');
  const server = createServer((req, res) => {
    const send = (type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    const sandboxed = { 'content-security-policy': PLUGIN_CSP, 'cross-origin-resource-policy': 'cross-origin' };
    if (req.url === '/')
      return send('text/html', '<!doctype html><body><script type="module" src="/host.js"></script>');
    if (req.url === '/host.js') return send('text/javascript', hostJs);
    if (req.url === '/plugin.html') return send('text/html', PLUGIN_HTML, sandboxed);
    if (req.url === '/api/integrations/plugins/sdk/plugin-client.js') return send('text/javascript', client, sandboxed);
    if (req.url === '/baseline.html') return send('text/html', BASELINE_HTML);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const mounts = { atrium: [] as number[], baseline: [] as number[] };
  const trips = { atrium: [] as number[], baseline: [] as number[] };
  try {
    const page = await browser.newPage();
    // Alternate the modes so that neither always runs on a warmer browser.
    for (let load = 0; load < PAGE_LOADS; load++) {
      for (const mode of load % 2 ? (['baseline', 'atrium'] as const) : (['atrium', 'baseline'] as const)) {
        await page.goto(url);
        await page.waitForFunction(() => 'mountAtrium' in window);
        const fn = mode === 'atrium' ? 'mountAtrium' : 'mountBaseline';
        const times = await page.evaluate(([f, n]) => (window as any)[f](n) as Promise<number[]>, [
          fn,
          PLUGINS,
        ] as const);
        if (load > 0) mounts[mode].push(...times); // the first load warms the browser
        if (load === PAGE_LOADS - 1 || load === PAGE_LOADS - 2) {
          const tf = mode === 'atrium' ? 'tripAtrium' : 'tripBaseline';
          await page.evaluate(([f]) => (window as any)[f](20), [tf] as const); // warm-up
          trips[mode].push(
            ...(await page.evaluate(([f, n]) => (window as any)[f](n) as Promise<number[]>, [
              tf,
              ROUND_TRIPS / 2,
            ] as const)),
          );
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`Slot mount, ${PLUGINS} plugins on one page (${mounts.atrium.length} mounts per mode):`);
  console.log(`  atrium   p95 ${fmt(p95(mounts.atrium))}  median ${fmt(median(mounts.atrium))}`);
  console.log(`  baseline p95 ${fmt(p95(mounts.baseline))}  median ${fmt(median(mounts.baseline))}`);
  console.log(`RPC round trip (${trips.atrium.length} per mode):`);
  console.log(`  atrium   p95 ${fmt(p95(trips.atrium))}  median ${fmt(median(trips.atrium))}`);
  console.log(`  baseline p95 ${fmt(p95(trips.baseline))}  median ${fmt(median(trips.baseline))}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
