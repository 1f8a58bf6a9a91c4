/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * P2 claim list: with BENCH_CLAIMS (100,000) generated claims (server/seed/bulk-claims.ts), the
 * filtered `GET /api/claims/claims/` (status=open, loss_state=IL — about 3% of the claims — 250 a
 * page, through authentication, the access
 * check, zod, Drizzle, the JSON:API serializer and logging) under BENCH_CONNECTIONS (200) connections
 * for BENCH_SECONDS (20) seconds, beside a hand-written Fastify route on the same node-postgres pool
 * that sends the same statements (page, count, hydration; checked statement by statement before the
 * load) and answers the same document built by hand (checked too) — in the same run, one after the
 * other, each starting once the other's queued requests are done. Prints the latency of one request
 * at a time, req/s and p99 of each and the ratios. Targets: req/s ratio ≥ 0.7, p99 ratio ≤ 1.5.
 * Also prints the claim quick search and one claim's record, one request at a time. Runs on
 * PostgreSQL (DATABASE_URL names the server, default the local one) on a copy of a template database
 * of generated claims, built once (bench-database.ts); BENCH_PGLITE=1 runs on the embedded PGlite,
 * generating the claims every run. BENCH_SHOW_SQL=1 prints the statements.
 */
import { Writable } from 'node:stream';
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createAtrium, loadConfig } from '@atrium/server';
import { fmt, runLoad, type LoadResult } from '../../../tests/bench/load.js';
import { EXACT_COUNT_LIMIT } from '../server/core/claim-list-query.js';
import { seedBulkClaims } from '../server/seed/bulk-claims.js';
import { benchDatabase } from './bench-database.js';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const QUERY = 'status=open&loss_state=IL&page%5Bnumber%5D=1&page%5Bsize%5D=250';

const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
// PostgreSQL unless BENCH_PGLITE=1: DATABASE_URL names the server (default the local one); the run
// gets a copy of a template holding the generated claims (bench-database.ts).
const onPglite = process.env.BENCH_PGLITE === '1';
const started = performance.now();
const benchDb = onPglite
  ? null
  : await benchDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', CLAIMS);
const config = {
  ...loadConfig({ LOG_LEVEL: 'info' }),
  dataDir: 'memory://',
  databaseUrl: benchDb?.url,
  workers: false,
};
const atrium = await createAtrium({ config, seed: 'auto', logStream: sink });
await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;
const pool = atrium.database.pool;
// On PGlite the claims are generated in every run (there are no templates); 100,000 take minutes.
if (onPglite) await seedBulkClaims(atrium.database.db, CLAIMS);
console.log(`  claims ready in ${fmt((performance.now() - started) / 1000)} s (${atrium.database.kind})`);

const signIn = await fetch(`${base}/api/identity/sign-in`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'adjuster@atrium.test', password: 'Atrium!demo1' }),
});
const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
  .access_token;
const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };

// The hand-written route: the statements the claims route sends, written out by hand, on the same
// pool (checked below, statement by statement), and the same JSON:API document built by hand
// (checked below too), so that the ratio measures the framework: authentication, the access check,
// zod, Drizzle, the serializer and logging.
const CLAIM_COLUMNS = [
  'id', 'number', 'custom_number', 'fnol_number', 'status', 'state', 'product_id', 'date_of_loss',
  'date_of_loss_timezone', 'loss_description', 'loss_location_id', 'loss_category_id', 'reported_method_id',
  'reported_date', 'reported_by', 'policy_id', 'policy_number', 'policy_revision_id', 'policy_type',
  'current_fnol_step', 'refresh_policy_date', 'update_latest_revision', 'exposures_folder_id', 'fields',
  'fnol_claimants', 'status_change_reason', 'primary_adjuster', 'primary_insured_party_id', 'created_by',
  'submitted_by', 'version', 'created_at', 'updated_at',
]; // prettier-ignore
const LOCATION_COLUMNS = ['id', 'line1', 'line2', 'city', 'county', 'state', 'zip', 'country', 'latitude', 'longitude'];
const qualified = (table: string, columns: string[]) => columns.map((c) => `"claims"."${table}"."${c}"`).join(', ');
const WHERE = `("claims"."claim"."status" in ($1) and upper("claims"."location"."state") = upper($2))`;
const PAGE_SQL =
  `select ${qualified('claim', CLAIM_COLUMNS)}, ${qualified('location', LOCATION_COLUMNS)} from "claims"."claim" ` +
  `left join "claims"."location" on "claims"."location"."id" = "claims"."claim"."loss_location_id" where ${WHERE} ` +
  `order by "claims"."claim"."id" desc, "claims"."claim"."id" desc limit $3`;
