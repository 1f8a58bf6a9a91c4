/**
 * P1 framework overhead: a bare Fastify hello route beside an Atrium route that passes the whole
 * stack, in the same run, same process, same load. Target: Atrium req/s ≥ 0.6 × bare, as the median
 * of the per-round ratios (each Atrium round beside the bare round just before it).
 *
 * @bench-bundled — `npm run bench` runs this file bundled as the server is for production.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createAtrium, loadConfig } from '@atrium/server';
import { turnBatchedLogDestination } from '../../packages/server/src/http/log-destination.js';
import { fmt, runLoad, type LoadResult } from './load.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

// Logging is part of the stack under test: every request is logged at info level, through the
// destination the server writes standard output with (http/log-destination.ts), here to /dev/null.
// pino needs only write(); the option is typed as a full Node stream.
const sink = turnBatchedLogDestination('/dev/null') as unknown as NodeJS.WritableStream;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/hello', async (request) => ({
    message: `Hello, ${(request.query as { name?: string }).name ?? 'world'}!`,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hello?name=Ada`, close: () => app.close() };
}

/** Signs in as the demo administrator through the identity API; null when identity is not installed. */
async function signIn(base: string): Promise<Record<string, string> | null> {
  const response = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@atrium.test', password: 'Atrium!demo1' }),
  });
  if (!response.ok) return null;
  const body = (await response.json()) as { authentication_result?: { access_token: string } };
  if (!body.authentication_result) return null;
  return { authorization: `Bearer ${body.authentication_result.access_token}`, 'x-effective-role': 'Administrator' };
}

async function atriumServer(): Promise<{
  url: string;
  headers: Record<string, string>;
  stages: string[];
  close: () => Promise<void>;
}> {
  const config = { ...loadConfig({ LOG_LEVEL: 'info' }), dataDir: 'memory://', workers: false };
  const instance = await createAtrium({ config, seed: 'auto', logStream: sink });
  await instance.app!.listen({ port: 0, host: '127.0.0.1' });
  const { port } = instance.app!.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const headers = await signIn(base);
  const hasEvaluator = instance.plugins.some((p) => p.provides?.accessEvaluator);
  const probe = headers ? await fetch(`${base}/api/hello/greeting/signed-in?name=Ada`, { headers }) : null;
  const signedIn = probe?.status === 200;
  const stages = [
    'request id (x-request-id)',
    signedIn
      ? 'authentication (bearer JWT: signature verified once per token, expiry on every request; session, user and groups cached until the identity revision moves, checked once a second)'
      : 'authentication: NOT AVAILABLE (identity not installed)',
    signedIn && hasEvaluator
      ? 'permission check (access evaluator, effective role Administrator from X-Effective-Role, compiled policies of the current access revision)'
      : 'permission check: NOT AVAILABLE',
    'admission gate',
    'zod query validation',
    'response serialization (fast-json-stringify from the zod schema)',
    'structured request logging (info, one JSON line per request)',
  ];
  const url = signedIn ? `${base}/api/hello/greeting/signed-in?name=Ada` : `${base}/api/hello/greeting?name=Ada`;
  return { url, headers: signedIn ? headers! : {}, stages, close: () => instance.close() };
}

// Both servers run at once and are loaded in alternating rounds, so that whatever else the machine
// is doing falls on both alike; the median round of each is reported.
const bareTarget = await bareServer();
const atriumTarget = await atriumServer();
const stages = atriumTarget.stages;
const bareRuns: LoadResult[] = [];
const atriumRuns: LoadResult[] = [];
await runLoad(bareTarget.url, { connections: CONNECTIONS, seconds: 2 });
const atriumLoad = { connections: CONNECTIONS, seconds: SECONDS, headers: atriumTarget.headers };
await runLoad(atriumTarget.url, { ...atriumLoad, seconds: 2 });
// The server process's CPU time per answered request, beside req/s: on a machine others are using
// too, req/s swings with their load, CPU time per request much less.
const cpuPerRequest: { bare: number[]; atrium: number[] } = { bare: [], atrium: [] };
const measured = async (url: string, load: Parameters<typeof runLoad>[1], into: number[]) => {
  const before = process.cpuUsage();
  const run = await runLoad(url, load);
  const used = process.cpuUsage(before);
  into.push((used.user + used.system) / Math.max(1, run.requests));
  return run;
};
for (let round = 0; round < ROUNDS; round++) {
  bareRuns.push(await measured(bareTarget.url, { connections: CONNECTIONS, seconds: SECONDS }, cpuPerRequest.bare));
  atriumRuns.push(await measured(atriumTarget.url, atriumLoad, cpuPerRequest.atrium));
}
await bareTarget.close();
await atriumTarget.close();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratios = atriumRuns.map((run, i) => run.requestsPerSecond / bareRuns[i]!.requestsPerSecond);
const ratio = median(ratios);
const medianRun = (runs: LoadResult[]) => {
  const rps = median(runs.map((run) => run.requestsPerSecond));
  return runs.find((run) => run.requestsPerSecond === rps)!;
};
const baseline = medianRun(bareRuns);
const result = medianRun(atriumRuns);
console.log(
  `P1 framework overhead (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s: bare, Atrium, bare, …; autocannon in a child process)`,
);
bareRuns.forEach((bare, i) => {
  const atrium = atriumRuns[i]!;
  console.log(
    `  round ${i + 1}: bare ${fmt(bare.requestsPerSecond, 0).padStart(7)} req/s, Atrium ${fmt(atrium.requestsPerSecond, 0).padStart(7)} req/s, ratio ${fmt(ratios[i]!, 2)}` +
      `   (server CPU per request: bare ${fmt(cpuPerRequest.bare[i]!, 0)} µs, Atrium ${fmt(cpuPerRequest.atrium[i]!, 0)} µs)`,
  );
});
console.log(
  `  bare Fastify   GET ${'/hello'.padEnd(30)} ${fmt(baseline.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(baseline.p99)} ms  (median round)`,
);
console.log(
  `  Atrium         GET ${new URL(atriumTarget.url).pathname.padEnd(30)} ${fmt(result.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(result.p99)} ms  (median round)`,
);
console.log(
  `  ratio Atrium/bare, median of the rounds: ${fmt(ratio, 2)} (range ${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)})  (target ≥ 0.60) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`,
);
console.log(
  `  server CPU per request, medians: bare ${fmt(median(cpuPerRequest.bare), 0)} µs, Atrium ${fmt(median(cpuPerRequest.atrium), 0)} µs (ratio bare/Atrium ${fmt(median(cpuPerRequest.bare) / median(cpuPerRequest.atrium), 2)})`,
);
console.log(`  Atrium stages measured: ${stages.join('; ')}`);
const failures = atriumRuns.reduce((sum, run) => sum + run.errors + run.non2xx, 0);
if (failures) console.log(`  errors or non-2xx answers in the Atrium rounds: ${failures}`);
