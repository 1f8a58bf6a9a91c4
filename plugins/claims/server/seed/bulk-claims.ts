import { sql, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '@atrium/sdk/server';
import { DEMO_PRODUCTS, FIRST_NAMES, LAST_NAMES } from './demo-lookups.js';

/**
 * A carrier's volume of claims for load tests and benchmarks (`npm run seed -- --claims N`, the P2
 * benchmark): N claims with their loss locations, parties (insured, claimant, sometimes a witness),
 * a risk, one to three exposures, perils, assignments and a posted ledger (reserves, payments that
 * the reserve covers, final payments that close it on closed claims, recoveries) — written set-based
 * with `insert … select … from generate_series`, 100,000 claims a statement, never row by row.
 *
 * Runs on top of the claims demo (it reuses its products, lookups, payees and adjusters) and appends:
 * ids continue after the largest existing ones (written with OVERRIDING SYSTEM VALUE and the identity
 * sequences moved past them afterwards), claim numbers come from the same `claim` number sequence
 * the FNOL takes them from, transaction numbers from the ledger's sequence. Every slot is arithmetic
 * (claim i has party ids 3i-2…3i, exposure ids 3i-2…3i, transaction ids 4 per exposure slot), so
 * nothing is looked up row by row; unused slots are gaps in the ids.
 *
 * The ledger obeys the posting rules (server/ledger/posting-rules.ts): every payment is at most the
 * open reserve it erodes, a final payment closes the rest, no reserve goes below zero, each posted
 * transaction has exactly the entries the posting service would write; balances are sums of entries
 * as always. Not generated: audit log rows, coverages, attachments (none is needed by the list, the
 * search or the claim workspace; the posting service writes audit rows for new activity as usual).
 * Deterministic: claim i is always the same claim.
 */
/** Bumped whenever the generated data changes: benchmark templates built by an older one are rebuilt. */
export const BULK_CLAIMS_VERSION = 1;

export interface BulkClaimsReport {
  claims: number;
  parties: number;
  exposures: number;
  transactions: number;
  entries: number;
  seconds: number;
}

const CHUNK = 100_000;
/** From this many claims on, indexes and foreign keys are dropped for the load and rebuilt after. */
const BULK_REBUILD_FROM = 10_000;

/** Loss locations: [city, county, state, zip]; Chicago is one in twenty (the P2 filter selects IL). */
const PLACES: [string, string, string, string][] = [
  ['New York', 'New York', 'NY', '10001'],
  ['Chicago', 'Cook', 'IL', '60601'],
  ['Los Angeles', 'Los Angeles', 'CA', '90012'],
  ['Houston', 'Harris', 'TX', '77002'],
  ['Phoenix', 'Maricopa', 'AZ', '85004'],
  ['Philadelphia', 'Philadelphia', 'PA', '19107'],
  ['San Antonio', 'Bexar', 'TX', '78205'],
  ['San Diego', 'San Diego', 'CA', '92101'],
  ['Dallas', 'Dallas', 'TX', '75201'],
  ['Jacksonville', 'Duval', 'FL', '32202'],
  ['Columbus', 'Franklin', 'OH', '43215'],
  ['Charlotte', 'Mecklenburg', 'NC', '28202'],
  ['Indianapolis', 'Marion', 'IN', '46204'],
  ['Seattle', 'King', 'WA', '98104'],
  ['Denver', 'Denver', 'CO', '80202'],
  ['Nashville', 'Davidson', 'TN', '37201'],
  ['Boston', 'Suffolk', 'MA', '02108'],
  ['Detroit', 'Wayne', 'MI', '48226'],
  ['Atlanta', 'Fulton', 'GA', '30303'],
  ['Miami', 'Miami-Dade', 'FL', '33101'],
];
const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Harbor Rd', 'Cedar Ln', 'Elm St', 'Park Ave', 'Lake Shore Dr'];
const DESCRIPTIONS = [
  ['Water from a burst pipe damaged the kitchen.', 'Rear-ended at a stop light.'],
  ['Hail damaged the roof and two windows.', 'Sideswiped while parked overnight.'],
  ['A kitchen fire damaged cabinets and the ceiling.', 'Hit a deer on the highway.'],
  ['Burglary: electronics and jewelry taken.', 'Windshield cracked by a stone.'],
];
const FIVE_YEARS_S = 5 * 365 * 86_400;

/** A text[] / int[] literal for SQL (values are ours, but quote them properly anyway). */
const textArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`);
const intArray = (values: readonly number[]) => sql.raw(`array[${values.map((v) => Math.trunc(v)).join(', ')}]::int[]`);
const n = (value: number) => sql.raw(String(Math.trunc(value)));

async function one<T>(db: Queryable, query: SQL): Promise<T> {
  const result = await db.execute(query);
  return result.rows[0] as T;
}

async function ids(db: Queryable, query: SQL): Promise<number[]> {
  const result = await db.execute(query);
  return result.rows.map((r) => Number((r as { id: unknown }).id));
}

/** What the generator takes from the claims demo: products with their lookups, payees, roles. */
async function demoReferences(db: Queryable) {
  const products = [];
  for (const def of DEMO_PRODUCTS) {
    const [productId] = await ids(db, sql`select id from claims.product where name = ${def.name}`);
    if (productId === undefined) {
      throw new Error(`The claims demo is missing (no '${def.name}' product): seed the demo data first.`);
    }
    const perils = await ids(
      db,
      sql`select id from claims.lookup where kind = 'peril' and product_id = ${productId} order by sort_order, id`,
    );
    const categories = await ids(
      db,
      sql`select id from claims.lookup where kind = 'loss-category' and product_id = ${productId} order by sort_order, id`,
    );
    const [riskTypeId] = await ids(
      db,
      sql`select id from claims.risk_type where product_id = ${productId} order by id`,
    );
    products.push({ def, productId, perils, categories, riskTypeId: riskTypeId ?? null });
  }
  const methods = await ids(db, sql`select id from claims.lookup where kind = 'reported-method' order by sort_order`);
  const [person] = await ids(db, sql`select id from claims.lookup where kind = 'party-type' and name = 'Person'`);
  const [primaryRole] = await ids(
    db,
    sql`select id from claims.lookup where kind = 'claim-user-role' and name = 'Primary Adjuster'`,
  );
  const payees = await ids(db, sql`select id from claims.payee order by id limit 4`);
  if (!person || !primaryRole || payees.length === 0) {
    throw new Error('The claims demo is missing (lookups or payees): seed the demo data first.');
  }
  return { products, methods, person, primaryRole, payees };
}

/** The tables the generator fills. */
const TABLES = [
  'location',
  'claim',
  'claim_peril',
  'claim_assignment',
  'party',
  'risk',
  'exposure',
  'ledger_transaction',
  'ledger_entry',
];

/**
 * PostgreSQL's advice for populating a database: drop the secondary indexes and foreign keys, load,
 * and create them again — one sort per index and one join per foreign key instead of an index
 * insertion and a trigger-run lookup per row (about three times faster here). Their definitions are
 * read from the catalog and replayed verbatim inside the same transaction, so nothing can be lost or
 * changed; primary keys (which the foreign keys need) and indexes that back constraints stay.
 */
async function withoutSecondaryIndexes<T>(tx: Queryable, load: () => Promise<T>): Promise<T> {
  const tables = sql.raw(TABLES.map((t) => `'claims.${t}'::regclass`).join(', '));
  const foreignKeys = (
    await tx.execute<{ table: string; name: string; definition: string }>(sql`
      select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint where contype = 'f' and conrelid in (${tables})`)
  ).rows;
  const indexes = (
    await tx.execute<{ name: string; definition: string }>(sql`
      select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition
      from pg_index i where indrelid in (${tables}) and not indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`)
  ).rows;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  for (const fk of foreignKeys) await tx.execute(sql.raw(`alter table ${fk.table} drop constraint ${quote(fk.name)}`));
  for (const index of indexes) await tx.execute(sql.raw(`drop index ${index.name}`));
  const result = await load();
  // Index builds sort in memory and foreign key checks hash in memory rather than spill to disk.
  await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
  await tx.execute(sql`set local work_mem = '256MB'`);
  for (const index of indexes) await tx.execute(sql.raw(index.definition));
  for (const fk of foreignKeys) {
    await tx.execute(sql.raw(`alter table ${fk.table} add constraint ${quote(fk.name)} ${fk.definition}`));
  }
  return result;
}

const maxId = (table: string) => sql.raw(`(select coalesce(max(id), 0) from claims.${table})`);

/**
 * Appends `count` claims (see above). `progress` hears about each chunk. On PostgreSQL 1,000,000
 * claims take minutes; on PGlite keep to 100,000 or so.
 */
export async function seedBulkClaims(
  database: Database,
  count: number,
  progress: (message: string) => void = () => {},
): Promise<BulkClaimsReport> {
  if (!Number.isInteger(count) || count < 1) throw new Error('The number of claims must be a whole number above 0.');
  const started = performance.now();
  const report = await database.transaction(async (tx) => {
    // A bulk load that a crash would simply rerun: no need to wait for each WAL flush.
    await tx.execute(sql`set local synchronous_commit = off`);
    // Nothing else writes claims while we take id ranges and numbers.
    await tx.execute(
      sql`lock table claims.claim, claims.location, claims.party, claims.risk, claims.exposure, claims.ledger_transaction in exclusive mode`,
    );
    const refs = await demoReferences(tx);
    const base = await one<Record<string, string>>(
      tx,
      sql`select ${maxId('claim')} as claim, ${maxId('location')} as location, ${maxId('party')} as party,
                 ${maxId('risk')} as risk, ${maxId('exposure')} as exposure, ${maxId('ledger_transaction')} as txn`,
    );
    const [C0, L0, P0, R0, X0, T0] = ['claim', 'location', 'party', 'risk', 'exposure', 'txn'].map((k) =>
      Number(base[k]),
    ) as [number, number, number, number, number, number];
    // Claim numbers: take `count` values of the claim number sequence at once.
    const { first } = await one<{ first: string }>(
      tx,
      sql`insert into claims.number_sequence (name, next_value) values ('claim', ${count + 1})
          on conflict (name) do update set next_value = claims.number_sequence.next_value + ${count}
          returning next_value - ${count} as first`,
    );
    const { prefix } = await one<{ prefix: string | null }>(
      tx,
      sql`select (select claim_prefix from core.carrier order by is_primary desc, id limit 1) as prefix`,
    );
    // Transaction numbers: S0 + (id - T0), then the ledger's number sequence moves past them.
    const { s0 } = await one<{ s0: string }>(tx, sql`select nextval('claims.ledger_transaction_number_seq') - 1 as s0`);
    const S0 = Number(s0);
    const step = Math.max(1, Math.floor(FIVE_YEARS_S / count));
    const totals = { claims: 0, parties: 0, exposures: 0, transactions: 0, entries: 0 };
    const load = async () => {
      for (let lo = 1; lo <= count; lo += CHUNK) {
        const hi = Math.min(count, lo + CHUNK - 1);
        const added = await insertChunk(tx, {
          lo,
          hi,
          count,
          step,
          firstNumber: Number(first),
          prefix: prefix || 'CLM',
          C0,
          L0,
          P0,
          R0,
          X0,
          T0,
          S0,
          refs,
        });
        for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += added[key];
        progress(`${hi.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} claims`);
      }
    };
    // A large load rebuilds the indexes afterwards; a small one into a large book keeps them.
    if (count >= BULK_REBUILD_FROM) {
      await withoutSecondaryIndexes(tx, load);
      progress('indexes and foreign keys rebuilt');
    } else await load();
    // The identity sequences continue after the ids written here.
    for (const table of ['claim', 'location', 'party', 'risk', 'exposure', 'ledger_transaction']) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('claims.${table}', 'id'), (select max(id) from claims.${table}))`,
        ),
      );
    }
    await tx.execute(sql`select setval('claims.ledger_transaction_number_seq',
      greatest(${S0 + 1}, ${S0 - T0} + (select max(id) from claims.ledger_transaction)))`);
    return totals;
  });
  progress('analyzing');
  await database.execute(sql`analyze claims.claim, claims.location, claims.party, claims.risk, claims.exposure,
    claims.claim_peril, claims.claim_assignment, claims.ledger_transaction, claims.ledger_entry, claims.claim_balance`);
  return { ...report, seconds: (performance.now() - started) / 1000 };
}