// The count stops at EXACT_COUNT_LIMIT + 1 matches; past it, the planner's estimate (EXPLAIN).
const MATCHES_SQL =
  `select 1 from "claims"."claim" left join "claims"."location" on "claims"."location"."id" = ` +
  `"claims"."claim"."loss_location_id" where ${WHERE}`;
const COUNT_SQL = `select count(*) from (${MATCHES_SQL} limit $3) "matches"`;
const ESTIMATE_SQL = `explain (format json) (${MATCHES_SQL})`;
const rowsOf = async (text: string, values: unknown[]) =>
  (await pool.query({ text, values, rowMode: 'array' })).rows as unknown[][];
const groupBy = (rows: unknown[][]) => {
  const map = new Map<unknown, unknown[][]>();
  for (const row of rows) {
    const list = map.get(row[0]);
    if (list) list.push(row);
    else map.set(row[0], [row]);
  }
  return map;
};
const CLAIMS_PATH = '/api/claims/claims/';
const bare = Fastify({ logger: false });
bare.get('/api/claims/claims/', async (request) => {
  const q = request.query as Record<string, string>;
  const size = Number(q['page[size]']);
  const pageRows = await rowsOf(PAGE_SQL, [q.status, q.loss_state, size]);
  const claims = pageRows.map((r) => Object.fromEntries(CLAIM_COLUMNS.map((c, i) => [c, r[i]])));
  const locations = pageRows.map((r) =>
    r[CLAIM_COLUMNS.length] == null
      ? null
      : Object.fromEntries(LOCATION_COLUMNS.map((c, i) => [c, r[CLAIM_COLUMNS.length + i]])),
  );
  let count = claims.length;
  let estimated = false;
  if (claims.length === size) {
    count = Number((await rowsOf(COUNT_SQL, [q.status, q.loss_state, EXACT_COUNT_LIMIT + 1]))[0]![0]);
    if (count > EXACT_COUNT_LIMIT) {
      const plan = (await pool.query({ text: ESTIMATE_SQL, values: [q.status, q.loss_state] })).rows[0];
      count = Math.max(count, Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows']));
      estimated = true;
    }
  }
  const ids = claims.map((c) => c.id);
  const lookupIds = claims.flatMap((c) => [c.loss_category_id, c.reported_method_id]).filter((id) => id != null);
  const [perils, tags, exposures, parties, lookups, risks, balances] = await Promise.all([
    rowsOf(
      `select "claims"."claim_peril"."claim_id", "claims"."lookup"."name" from "claims"."claim_peril" inner join "claims"."lookup" on "claims"."lookup"."id" = "claims"."claim_peril"."peril_id" where "claims"."claim_peril"."claim_id" = any($1) order by "claims"."lookup"."name"`,
      [ids],
    ),
    rowsOf(
      `select "claim_id", "tag_id" from "claims"."claim_tag" where "claims"."claim_tag"."claim_id" = any($1) order by "claims"."claim_tag"."tag_id"`,
      [ids],
    ),
    rowsOf(
      `select "id", "claim_id" from "claims"."exposure" where "claims"."exposure"."claim_id" = any($1) order by "claims"."exposure"."number"`,
      [ids],
    ),
    rowsOf(
      `select "id", "claim_id", "role" from "claims"."party" where "claims"."party"."claim_id" = any($1) order by "claims"."party"."display_number"`,
      [ids],
    ),
    lookupIds.length
      ? rowsOf(`select "id", "name" from "claims"."lookup" where "claims"."lookup"."id" = any($1)`, [lookupIds])
      : [],
    rowsOf(
      `select "claim_id", count(*) filter (where "is_first_party_risk"), count(*) filter (where not "is_first_party_risk") from "claims"."risk" where "claims"."risk"."claim_id" = any($1) group by "claims"."risk"."claim_id"`,
      [ids],
    ),
    // Total incurred: the claim's balance row, kept by the ledger (one primary-key read per claim).
    rowsOf(
      `select "claim_id", "total_incurred" from "claims"."claim_balance" where "claims"."claim_balance"."claim_id" = any($1)`,
      [ids],
    ),
  ]);
  const perilsBy = groupBy(perils);
  const tagsBy = groupBy(tags);
  const exposuresBy = groupBy(exposures.map(([id, claimId]) => [claimId, id]));
  const partiesBy = groupBy(parties.map(([id, claimId, role]) => [claimId, id, role]));
  const lookupName = new Map(lookups.map(([id, name]) => [id, name]));
  const risksBy = new Map(risks.map((r) => [r[0], r]));
  const incurredBy = new Map(balances.map(([id, incurred]) => [id, incurred]));
  const self = (id: unknown, name: string) => ({ self: `${CLAIMS_PATH}${id}/relationships/${name}` });
  const pages = Math.max(1, Math.ceil(count / size));
  const link = (n: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(q))
      if (key !== 'page[number]' && key !== 'page[size]') search.append(key, value);
    search.set('page[number]', String(n));
    search.set('page[size]', String(size));
    return `${CLAIMS_PATH}?${search.toString()}`;
  };
  const number = Number(q['page[number]']);
  return {
    jsonapi: { version: '1.1' },
    data: claims.map((c, i) => {
      const claimParties = partiesBy.get(c.id) ?? [];
      const risk = risksBy.get(c.id);
      const insured = c.primary_insured_party_id ?? claimParties.find((p) => p[2] === 'insured')?.[1] ?? null;
      return {
        type: 'claim',
        id: String(c.id),
        attributes: {
          number: c.number,
          custom_number: c.custom_number,
          status: c.status,
          state: c.state,
          date_of_loss: c.date_of_loss,
          date_of_loss_timezone: c.date_of_loss_timezone,
          loss_description: c.loss_description,
          fnol_number: c.fnol_number,
          policy_id: c.policy_id,
          policy_number: c.policy_number,
          policy_revision_id: c.policy_revision_id,
          policy_type: c.policy_type,
          reported_date: c.reported_date,
          reported_by: c.reported_by,
          reported_method: c.reported_method_id ? (lookupName.get(c.reported_method_id) ?? null) : null,
          current_fnol_step: c.current_fnol_step,
          policy_risks_count: risk ? Number(risk[1]) : 0,
          total_incurred: incurredBy.get(c.id) ?? '0.00',
          unlisted_risks_count: risk ? Number(risk[2]) : 0,
          refresh_policy_date: c.refresh_policy_date,
          update_latest_revision: c.update_latest_revision,
          exposures_folder_id: c.exposures_folder_id,
          fields: c.fields,
          status_change_reason: c.status_change_reason,
          loss_category: c.loss_category_id ? (lookupName.get(c.loss_category_id) ?? null) : null,
          loss_location: locations[i],
          perils: (perilsBy.get(c.id) ?? []).map((p) => p[1]),
          claimants: c.fnol_claimants,
          primary_adjuster: c.primary_adjuster,
          created_by: c.created_by,
          submitted_by: c.submitted_by,
          version: c.version,
          created_at: c.created_at,
          updated_at: c.updated_at,
        },
        relationships: {
          product: {
            data: c.product_id == null ? null : { type: 'product', id: String(c.product_id) },
            links: self(c.id, 'product'),
          },
          tags: {
            data: (tagsBy.get(c.id) ?? []).map((t) => ({ type: 'tag', id: String(t[1]) })),
            links: self(c.id, 'tags'),
          },
          exposures: {
            data: (exposuresBy.get(c.id) ?? []).map((e) => ({ type: 'exposure', id: String(e[1]) })),
            links: self(c.id, 'exposures'),
          },
          parties: {
            data: claimParties.map((p) => ({ type: 'party', id: String(p[1]) })),
            links: self(c.id, 'parties'),
          },
          primary_insured: {
            data: insured == null ? null : { type: 'party', id: String(insured) },
            links: self(c.id, 'primary_insured'),
          },
        },
        links: { self: `${CLAIMS_PATH}${c.id}/` },
      };
    }),
    links: {
      self: link(number),
      first: link(1),
      prev: number > 1 ? link(Math.min(number - 1, pages)) : null,
      next: number < pages ? link(number + 1) : null,
      last: link(pages),
    },
    meta: {
      count,
      pages,
      ...(estimated ? { count_estimated: true } : {}),
    },
  };
});
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/api/claims/claims/?${QUERY}`;
const atriumUrl = `${base}/api/claims/claims/?${QUERY}`;

// The statements one request sends (through this pool), to compare the two routes.
async function statementsOf(url: string, init?: RequestInit) {
  const seen: string[] = [];
  const query = pool.query;
  pool.query = ((config: string | { text: string }, ...rest: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    if (text.includes('"claims".')) seen.push(text); // not the job queue's polling on the same pool
    return (query as (...args: unknown[]) => unknown).call(pool, config, ...rest);
  }) as typeof pool.query;
  try {
    const response = await fetch(url, init);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    return { seen, body: await response.json() };
  } finally {
    pool.query = query;
  }
}
await statementsOf(atriumUrl, { headers });
const framework = await statementsOf(atriumUrl, { headers });
if (process.env.BENCH_SHOW_SQL) for (const text of framework.seen) console.log(`  sql: ${text}`);
const handProbe = await statementsOf(bareUrl);
if (JSON.stringify(handProbe.seen) !== JSON.stringify(framework.seen)) {
  for (const [i, text] of framework.seen.entries()) if (handProbe.seen[i] !== text) console.log(`  route sql: ${text}`);
  for (const [i, text] of handProbe.seen.entries()) if (framework.seen[i] !== text) console.log(`  hand sql:  ${text}`);
  throw new Error('The hand-written route does not send the statements the claims route sends.');
}
if (!isDeepStrictEqual(handProbe.body, framework.body)) {
  console.log(JSON.stringify(handProbe.body.data[0]), JSON.stringify(framework.body.data[0]));
  throw new Error('The hand-written route does not answer the document the claims route answers.');
}
console.log(
  `  both routes: the same ${framework.seen.length} statements, the same document (${framework.body.data.length} claims, meta ${JSON.stringify(framework.body.meta)})`,
);
if (process.env.BENCH_SHOW_BODY)
  console.log(JSON.stringify({ ...framework.body, data: framework.body.data.slice(0, 1) }, null, 1));

// One request at a time first: the latency of each route without queueing.
const single = async (url: string, init?: RequestInit) => {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await (await fetch(url, init)).arrayBuffer();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[10]!;
};
console.log(
  `  one at a time (median of 20): hand-written ${fmt(await single(bareUrl))} ms, route ${fmt(await single(atriumUrl, { headers }))} ms`,
);
// The claim quick search (g c: part of a number, 5 a page) and one claim's workspace record, one at a
// time through the same server: they read the same tables and must stay fast at the same volume.
{
  const sample = framework.body.data[Math.floor(framework.body.data.length / 2)] as {
    id: string;
    attributes: { number: string };
  };
  const part = sample.attributes.number.slice(-5);
  const search = `${base}/api/claims/claims/?filter%5Bnumber%5D=${part}&page%5Bnumber%5D=1&page%5Bsize%5D=5`;
  const workspace = `${base}/api/claims/claims/${sample.id}/`;
  console.log(
    `  one at a time (median of 20): quick search '${part}' ${fmt(await single(search, { headers }))} ms, ` +
      `claim ${sample.id} ${fmt(await single(workspace, { headers }))} ms`,
  );
}
// A load run ends with requests still queued for the pool (their clients gone); each run starts once
// they are done, so that one route's backlog is not billed to the other.
// The pool is idle for an instant between two statements of one request, so "settled" is a pool
// idle for a whole second (no request spends that long between two statements).
const settle = async () => {
  let idleSince = performance.now();
  while (performance.now() - idleSince < 1000) {
    await new Promise((r) => setTimeout(r, 20));
    if (pool.waitingCount > 0 || pool.idleCount < pool.totalCount) idleSince = performance.now();
  }
};
const load = async (url: string, seconds: number, withHeaders?: Record<string, string>) => {
  await settle();
  const all = await runLoad(url, { connections: CONNECTIONS, seconds, headers: withHeaders });
  // Only answered claims count: an error answered fast (a 500 when the pool's wait times out, a 503
  // from the admission gate) is not served work, and counting it made a failing route look faster.
  const served = all.requests ? (all.requests - all.non2xx) / all.requests : 0;
  const result = { ...all, requestsPerSecond: all.requestsPerSecond * served };
  const load1 = loadavg()[0]!; // the machine's load while this run ended (other work skews the figures)
  await settle();
  return { ...result, load1 };
};
const atriumRuns: (LoadResult & { load1: number })[] = [];
const bareRuns: (LoadResult & { load1: number })[] = [];
await load(bareUrl, 2);
await load(atriumUrl, 2, headers);
for (let round = 0; round < ROUNDS; round++) {
  bareRuns.push(await load(bareUrl, SECONDS));
  atriumRuns.push(await load(atriumUrl, SECONDS, headers));
}
await bare.close();
await atrium.close();
await benchDb?.drop();
const median = <T extends LoadResult>(runs: T[]) =>
  [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)]!;
const hand = median(bareRuns);
const route = median(atriumRuns);
const rps = route.requestsPerSecond / hand.requestsPerSecond;
const p99 = route.p99 / Math.max(hand.p99, 0.001);
console.log(
  `P2 claim list (${CLAIMS} claims, ${CONNECTIONS} connections, ${ROUNDS} round(s) of ${SECONDS} s, ${atrium.database.kind})`,
);
console.log(
  `  hand-written node-postgres  ${fmt(hand.requestsPerSecond, 0).padStart(8)} 2xx/s   p99 ${fmt(hand.p99)} ms   (load average ${fmt(hand.load1, 2)})`,
);
console.log(
  `  GET /api/claims/claims/     ${fmt(route.requestsPerSecond, 0).padStart(8)} 2xx/s   p99 ${fmt(route.p99)} ms   (load average ${fmt(route.load1, 2)})`,
);
console.log(`  req/s ratio ${fmt(rps, 2)} (target ≥ 0.70) ${rps >= 0.7 ? 'MET' : 'NOT MET'}`);
console.log(`  p99 ratio   ${fmt(p99, 2)} (target ≤ 1.50) ${p99 <= 1.5 ? 'MET' : 'NOT MET'}`);
for (const [name, r] of [
  ['hand', hand],
  ['route', route],
] as const) {
  if (r.errors || r.non2xx) console.log(`  ${name}: errors ${r.errors}, non-2xx ${r.non2xx}`);
}
