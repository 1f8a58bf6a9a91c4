/**
 * P1 framework overhead: a bare Fastify hello route beside an Atrium route that passes the whole
 * stack, in the same run, same process, same load. Target: Atrium req/s ≥ 0.6 × bare.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createAtrium, loadConfig } from '@atrium/server';
import { fmt, runLoad, type LoadResult } from './load.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

// Logging is part of the stack under test: every request is logged at info level, to a sink.
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });

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
    'request id',
    signedIn
      ? 'authentication (bearer JWT: signature verified once per token, expiry every time; session snapshot cached 5 s)'
      : 'authentication: NOT AVAILABLE (identity not installed)',
    signedIn && hasEvaluator
      ? 'permission check (access evaluator, effective role Administrator)'
      : 'permission check: NOT AVAILABLE',
    'zod query validation',
    'response serialization (fast-json-stringify from the zod schema)',
    'structured request logging (info)',
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
for (let round = 0; round < ROUNDS; round++) {
  bareRuns.push(await runLoad(bareTarget.url, { connections: CONNECTIONS, seconds: SECONDS }));
  atriumRuns.push(await runLoad(atriumTarget.url, atriumLoad));
}
await bareTarget.close();
await atriumTarget.close();
const medianRun = (runs: LoadResult[]) =>
  [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)]!;
const baseline = medianRun(bareRuns);
const result = medianRun(atriumRuns);
const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
console.log(
  `P1 framework overhead (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, median round; autocannon in a child process)`,
);
console.log(
  `  bare Fastify   GET ${'/hello'.padEnd(30)} ${fmt(baseline.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(baseline.p99)} ms`,
);
console.log(
  `  Atrium         GET ${new URL(atriumTarget.url).pathname.padEnd(30)} ${fmt(result.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(result.p99)} ms`,
);
console.log(`  ratio Atrium/bare: ${fmt(ratio, 2)}  (target ≥ 0.60) ${ratio >= 0.6 ? 'MET' : 'NOT MET'}`);
console.log(`  Atrium stages measured: ${stages.join('; ')}`);
if (result.errors || result.non2xx) console.log(`  errors: ${result.errors}, non-2xx: ${result.non2xx}`);
