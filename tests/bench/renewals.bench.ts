/**
 * Renewal throughput (issue 21): BENCH_RENEWAL_POLICIES (10,000) personal auto policies bound from
 * a quote's risk tree are renewed on PostgreSQL, each renewal the transaction job's handler
 * (plugins/policies/server/transactions.ts `runTransaction`: claim the transaction, lock the policy,
 * re-rate the expiring term's risk tree through the lines rating service on the version in force at
 * the renewal date, write term n+1, its revision, worksheet and installments, complete) —
 * BENCH_CONCURRENCY (4) at a time, as job workers run them. Prints policies per second and the
 * p50 / p95 / p99 time per policy. The baseline, in the same run on the same policies, is the same
 * handler with no rating engine installed (the premium carried): the difference is what re-rating
 * costs. Runs on the PostgreSQL server DATABASE_URL names (default the local one), in a database
 * of its own that is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { createAtrium, loadConfig } from '@atrium/server';
import { linesRatingService } from '../../plugins/lines/server/rating/rating-provider.js';
import { ratingTree } from '../../plugins/policies/server/rerate.js';
import { issuanceService } from '../../plugins/policies/server/services.js';
import { runTransaction } from '../../plugins/policies/server/transactions.js';
import { singleDriverTree } from '../../plugins/policies/test/rating-tree.js';
import { fmt } from './load.js';

const POLICIES = Number(process.env.BENCH_RENEWAL_POLICIES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `atrium_bench_renewals_${process.pid}`;
const urlOf = (database: string) => {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
};
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`drop database if exists ${name}`);
await admin.query(`create database ${name}`);

const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
// The demo data is sealed under a key of its own (PostgreSQL needs one given); this one lives for the run.
const secretKey = process.env.ATRIUM_SECRET_KEY ?? randomBytes(32).toString('hex');
const config = {
  ...loadConfig({ LOG_LEVEL: 'warn', ATRIUM_SECRET_KEY: secretKey }),
  dataDir: 'memory://',
  databaseUrl: urlOf(name),
  workers: false,
};
const atrium = await createAtrium({ config, http: false, seed: 'auto', logStream: sink });
try {
  const db = atrium.database.db;
  const pool = atrium.database.pool;
  // The service as the lines plugin provides it (its compiled-version cache keyed by the database).
  const rating = linesRatingService.create({ db } as never);
  const started = performance.now();

  // One policy bound as quote binds it (its tree rated by lines), then copied set-based.
  const risks = singleDriverTree();
  const rated = await rating.rate(db, {
    product: 'personal_auto',
    ratingDate: '2026-01-01',
    transactionType: 'new_business',
    termStart: '2026-01-01',
    termEnd: '2027-01-01',
    risk: ratingTree(risks)!,
  });
  if (!rated.ok) throw new Error(rated.message);
  const template = await db.transaction((tx) =>
    issuanceService().issuePolicy(tx, {
      quoteId: 'bench',
      quoteNumber: 'QTE-BENCH',
      productSlug: 'personal_auto',
      productVersionId: String(rated.versionId),
      state: 'TX',
      effectiveDate: '2026-01-01',
      expirationDate: '2027-01-01',
      namedInsured: { contactId: null, name: 'Bench Insured' },
      agentContactId: 'CON-AGENT-ALEX',
      agencyContactId: 'CON-AGENCY-HARBOUR',
      premium: rated.termPremium,
      worksheet: rated.worksheet,
      risks,
      billing: { scheduleId: 'quarterly', paymentMethodId: null },
      issuedBy: 'bench',
    }),
  );
  const columns = async (table: string, skip: string[]) =>
    (
      await pool.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'policies' and table_name = $1
          and is_generated = 'NEVER' and identity_generation is null order by ordinal_position`,
        [table],
      )
    ).rows
      .map((r) => r.column_name)
      .filter((c) => !skip.includes(c));
  const copy = async (table: string, overrides: Record<string, string>, from: string) => {
    const cols = await columns(table, Object.keys(overrides));
    const list = [...Object.keys(overrides), ...cols];
    const values = [...Object.values(overrides), ...cols.map((c) => `t.${c}`)];
    await pool.query(`insert into policies.${table} (${list.join(', ')}) select ${values.join(', ')} ${from}`);
  };
  const id = Number(template.policyId);
  await copy(
    'policy',
    { number: `'BR-' || lpad(g::text, 6, '0')` },
    `from policies.policy t, generate_series(1, ${POLICIES}) g where t.id = ${id}`,
  );
  const copies = `from policies.policy p join policies.policy_term tt on tt.policy_id = ${id} where p.number like 'BR-%'`;
  await copy(
    'policy_term',
    { policy_id: 'p.id' },
    copies.replace('policy_term tt', 'policy_term t').replace('tt.', 't.'),
  );
  await copy(
    'policy_revision',
    { policy_id: 'p.id', term_id: 'nt.id' },
    `from policies.policy p join policies.policy_term nt on nt.policy_id = p.id
      join policies.policy_revision t on t.policy_id = ${id} where p.number like 'BR-%'`,
  );
  await copy(
    'installment',
    { policy_id: 'p.id', term_id: 'nt.id', transaction_id: 'null' },
    `from policies.policy p join policies.policy_term nt on nt.policy_id = p.id
      join policies.installment t on t.policy_id = ${id} where p.number like 'BR-%'`,
  );
  await pool.query('analyze');
  console.log(
    `Renewals: ${POLICIES.toLocaleString('en-US')} policies (personal auto, one vehicle and one driver, quarterly) ready in ` +
      `${fmt((performance.now() - started) / 1000)} s on ${atrium.database.kind}; ${CONCURRENCY} at a time`,
  );

  /** Queues a renewal of every copy (as POST renewal-runs does) and runs them through the job's handler. */
  const run = async (label: string, engine: typeof rating | null) => {
    const { rows } = await pool.query<{ id: number }>(
      `insert into policies.policy_transaction (policy_id, type, effective_date, auto_bind, status, input, username)
       select p.id, 'renewal', (select max(expiration_date) from policies.policy_term t where t.policy_id = p.id),
              true, 'initiated', '{}'::jsonb, 'bench'
         from policies.policy p where p.number like 'BR-%' order by p.id returning id`,
    );
    const context = { db, optionalService: (() => engine) as never };
    const times: number[] = [];
    let next = 0;
    const begin = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          const t0 = performance.now();
          await runTransaction(context, row.id);
          times.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - begin) / 1000;
    const outcome = await pool.query<{ status: string; rerated: string | null; n: string }>(
      `select status, result->>'rerated' as rerated, count(*) as n from policies.policy_transaction
        where id = any($1) group by 1, 2`,
      [rows.map((r) => r.id)],
    );
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
    const perSecond = rows.length / seconds;
    console.log(
      `  ${label.padEnd(44)} ${fmt(perSecond, 0).padStart(6)} policies/s   p50 ${fmt(pct(50))} ms   p95 ${fmt(pct(95))} ms   ` +
        `p99 ${fmt(pct(99))} ms   (${fmt(seconds)} s; ${outcome.rows.map((r) => `${r.n} ${r.status}${r.rerated === 'true' ? ' re-rated' : ''}`).join(', ')})`,
    );
    return { perSecond, p95: pct(95) };
  };
  const rerated = await run('re-rated by lines (term 1 → 2)', rating);
  const baseline = await run('baseline: premium carried, no engine (2 → 3)', null);
  console.log(
    `  re-rated / baseline: throughput ${fmt(rerated.perSecond / baseline.perSecond, 2)}, p95 ${fmt(rerated.p95 / baseline.p95, 2)}`,
  );
} finally {
  await atrium.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
