/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * P6 quote sequence (issue 20): on PostgreSQL, BENCH_CLIENTS (50) concurrent clients for
 * BENCH_SECONDS (30) seconds each run the sequence create quote → save the root risk's answers →
 * rate → submit (no open issue: Approved by the trigger) → bind, as the demo agent, through the
 * whole stack (authentication, access and record scope, zod, the rules, rating on the product
 * version in force, the policies module's issuance in the bind transaction). Beside it, in the same
 * run and server, the baseline: the same sequence with rating replaced by a constant premium
 * (`ratingEngine`, quote-service.ts), so the difference is what rating costs. Targets: sequences/s
 * ≥ 192 and p95 of a sequence ≤ 300 ms. DATABASE_URL names the PostgreSQL server (default the
 * local one); the run gets its own database, migrated and seeded, dropped at the end.
 *
 * @bench-bundled — `npm run bench` runs this file bundled as the server is for production.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { RatingResult } from '@atrium/rating';
import { createAtrium, loadConfig } from '@atrium/server';
import { fmt } from '../../../tests/bench/load.js';
import { ratingEngine } from '../server/quote-service.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const TARGET_RATE = 192;
const TARGET_P95 = 300;
const CONSTANT_PREMIUM = '1000.00';

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `atrium_bench_quote_${process.pid}`;
const urlOf = (name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
await admin(`drop database if exists ${database}`);
await admin(`create database ${database}`);
const started = performance.now();
const config = {
  // DATABASE_POOL_MAX as the server reads it (default 10).
  ...loadConfig({
    LOG_LEVEL: 'info',
    ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
  }),
  dataDir: 'memory://',
  databaseUrl: urlOf(database),
  // A throwaway database: its own throwaway secret key (what ATRIUM_SECRET_KEY would be).
  secretKey: process.env.ATRIUM_SECRET_KEY ?? randomBytes(32).toString('hex'),
  workers: false,
};
const atrium = await createAtrium({ config, seed: 'auto', logStream: sink }).catch(async (error: unknown) => {
  await admin(`drop database if exists ${database} with (force)`);
  throw error;
});
try {
  await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;
  console.log(
    `  database ${database} migrated and seeded in ${fmt((performance.now() - started) / 1000)} s (${atrium.database.kind}, pool ${config.databasePoolMax})`,
  );
  const signIn = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'agent@agency.test', password: 'Atrium!demo1' }),
  });
  const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token;

  interface Run {
    sequences: number;
    seconds: number;
    latencies: number[];
    failed: number;
    failures: string[];
    steps: Record<string, number>;
    cpu: number;
  }
  const load = (seconds: number, expectPremium?: string, clients = CLIENTS) =>
    new Promise<Run>((resolve, reject) => {
      const before = process.cpuUsage();
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(import.meta.dirname, 'sequence-clients.ts'),
          base,
          token,
          String(clients),
          String(seconds),
          ...(expectPremium ? [expectPremium] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
        const used = process.cpuUsage(before);
        resolve({ ...(JSON.parse(output) as Omit<Run, 'cpu'>), cpu: used.user + used.system });
      });
    });

  const real = ratingEngine.rate;
  const constant = (request: Parameters<typeof real>[1], product: Parameters<typeof real>[0]): RatingResult => {
    const term = {
      transactionType: request.transactionType ?? 'new_business',
      termStart: request.termStart,
      termEnd: request.termEnd,
      effectiveDate: request.effectiveDate ?? request.termStart,
      termDays: 365,
      daysInForce: 365,
      factor: '1.0000000000',
      termPremium: CONSTANT_PREMIUM,
      fullyEarnedPremium: '0.00',
      proRataPremium: CONSTANT_PREMIUM,
    };
    return {
      product: product.name,
      premium: CONSTANT_PREMIUM,
      termPremium: CONSTANT_PREMIUM,
      fullyEarnedPremium: '0.00',
      term,
      worksheet: {
        product: product.name,
        term,
        root: {
          type: request.risk.type,
          path: request.risk.type,
          computedFields: [],
          calculations: [],
          premium: CONSTANT_PREMIUM,
          children: [],
        },
      },
    } as RatingResult;
  };

  const percentile = (sorted: number[], p: number) =>
    sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  const report = (label: string, run: Run) => {
    const rate = run.sequences / run.seconds;
    const l = run.latencies;
    console.log(
      `  ${label.padEnd(32)} ${fmt(rate).padStart(7)} sequences/s  p50 ${fmt(percentile(l, 50)).padStart(6)} ms  p95 ${fmt(percentile(l, 95)).padStart(6)} ms  p99 ${fmt(percentile(l, 99)).padStart(6)} ms  (${run.sequences} in ${fmt(run.seconds)} s, server CPU ${fmt(run.cpu / 1000 / Math.max(1, run.sequences), 1)} ms a sequence${run.failed ? `, ${run.failed} failed: ${run.failures.join(' | ')}` : ''})`,
    );
    console.log(
      `  ${''.padEnd(32)} median per step: ${Object.entries(run.steps)
        .map(([name, ms]) => `${name} ${typeof ms === 'number' ? `${fmt(ms)} ms` : '–'}`)
        .join(', ')}`,
    );
    return { rate, p95: percentile(l, 95) };
  };

  console.log(
    `P6 quote sequence: ${CLIENTS} clients × ${SECONDS} s, create → answers → rate → submit → bind as agent@agency.test (load average before: ${loadavg()
      .map((v) => fmt(v, 2))
      .join(' ')}, ${(await import('node:os')).cpus().length} cores)`,
  );
  await load(WARMUP_SECONDS);
  // Statements per sequence: one client alone for a few seconds, counting every statement the
  // server's PostgreSQL clients send (the job queue's polling included, a few a second).
  let statements = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const probe = await load(3, undefined, 1);
  pg.Client.prototype.query = query;
  console.log(
    `  one client alone: ${probe.sequences} sequences, ${fmt(statements / Math.max(1, probe.sequences), 0)} SQL statements a sequence, server CPU ${fmt(probe.cpu / 1000 / Math.max(1, probe.sequences))} ms a sequence`,
  );
  ratingEngine.rate = (product, request) => constant(request, product);
  const baseline = await load(SECONDS, CONSTANT_PREMIUM);
  ratingEngine.rate = real;
  const rated = await load(SECONDS);
  const b = report('baseline (constant premium)', baseline);
  const r = report('with rating (@atrium/rating)', rated);
  console.log(
    `  rating's share: ${fmt(r.rate / b.rate, 2)} × the baseline's sequences/s; p95 ${fmt(r.p95 - b.p95)} ms more`,
  );
  const met = r.rate >= TARGET_RATE && r.p95 <= TARGET_P95;
  console.log(
    `  targets: ≥ ${TARGET_RATE} sequences/s and p95 ≤ ${TARGET_P95} ms — ${fmt(r.rate)} sequences/s, p95 ${fmt(r.p95)} ms: ${met ? 'MET' : 'NOT MET'} (load average after: ${loadavg()
      .map((v) => fmt(v, 2))
      .join(' ')})`,
  );
} finally {
  await atrium.close();
  await admin(`drop database if exists ${database} with (force)`);
}
