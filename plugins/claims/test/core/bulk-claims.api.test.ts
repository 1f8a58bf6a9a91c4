import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listClaims } from '../../server/core/claim-list-query.js';
import { LedgerBalances } from '../../server/ledger/balances.js';
import type { EntryKind, ReserveCategory } from '../../server/ledger/ledger-entry.js';
import { parseMoney } from '../../server/ledger/money.js';
import { seedBulkClaims } from '../../server/seed/bulk-claims.js';
import { startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * The bulk claim generator (`npm run seed -- --claims N`) and the list's keyset paging and count
 * estimate it exists for: generated claims obey the ledger's rules and the app's numbering, and
 * page[after] walks the same claims as page[number].
 */
let server: ClaimsTestServer;
let adjuster: Caller;
const BULK = 300;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  await seedBulkClaims(server.atrium.database.db, BULK);
}, 300_000);
afterAll(async () => server?.close());

const rows = async <T>(query: ReturnType<typeof sql>) => (await server.atrium.database.db.execute(query)).rows as T[];

interface ListDocument {
  data: { id: string; attributes: { number: string } }[];
  links: { next: string | null; self: string };
  meta: { count: number; pages: number; after?: string; count_estimated?: boolean };
}
const list = async (path: string) => {
  const response = await adjuster('GET', path);
  expect(response.status).toBe(200);
  return (await response.json()) as ListDocument;
};

describe('bulk claims', () => {
  it('writes a ledger the posting rules would have written', async () => {
    const entries = await rows<{
      id: string;
      transaction_id: number;
      claim_id: number;
      exposure_id: number;
      reserve_category: ReserveCategory;
      kind: EntryKind;
      amount: string;
    }>(sql`select * from claims.ledger_entry order by id`);
    const balances = new LedgerBalances();
    const transactions = new Map(
      (
        await rows<{ id: number; type: string; amount: string; details: Record<string, unknown> }>(
          sql`select id, type, amount, details from claims.ledger_transaction`,
        )
      ).map((t) => [t.id, t]),
    );
    for (const entry of entries) {
      balances.apply({
        claimId: entry.claim_id,
        exposureId: entry.exposure_id,
        category: entry.reserve_category,
        kind: entry.kind,
        amount: parseMoney(entry.amount),
      });
      const sums = balances.category(entry.exposure_id, entry.reserve_category);
      expect(sums.reserve).toBeGreaterThanOrEqual(0n);
      const transaction = transactions.get(entry.transaction_id)!;
      if (transaction.type === 'reserve')
        expect(transaction.details.new_amount).toBe(sums.reserve.toString().replace(/(\d\d)$/, '.$1'));
    }
    // Every posted transaction has its entries, and a payment erodes what it pays.
    const lonely = await rows(sql`select id from claims.ledger_transaction t
      where t.status = 'posted' and not exists (select 1 from claims.ledger_entry e where e.transaction_id = t.id)`);
    expect(lonely).toEqual([]);
    // Closed generated claims have no open reserve left.
    const [open] = await rows<{ reserve: string | null }>(sql`select sum(e.amount) as reserve
      from claims.ledger_entry e join claims.claim c on c.id = e.claim_id
      where c.status = 'closed' and c.created_by = 'adjuster@atrium.test' and c.id > (select max(id) - ${BULK} from claims.claim)
        and e.kind in ('reserve_change', 'reserve_erosion', 'reserve_close')`);
    expect(open!.reserve).toBe('0.00');
  });

  it('numbers claims from the FNOL sequence, so the next FNOL continues after them', async () => {
    const [last] = await rows<{ number: string }>(sql`select number from claims.claim order by id desc limit 1`);
    const created = await adjuster('POST', '/claims/', { data: { type: 'claim', attributes: {} } });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { data: { attributes: { number: string } } };
    const value = (n: string) => Number(n.split('-').at(-1));
    expect(value(body.data.attributes.number)).toBe(value(last!.number) + 1);
  });

  it('pages with page[after] through the same claims as page[number]', async () => {
    const numbered = await list('/claims/?status=open&page[size]=1000');
    const walked: string[] = [];
    let path: string | null = '/claims/?status=open&page[size]=40&page[after]=';
    while (path) {
      const page = await list(path.replace('/api/claims', ''));
      walked.push(...page.data.map((c) => c.id));
      expect(page.meta.count).toBe(numbered.meta.count);
      path = page.links.next;
      if (path) expect(path).toContain('page%5Bafter%5D=');
    }
    expect(walked).toEqual(numbered.data.map((c) => c.id));
    // By number, ascending, too.
    const byNumber = await list('/claims/?sort=number&page[size]=25&page[after]=');
    const next = await list(byNumber.links.next!.replace('/api/claims', ''));
    const both = [...byNumber.data, ...next.data].map((c) => c.attributes.number);
    expect(both).toEqual([...both].sort());
    // Without page[after] the meta is the spec's: no cursor.
    expect(Object.keys((await list('/claims/?page[size]=5')).meta).sort()).toEqual(['count', 'pages']);
  });

  it('refuses a cursor it did not make, or one for a sort it cannot follow', async () => {
    const bad = await adjuster('GET', '/claims/?page[after]=not-a-cursor');
    expect(bad.status).toBe(400);
    const byDate = await adjuster('GET', '/claims/?sort=-date_of_loss&page[after]=');
    expect(byDate.status).toBe(400);
    expect(JSON.stringify(await byDate.json())).toContain('page[after] works with sort');
  });

  it('counts exactly up to the limit and labels an estimate past it', async () => {
    const db = server.atrium.database.db;
    const page = { number: 1, size: 10, offset: 0 };
    const exact = await listClaims(db, { query: { status: 'open' }, page });
    expect(exact.totalIsEstimate).toBe(false);
    const estimated = await listClaims(db, { query: { status: 'open' }, page, exactCountLimit: 50 });
    expect(estimated.totalIsEstimate).toBe(true);
    expect(estimated.total).toBeGreaterThan(50);
    expect(estimated.rows.map((r) => r.id)).toEqual(exact.rows.map((r) => r.id));
  });
});
