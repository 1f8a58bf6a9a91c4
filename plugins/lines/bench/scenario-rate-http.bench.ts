/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * Scenario rating over HTTP: `POST /api/lines/products/{p}/scenarios/{s}/rate/` on the demo
 * homeowners scenario (the published version, so the compiled product is cached; every request
 * authenticates, checks the permission, loads the scenario's risks, rates, stores the last rating
 * and answers the premium with the whole worksheet) under 50 connections for 20 s.
 * Prints req/s and p50 / p95 / p99 latency. Target: p95 ≤ 100 ms.
 *
 * The load runs in a child process (autocannon, driven from a script so that every response time
 * is kept and the true p95 computed: autocannon's own summary stops at p90 and p97.5).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { createAtrium, loadConfig } from '@atrium/server';
import type { Database } from '@atrium/sdk/server';
import { product, productVersion, scenario } from '../server/tables.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TARGET_P95_MS = 100;
const SCENARIO = 'Frame home in Austin with scheduled jewelry';
const EXPECTED = '1789.60';

const AUTOCANNON = path.resolve(import.meta.dirname, '../../../node_modules/autocannon');

/** The child: runs autocannon, keeps each response time, prints one JSON line. */
const CHILD = `
const autocannon = require(process.env.AUTOCANNON);
const options = JSON.parse(process.env.LOAD_OPTIONS);
const times = [];
const instance = autocannon(options, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  times.sort((a, b) => a - b);
  const pct = (p) => times.length ? times[Math.min(times.length - 1, Math.ceil(p / 100 * times.length) - 1)] : NaN;
  console.log(JSON.stringify({
    requestsPerSecond: result.requests.average, total: times.length,
    p50: pct(50), p95: pct(95), p99: pct(99), max: pct(100),
    non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts,
  }));
});
instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
`;

interface Load {
  requestsPerSecond: number;
  total: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function runLoad(options: Record<string, unknown>): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: { ...process.env, AUTOCANNON, LOAD_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').pop()!) as Load)
        : reject(new Error(`load exited ${code}`)),
    );
  });
}

// Requests are logged at info level, as in production, to a sink.
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
// DATABASE_URL measures on a PostgreSQL server instead of the embedded PGlite.
const config = {
  ...loadConfig({ LOG_LEVEL: 'info' }),
  dataDir: 'memory://',
  databaseUrl: process.env.DATABASE_URL,
  workers: false,
};
const atrium = await createAtrium({ config, seed: 'auto', logStream: sink });
await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;

try {
  const signIn = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@atrium.test', password: 'Atrium!demo1' }),
  });
  const token = ((await signIn.json()) as { authentication_result?: { access_token: string } }).authentication_result
    ?.access_token;
  if (!token) throw new Error(`sign-in answered ${signIn.status}`);
  const headers = { authorization: `Bearer ${token}`, 'x-effective-role': 'Administrator' };

  const db = atrium.database.db as Database;
  const [found] = await db
    .select({ productId: scenario.productId, id: scenario.id })
    .from(scenario)
    .innerJoin(productVersion, eq(productVersion.id, scenario.productVersionId))
    .innerJoin(product, eq(product.id, scenario.productId))
    .where(and(eq(product.name, 'homeowners'), eq(productVersion.status, 'published'), eq(scenario.name, SCENARIO)));
  if (!found) throw new Error(`demo scenario '${SCENARIO}' not found`);
  const url = `${base}/api/lines/products/${found.productId}/scenarios/${found.id}/rate/`;

  const check = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
  const rating = (await check.json()) as { premium?: { pro_rata: string }; worksheet?: unknown };
  if (check.status !== 200 || rating.premium?.pro_rata !== EXPECTED || !rating.worksheet) {
    throw new Error(`rating answered ${check.status} ${JSON.stringify(rating).slice(0, 300)}; expected ${EXPECTED}`);
  }
  const bytes = JSON.stringify(rating).length;

  const load = { url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' };
  await runLoad({ ...load, connections: CONNECTIONS, duration: 2 }); // warm-up
  const result = await runLoad({ ...load, connections: CONNECTIONS, duration: SECONDS });

  console.log(
    `scenario rating over HTTP: POST …/scenarios/{s}/rate/ (demo homeowners, premium ${EXPECTED}, ${bytes} bytes with the worksheet)`,
  );
  console.log(
    `  ${CONNECTIONS} connections for ${SECONDS} s, ${result.total} requests, on ${atrium.database.kind} (DATABASE_URL picks PostgreSQL)`,
  );
  console.log(`  req/s   ${result.requestsPerSecond.toFixed(1)}`);
  console.log(`  p50     ${result.p50.toFixed(1)} ms`);
  console.log(
    `  p95     ${result.p95.toFixed(1)} ms  (target ≤ ${TARGET_P95_MS} ms: ${result.p95 <= TARGET_P95_MS ? 'met' : 'MISSED'})`,
  );
  console.log(`  p99     ${result.p99.toFixed(1)} ms`);
  console.log(`  max     ${result.max.toFixed(1)} ms`);
  console.log(`  errors  ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  console.log(`  load average ${loadavg()[0]!.toFixed(1)} (other work on the machine inflates latency)`);
  if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
} finally {
  await atrium.close();
}