type Product = Awaited<ReturnType<typeof demoReferences>>['products'][number];

interface Chunk {
  lo: number;
  hi: number;
  count: number;
  step: number;
  firstNumber: number;
  prefix: string;
  C0: number;
  L0: number;
  P0: number;
  R0: number;
  X0: number;
  T0: number;
  /** The transaction number before the first one written (numbers are S0 + (id - T0)). */
  S0: number;
  refs: Awaited<ReturnType<typeof demoReferences>>;
}

async function insertChunk(tx: Queryable, c: Chunk) {
  const { refs } = c;
  const [home, auto] = refs.products as [Product, Product];
  const rowsOf = async (query: SQL) => (await tx.execute(query)).rowCount ?? 0;
  // One row per claim of the chunk, with everything the inserts below derive from it.
  await tx.execute(sql`drop table if exists bulk_claim`);
  await tx.execute(sql`
    create temp table bulk_claim on commit drop as
    select i,
           ${n(c.C0)} + i as claim_id,
           ${n(c.L0)} + i as location_id,
           ${n(c.R0)} + i as risk_id,
           ${n(c.P0)} + 3 * (i - 1) as party0,
           ${n(c.X0)} + 3 * (i - 1) as exposure0,
           i % 2 as p,
           case when i % 20 = 7 then 'draft' when i % 29 = 0 then 'reopened' when i % 3 = 0 then 'closed' else 'open' end as status,
           (i * 13 + i / 20) % 20 as place,
           now() - make_interval(secs => (${n(c.count)} - i) * ${n(c.step)}::float8 + 86400) as loss_at,
           case i % 4 when 0 then 'adjuster@atrium.test' when 1 then 'adjuster@atrium.test'
                      when 2 then 'admin@atrium.test' end as adjuster,
           (${textArray(FIRST_NAMES)})[1 + i % ${n(FIRST_NAMES.length)}] || ' ' ||
             (${textArray(LAST_NAMES)})[1 + (i / 10) % ${n(LAST_NAMES.length)}] as insured_name,
           (${textArray(FIRST_NAMES)})[1 + (i / 7) % ${n(FIRST_NAMES.length)}] || ' ' ||
             (${textArray(LAST_NAMES)})[1 + (i * 3 + 1) % ${n(LAST_NAMES.length)}] as claimant_name
    from generate_series(${n(c.lo)}::int, ${n(c.hi)}::int) as i`);
  // Adjusted claims have an adjuster; drafts never do.
  await tx.execute(sql`update bulk_claim set adjuster = null where status = 'draft'`);

  const placeCol = (k: number) => textArray(PLACES.map((p) => p[k]!));
  await tx.execute(sql`
    insert into claims.location (id, line1, city, county, state, zip)
    overriding system value
    select location_id, (100 + i % 9800)::text || ' ' || (${textArray(STREETS)})[1 + i % ${n(STREETS.length)}],
           (${placeCol(0)})[1 + place], (${placeCol(1)})[1 + place], (${placeCol(2)})[1 + place], (${placeCol(3)})[1 + place]
    from bulk_claim order by i`);

  const number = sql.raw(
    `'${c.prefix.replace(/'/g, "''")}-' || lpad((${c.firstNumber - 1} + i)::text, greatest(6, length((${c.firstNumber - 1} + i)::text)), '0')`,
  );
  const byProduct = <T>(pick: (product: Product) => T) => [pick(home), pick(auto)];
  const claims = await rowsOf(sql`
    insert into claims.claim (id, number, fnol_number, status, product_id, date_of_loss, date_of_loss_timezone,
      loss_description, loss_location_id, loss_category_id, reported_method_id, reported_date, reported_by,
      policy_number, policy_type, current_fnol_step, status_change_reason, primary_adjuster, primary_insured_party_id,
      created_by, submitted_by, created_at, updated_at)
    overriding system value
    select claim_id, ${number}, ${number}, status, (${intArray(byProduct((x) => x.productId))})[1 + p], loss_at,
           'America/New_York',
           (case p when 0 then ${textArray(DESCRIPTIONS.map((d) => d[0]!))} else ${textArray(DESCRIPTIONS.map((d) => d[1]!))} end)[1 + (i / 2) % ${n(DESCRIPTIONS.length)}],
           location_id,
           case p when 0 then (${intArray(home.categories)})[1 + (i / 2) % ${n(home.categories.length)}]
                  else (${intArray(auto.categories)})[1 + (i / 2) % ${n(auto.categories.length)}] end,
           (${intArray(refs.methods)})[1 + i % ${n(refs.methods.length)}],
           case when status <> 'draft' then loss_at + make_interval(hours => 24 + i % 48) end,
           jsonb_build_object('name', insured_name, 'relation', 'Insured', 'phone', '+1 555 ' || lpad((i % 10000)::text, 4, '0'), 'email', ''),
           (case p when 0 then 'HO-' else 'PA-' end) || lpad((200000 + i / 2)::text, 7, '0'),
           (${textArray(byProduct((x) => x.def.policyTypeName))})[1 + p],
           case when status = 'draft' then 'reported-by' end,
           case status when 'closed' then 'Claim Paid' when 'reopened' then 'New Information' end,
           adjuster,
           case when status <> 'draft' then party0 + 1 end,
           'adjuster@atrium.test',
           case when status <> 'draft' then 'adjuster@atrium.test' end,
           loss_at, loss_at + make_interval(days => 2)
    from bulk_claim order by i`);

  await tx.execute(sql`
    insert into claims.claim_peril (claim_id, peril_id)
    select claim_id, case p when 0 then (${intArray(home.perils)})[1 + (i / 2) % ${n(home.perils.length)}]
                            else (${intArray(auto.perils)})[1 + (i / 2) % ${n(auto.perils.length)}] end
    from bulk_claim order by i`);
  await tx.execute(sql`
    insert into claims.claim_assignment (username, role_id, claim_id, created_at)
    select adjuster, ${refs.primaryRole}, claim_id, loss_at + make_interval(days => 1)
    from bulk_claim where adjuster is not null order by i`);

  // Parties: 1 insured, 2 claimant, 3 witness (one claim in four); drafts have none yet.
  const parties = await rowsOf(sql`
    insert into claims.party (id, claim_id, display_number, name, role, party_type_id, phone, email)
    overriding system value
    select party0 + k, claim_id, k, case k when 1 then insured_name when 2 then claimant_name else 'Sam Witness' end,
           (array['insured', 'claimant', 'witness'])[k], ${refs.person},
           '+1 555 ' || lpad(((i * 3 + k) % 10000)::text, 4, '0'),
           lower(replace(case k when 1 then insured_name when 2 then claimant_name else 'Sam Witness' end, ' ', '.')) || '@example.test'
    from bulk_claim, generate_series(1, 3) as k
    where status <> 'draft' and (k < 3 or i % 4 = 0)
    order by i, k`);

  await tx.execute(sql`
    insert into claims.risk (id, claim_id, risk_type_id, name, is_first_party_risk)
    overriding system value
    select risk_id, claim_id, (${intArray(byProduct((x) => x.riskTypeId ?? 0))})[1 + p],
           case p when 0 then (100 + i % 9800)::text || ' ' || (${textArray(STREETS)})[1 + i % ${n(STREETS.length)}]
                  else (2010 + i % 15)::text || ' ' || (array['Sedan', 'Pickup', 'SUV', 'Hatchback'])[1 + i % 4] end,
           true
    from bulk_claim where status <> 'draft' order by i`);

  // Exposures: 1 first-party (every submitted claim), 2 third-party (half), 3 a second coverage (one in five).
  const coverage = (k: number) => textArray(byProduct((x) => x.def.coverages[k - 1]!));
  const exposures = await rowsOf(sql`
    insert into claims.exposure (id, claim_id, number, exposure_name, description, status, is_injury, party_id, risk_id,
                                 adjuster, status_change_reason, created_at, updated_at)
    overriding system value
    select exposure0 + k, claim_id, k,
           case k when 1 then (${coverage(1)})[1 + p] when 2 then (${coverage(3)})[1 + p] else (${coverage(2)})[1 + p] end,
           case k when 2 then 'Third-party claim' else 'First-party damage' end,
           case status when 'reopened' then 'reopened' when 'closed' then 'closed' else 'open' end,
           k = 2 and p = 1, party0 + case k when 2 then 2 else 1 end, case k when 2 then null else risk_id end,
           adjuster, case status when 'open' then null else 'Paid in Full' end,
           loss_at + make_interval(days => 1), loss_at + make_interval(days => 2)
    from bulk_claim, generate_series(1, 3) as k
    where status <> 'draft' and (k = 1 or (k = 2 and i % 2 = 0) or (k = 3 and i % 5 = 0))
    order by i, k`);

  // The ledger, per exposure: t1 indemnity reserve R; t2 an indemnity payment P ≤ R (three in four
  // open exposures; every closed one, final, closing the rest of R); t3 an expense reserve (open and
  // reopened exposures); t4 a salvage or subrogation recovery (one closed exposure in six).
  await tx.execute(sql`drop table if exists bulk_txn`);
  await tx.execute(sql`
    create temp table bulk_txn on commit drop as
    select ${n(c.T0)} + 4 * (b.exposure0 + k - ${n(c.X0)} - 1) + t as id, b.claim_id, b.exposure0 + k as exposure_id, t,
           s.seed, b.status = 'closed' as final, b.loss_at + make_interval(days => 2 + t) as at,
           (1500 + (s.seed % 20) * 450)::numeric(14, 2) as reserve,
           (floor((1500 + (s.seed % 20) * 450) * 0.4) + 0.5)::numeric(14, 2) as paid,
           (250 + (s.seed % 8) * 125)::numeric(14, 2) as expense,
           (200 + (s.seed % 10) * 35)::numeric(14, 2) as recovered
    from bulk_claim b
    cross join generate_series(1, 3) as k
    cross join lateral (select b.i * 7 + k * 13 as seed) s
    cross join generate_series(1, 4) as t
    where b.status <> 'draft' and (k = 1 or (k = 2 and b.i % 2 = 0) or (k = 3 and b.i % 5 = 0))
      and (t = 1
       or (t = 2 and (b.status = 'closed' or s.seed % 4 <> 0))
       or (t = 3 and b.status <> 'closed')
       or (t = 4 and b.status = 'closed' and s.seed % 6 = 0))`);
  const payees = intArray(refs.payees);
  const transactions = await rowsOf(sql`
    insert into claims.ledger_transaction (id, number, claim_id, exposure_id, type, reserve_category, amount, status,
      posted_at, requested_by, requested_at, details, authority)
    overriding system value
    select id, 'TXN-' || lpad((${n(c.S0 - c.T0)} + id)::text, 8, '0'), claim_id, exposure_id,
           (array['reserve', 'payment', 'reserve', 'recovery'])[t],
           (array['indemnity', 'indemnity', 'expense', 'indemnity'])[t],
           case t when 1 then reserve when 2 then paid when 3 then expense else recovered end,
           'posted', at, 'adjuster@atrium.test', at,
           case t
             when 1 then jsonb_build_object('comments', 'Initial indemnity reserve.', 'new_amount', reserve::text)
             when 2 then jsonb_build_object('comments', case when final then 'Final settlement.' else 'Partial payment.' end,
                                            'pay_code', 'loss', 'payment_method', case when seed % 2 = 0 then 'check' else 'ach' end,
                                            'payee_ids', jsonb_build_array((${payees})[1 + seed % ${n(refs.payees.length)}]),
                                            'final_payment', final)
             when 3 then jsonb_build_object('comments', 'Initial expense reserve.', 'new_amount', expense::text)
             else jsonb_build_object('recovery_type', case when seed % 2 = 0 then 'salvage' else 'subrogation' end,
                                     'received_date', to_char(at, 'YYYY-MM-DD'), 'comments', 'Recovered after settlement.',
                                     'payor_id', null, 'party_id', null)
           end,
           case when t = 4 then null
                else '{"requested_by": "adjuster@atrium.test", "limit_id": null, "exceeded": [],
                       "access_policy_allows": true, "reason": null}'::jsonb end
    from bulk_txn order by id`);
  // The entries the posting rules write for each transaction, in transaction order.
  const entries = await rowsOf(sql`
    insert into claims.ledger_entry (transaction_id, claim_id, exposure_id, reserve_category, kind, amount, posted_at)
    select t.id, t.claim_id, t.exposure_id, (array['indemnity', 'indemnity', 'expense', 'indemnity'])[t.t], e.kind, e.amount, t.at
    from bulk_txn t
    cross join lateral (values
      (1, case t.t when 1 then 'reserve_change' when 2 then 'payment' when 3 then 'reserve_change' else 'recovery' end,
          case t.t when 1 then t.reserve when 2 then t.paid when 3 then t.expense else t.recovered end),
      (2, case when t.t = 2 then 'reserve_erosion' end, -t.paid),
      (3, case when t.t = 2 and t.final then 'reserve_close' end, t.paid - t.reserve)
    ) as e(k, kind, amount)
    where e.kind is not null
    order by t.id, e.k`);
  return { claims, parties, exposures, transactions, entries };
}
