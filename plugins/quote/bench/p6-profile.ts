/* eslint-disable no-console -- a profiling tool prints its figures. */
/**
 * P6's work per step, one client alone (issue 20): on PostgreSQL (its own database, migrated,
 * seeded, dropped at the end) runs the quote sequence create → answers → rate → submit → bind
 * PROFILE_SEQUENCES times (40) after PROFILE_WARMUP (20) and prints, per step, the SQL statements
 * and the process's CPU (server and the in-process client's fetch) per sequence.
 *
 *   npx tsx plugins/quote/bench/p6-profile.ts            # statements and CPU per step
 *   PROFILE_SQL=1 npx tsx plugins/quote/bench/p6-profile.ts   # and the statements of one sequence
 *   PROFILE_CPU=file.cpuprofile npx tsx …                 # and a V8 CPU profile (node:inspector)
 *                                                         #   with the top functions by self time
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createAtrium, loadConfig } from '@atrium/server';

const SEQUENCES = Number(process.env.PROFILE_SEQUENCES ?? 40);
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 20);
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `atrium_profile_quote_${process.pid}`;
const urlOf = (name: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

await admin(`drop database if exists ${database}`);
await admin(`create database ${database}`);
const config = {
  ...loadConfig({ LOG_LEVEL: process.env.PROFILE_LOG ? 'error' : 'info' }),
  dataDir: 'memory://',
  databaseUrl: urlOf(database),
  secretKey: randomBytes(32).toString('hex'),
  workers: false,
};
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
// PROFILE_LOG=1: the server's errors on standard error.
const atrium = await createAtrium({ config, seed: 'auto', logStream: process.env.PROFILE_LOG ? process.stderr : sink });
try {
  await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;
  const signIn = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'agent@agency.test', password: 'Atrium!demo1' }),
  });
  const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };

  let current: string | null = null;
  const counts: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  const texts: Record<string, string[]> = {};
  let recordText = false;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (current) {
      counts[current] = (counts[current] ?? 0) + 1;
      if (recordText) {
        const q = args[0] as string | { text?: string };
        (texts[current] ??= []).push(typeof q === 'string' ? q : (q?.text ?? '?'));
      }
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  type Json = Record<string, any>;
  const call = async (step: string, method: string, path: string, body?: unknown): Promise<Json> => {
    current = step;
    const before = process.cpuUsage();
    const response = await fetch(`${base}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const used = process.cpuUsage(before);
    cpu[step] = (cpu[step] ?? 0) + used.user + used.system;
    current = null;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Json;
  };
  let n = 0;
  const sequence = async () => {
    const quote = await call('create', 'POST', '/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name: `Profile Insured ${++n}` },
      state: 'TX',
    });
    await call('answers', 'PUT', `/quote/risks/${quote.risk_quote.id}/`, {
      risk_state: {
        field_answers: {
          zip: '78701',
          construction: 'masonry',
          protection_class: 4,
          year_built: 2001,
          roof_year: 2015,
        },
      },
    });
    await call('rate', 'POST', `/quote/${quote.quote_number}/rate/`, {});
    const submitted = await call('submit', 'POST', `/quote/${quote.quote_number}/submit/`, {});
    if (submitted.status !== 'Approved') throw new Error(`submitted as ${submitted.status}`);
    const bound = await call('bind', 'POST', `/quote/${quote.quote_number}/bind_requested/`, {});
    if (!bound.policy?.policy_number) throw new Error('bound without a policy number');
  };

  for (let i = 0; i < WARMUP; i++) await sequence();
  if (process.env.PROFILE_SQL) {
    recordText = true;
    await sequence();
    recordText = false;
    for (const [step, list] of Object.entries(texts)) {
      console.log(`--- ${step}: ${list.length}`);
      for (const t of list) console.log(`  ${t.replace(/\s+/g, ' ').slice(0, 220)}`);
    }
  }
  for (const key of Object.keys(counts)) delete counts[key];
  for (const key of Object.keys(cpu)) delete cpu[key];
  const session = process.env.PROFILE_CPU ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const started = performance.now();
  for (let i = 0; i < SEQUENCES; i++) await sequence();
  const wall = performance.now() - started;
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_CPU!, JSON.stringify(profile));
    summarise(profile as unknown as Profile);
  }
  pg.Client.prototype.query = query;
  let totalStatements = 0;
  let totalCpu = 0;
  for (const step of Object.keys(cpu)) {
    totalStatements += counts[step] ?? 0;
    totalCpu += cpu[step]!;
    console.log(
      `  ${step.padEnd(8)} ${((counts[step] ?? 0) / SEQUENCES).toFixed(1).padStart(5)} statements  ${(cpu[step]! / 1000 / SEQUENCES).toFixed(2).padStart(6)} ms CPU`,
    );
  }
  console.log(
    `  sequence ${(totalStatements / SEQUENCES).toFixed(1).padStart(5)} statements  ${(totalCpu / 1000 / SEQUENCES).toFixed(2).padStart(6)} ms CPU  (${(wall / SEQUENCES).toFixed(1)} ms wall a sequence, ${SEQUENCES} sequences)`,
  );
} finally {
  await atrium.close();
  await admin(`drop database if exists ${database} with (force)`);
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Top functions by self time, and by self time summed per file. */
function summarise(profile: Profile) {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (!t) continue;
    const url = node.callFrame.url
      .replace(/^file:\/\/.*?\/node_modules\//, 'nm:')
      .replace(/^file:\/\/\/work\/wt\/[^/]+\//, '');
    const name = `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + t);
    const file = url.startsWith('nm:')
      ? url
          .split('/')
          .slice(0, url.startsWith('nm:@') ? 2 : 1)
          .join('/')
      : url || node.callFrame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + t);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, t]) => `    ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  console.log(`  CPU profile: top functions by self time\n${top(byFunction, 40)}`);
  console.log(`  by file or package\n${top(byFile, 30)}`);
}
