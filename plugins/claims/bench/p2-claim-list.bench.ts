/* eslint-disable no-console -- a benchmark prints its figures. */
/**
 * P2 claim list: with BENCH_CLAIMS (100,000) claims loaded, the filtered `GET /api/claims/claims/`
 * (status=open, loss_state=IL, 250 a page, through authentication, the access check, zod, the
 * JSON:API serializer and logging) under BENCH_CONNECTIONS (200) connections for BENCH_SECONDS (20)
 * seconds, beside a hand-written Fastify route on the same node-postgres pool running the same SQL
 * (count, page, and the same seven hydration queries) and building the document by hand — in the
 * same run, loaded in alternating rounds. Prints req/s and p99 of each and the ratios.
 * Targets: req/s ratio ≥ 0.7, p99 ratio ≤ 1.5. Set DATABASE_URL to measure on PostgreSQL.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createAtrium, loadConfig } from '@atrium/server';
import { fmt, runLoad, type LoadResult } from '../../../tests/bench/load.js';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const QUERY = 'status=open&loss_state=IL&page%5Bnumber%5D=1&page%5Bsize%5D=250';

const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const config = {
  ...loadConfig({ LOG_LEVEL: 'info' }),
  dataDir: 'memory://',
  databaseUrl: process.env.DATABASE_URL,
  workers: false,
};
const atrium = await createAtrium({ config, seed: 'auto', logStream: sink });
await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(atrium.app!.server.address() as AddressInfo).port}`;
const pool = atrium.database.pool;

// Bulk load: one location and one claim per row, a quarter in Illinois, half of them open.
const started = performance.now();
await pool.query(`
  insert into claims.location (line1, city, state, zip)
  select i || ' Bench St', case when i % 4 = 0 then 'Chicago' else 'Denver' end,
         case when i % 4 = 0 then 'IL' else 'CO' end, case when i % 4 = 0 then '60601' else '80202' end
  from generate_series(1, ${CLAIMS}) as i`);
await pool.query(`
  insert into claims.claim (number, fnol_number, status, product_id, date_of_loss, loss_description, loss_location_id,
                            primary_adjuster, created_by)
  select 'BEN-' || lpad(i::text, 7, '0'), 'BEN-' || lpad(i::text, 7, '0'),
         case when i % 2 = 0 then 'open' else 'closed' end, (select min(id) from claims.product),
         now() - (i || ' minutes')::interval, 'Benchmark loss', l.id,
         case when i % 3 = 0 then null else 'adjuster@atrium.test' end, 'bench'
  from generate_series(1, ${CLAIMS}) as i
  join (select id, row_number() over (order by id desc) as n from claims.location) l on l.n = i`);
await pool.query('analyze');
console.log(`  loaded ${CLAIMS} claims in ${fmt((performance.now() - started) / 1000)} s (${atrium.database.kind})`);

const signIn = await fetch(`${base}/api/identity/sign-in`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'adjuster@atrium.test', password: 'Atrium!demo1' }),
});
const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
  .access_token;
const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };

// The hand-written route: the same statements the claims route sends, on the same pool.
const bare = Fastify({ logger: false });
bare.get('/claims', async (request) => {
  const q = request.query as { status: string; loss_state: string };
  const where = `c.status = any($1) and upper(l.state) = upper($2)`;
  const count = await pool.query(
    `select count(*)::int as n from claims.claim c join claims.location l on l.id = c.loss_location_id where ${where}`,
    [[q.status], q.loss_state],
  );
  const page = await pool.query(
    `select c.* from claims.claim c join claims.location l on l.id = c.loss_location_id where ${where} order by c.id desc, c.id desc limit 250 offset 0`,
    [[q.status], q.loss_state],
  );
  const ids = page.rows.map((r) => r.id);
  const locationIds = page.rows.map((r) => r.loss_location_id).filter(Boolean);
  const lookupIds = page.rows.flatMap((r) => [r.loss_category_id, r.reported_method_id]).filter(Boolean);
  const [locations, perils, tags, exposures, parties, lookups, risks] = await Promise.all([
    pool.query('select * from claims.location where id = any($1)', [locationIds]),
    pool.query(
      'select p.claim_id, l.name from claims.claim_peril p join claims.lookup l on l.id = p.peril_id where p.claim_id = any($1) order by l.name',
      [ids],
    ),
    pool.query('select * from claims.claim_tag where claim_id = any($1) order by tag_id', [ids]),
    pool.query('select id, claim_id from claims.exposure where claim_id = any($1) order by number', [ids]),
    pool.query('select id, claim_id, role from claims.party where claim_id = any($1) order by display_number', [ids]),
    pool.query('select id, name from claims.lookup where id = any($1)', [lookupIds]),
    pool.query(
      'select claim_id, count(*) filter (where is_first_party_risk) as f, count(*) filter (where not is_first_party_risk) as u from claims.risk where claim_id = any($1) group by claim_id',
      [ids],
    ),
  ]);
  const locationById = new Map(locations.rows.map((l) => [l.id, l]));
  void lookups;
  void risks;
  return {
    data: page.rows.map((r) => ({
      type: 'claim',
      id: String(r.id),
      attributes: {
        number: r.number,
        status: r.status,
        date_of_loss: r.date_of_loss,
        loss_description: r.loss_description,
        loss_location: locationById.get(r.loss_location_id) ?? null,
        perils: perils.rows.filter((p) => p.claim_id === r.id).map((p) => p.name),
        primary_adjuster: r.primary_adjuster,
        version: r.version,
      },
      relationships: {
        tags: {
          data: tags.rows.filter((t) => t.claim_id === r.id).map((t) => ({ type: 'tag', id: String(t.tag_id) })),
        },
        exposures: {
          data: exposures.rows.filter((e) => e.claim_id === r.id).map((e) => ({ type: 'exposure', id: String(e.id) })),
        },
        parties: {
          data: parties.rows.filter((p) => p.claim_id === r.id).map((p) => ({ type: 'party', id: String(p.id) })),
        },
      },
    })),
    meta: { count: count.rows[0].n },
  };
});
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/claims?status=open&loss_state=IL`;
const atriumUrl = `${base}/api/claims/claims/?${QUERY}`;

const probe = await fetch(atriumUrl, { headers });
if (probe.status !== 200) throw new Error(`The claims route answered ${probe.status}: ${await probe.text()}`);

const atriumRuns: LoadResult[] = [];
const bareRuns: LoadResult[] = [];
await runLoad(bareUrl, { connections: CONNECTIONS, seconds: 2 });
await runLoad(atriumUrl, { connections: CONNECTIONS, seconds: 2, headers });
for (let round = 0; round < ROUNDS; round++) {
  bareRuns.push(await runLoad(bareUrl, { connections: CONNECTIONS, seconds: SECONDS }));
  atriumRuns.push(await runLoad(atriumUrl, { connections: CONNECTIONS, seconds: SECONDS, headers }));
}
await bare.close();
await atrium.close();
const median = (runs: LoadResult[]) =>
  [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)]!;
const hand = median(bareRuns);
const route = median(atriumRuns);
const rps = route.requestsPerSecond / hand.requestsPerSecond;
const p99 = route.p99 / Math.max(hand.p99, 0.001);
console.log(
  `P2 claim list (${CLAIMS} claims, ${CONNECTIONS} connections, ${ROUNDS} round(s) of ${SECONDS} s, ${atrium.database.kind})`,
);
console.log(
  `  hand-written node-postgres  ${fmt(hand.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(hand.p99)} ms`,
);
console.log(
  `  GET /api/claims/claims/     ${fmt(route.requestsPerSecond, 0).padStart(8)} req/s   p99 ${fmt(route.p99)} ms`,
);
console.log(`  req/s ratio ${fmt(rps, 2)} (target ≥ 0.70) ${rps >= 0.7 ? 'MET' : 'NOT MET'}`);
console.log(`  p99 ratio   ${fmt(p99, 2)} (target ≤ 1.50) ${p99 <= 1.5 ? 'MET' : 'NOT MET'}`);
for (const [name, r] of [
  ['hand', hand],
  ['route', route],
] as const) {
  if (r.errors || r.non2xx) console.log(`  ${name}: errors ${r.errors}, non-2xx ${r.non2xx}`);
}
