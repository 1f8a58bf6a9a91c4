/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * Loss-run reports over BENCH_CLAIMS (100,000) generated claims (claims' bulk generator, the
 * `npm run seed -- --claims N` data; BENCH_CLAIMS=1000000 for the issue's million), on PostgreSQL
 * (DATABASE_URL names the server, default the local one; a fresh database, dropped at the end) or
 * the embedded PGlite (BENCH_PGLITE=1). Through the real
 * server: sign-in, POST /api/reports/runs/, the pg-boss job, the claims reporting service in the
 * administrator's scope, then GET until SUCCESS. Prints, for BENCH_RUNS (10) runs each:
 * - loss run by policy (one generated policy, its claims): end-to-end time and the job's own time
 *   (started_at → finished_at; the rest is the queue's pick-up, polled every second);
 * - loss run by period over every generated claim's month of loss (it pages through all of them).
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createAtrium, loadConfig } from '@atrium/server';
import type { ReportRunJson } from '../shared/report-definitions.js';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

// A fresh PostgreSQL database for the run (dropped at the end), or the embedded PGlite with BENCH_PGLITE=1.
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const onPglite = process.env.BENCH_PGLITE === '1';
const name = `atrium_bench_reports_${process.pid}`;
const admin = async (text: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
};
let databaseUrl: string | undefined;
if (!onPglite) {
  await admin(`drop database if exists ${name}`);
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}

const started = performance.now();
const atrium = await createAtrium({
  config: {
    // A bench database holds no real secrets: a fixed key (PostgreSQL requires one).
    ...loadConfig({ LOG_LEVEL: 'warn', ATRIUM_SECRET_KEY: 'b5'.repeat(32) }),
    dataDir: 'memory://',
    databaseUrl,
    workers: true,
  },
  seed: 'auto',
  logStream: sink,
});
try {
  await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;
  const pool = atrium.database.pool;
  // The claims module's volume generator (`npm run seed -- --claims N`), through its plugin definition.
  const claimsPlugin = atrium.plugins.find((plugin) => plugin.volumes?.claims)!;
  await claimsPlugin.volumes!.claims!({ db: atrium.database.db, log: atrium.log, progress: () => {} }, CLAIMS);
  console.log(
    `  ${CLAIMS} claims ready in ${((performance.now() - started) / 1000).toFixed(0)} s (${atrium.database.kind})`,
  );

  const signIn = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@atrium.test', password: 'Atrium!demo1' }),
  });
  const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  async function runOnce(report: string, filters: Record<string, unknown>) {
    const t0 = performance.now();
    const response = await fetch(`${base}/api/reports/runs/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ report, filters }),
    });
    let run = (await response.json()) as ReportRunJson;
    while (run.status === 'NEW' || run.status === 'IN_PROGRESS') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      run = (await (await fetch(`${base}/api/reports/runs/${run.id}/`, { headers })).json()) as ReportRunJson;
    }
    const total = performance.now() - t0;
    if (run.status !== 'SUCCESS') throw new Error(`${report} failed: ${run.error}`);
    const [times] = (
      await pool.query<{ ms: number }>(
        `select extract(epoch from finished_at - started_at) * 1000 as ms from reports.report_run where id = $1`,
        [run.id],
      )
    ).rows;
    return { total, job: Number(times!.ms), rows: run.result!.rows.length };
  }

  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `median ${fmt(sorted[Math.floor(sorted.length / 2)]!)}, p90 ${fmt(sorted[Math.floor(sorted.length * 0.9)]!)}`;
  };

  async function measure(label: string, report: string, filters: () => Record<string, unknown>) {
    const results = [];
    for (let i = 0; i < RUNS; i++) results.push(await runOnce(report, filters()));
    console.log(
      `  ${label}: end to end ${stats(results.map((r) => r.total))}; job ${stats(results.map((r) => r.job))}; ` +
        `${results[0]!.rows} rows`,
    );
  }

  const policies = (
    await pool.query<{ policy_number: string }>(
      `select policy_number from claims.claim where policy_number like 'HO-02%' and status <> 'draft'
        group by policy_number order by policy_number limit ${RUNS}`,
    )
  ).rows.map((r) => r.policy_number);
  let next = 0;
  await measure('loss run by policy', 'loss-run-policy', () => ({ policyNumber: policies[next++ % policies.length] }));

  const [range] = (
    await pool.query<{ from: string; to: string; n: number }>(
      `select min(date_of_loss)::date::text as from, max(date_of_loss)::date::text as to, count(*)::int as n
         from claims.claim where status <> 'draft'`,
    )
  ).rows;
  const periodRuns = Math.max(1, Math.min(RUNS, 3));
  const results = [];
  for (let i = 0; i < periodRuns; i++)
    results.push(await runOnce('loss-run-period', { from: range!.from, to: range!.to }));
  console.log(
    `  loss run by period (${range!.from} – ${range!.to}, ${range!.n} claims read): end to end ` +
      `${stats(results.map((r) => r.total))}; job ${stats(results.map((r) => r.job))}; ${results[0]!.rows} months`,
  );
} finally {
  await atrium.close();
  if (!onPglite) await admin(`drop database if exists ${name} with (force)`);
}
