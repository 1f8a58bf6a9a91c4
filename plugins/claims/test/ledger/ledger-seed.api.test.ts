import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../../server/ledger/money.js';
import { financialsOf, paymentDoc, startLedgerServer, type LedgerTestServer } from './ledger-test-server.js';

/** The demo seed (claims module seed → seedLedger) leaves a ledger that obeys the ledger's rules. */
let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer({ demo: true });
});
afterAll(async () => {
  await server?.close();
});

describe('demo accounting', () => {
  it('posts reserves, payments, voids and recoveries with no reserve below zero', async () => {
    const db = server.atrium.database.db;
    const byType = await db.execute(
      sql`select type, status, count(*)::int as n from claims.ledger_transaction group by type, status order by type`,
    );
    const counts = Object.fromEntries(byType.rows.map((r) => [r.type as string, r.n as number]));
    expect(counts.reserve).toBeGreaterThan(0);
    expect(counts.payment).toBeGreaterThan(0);
    expect(counts.recovery).toBeGreaterThan(0);
    expect(counts.payment_void).toBeGreaterThan(0);
    expect(byType.rows.every((r) => r.status === 'posted')).toBe(true);
    const negative = await db.execute(sql`
      select exposure_id, reserve_category, sum(amount) as reserve from claims.ledger_entry
      where kind in ('reserve_change', 'reserve_erosion', 'reserve_close')
      group by exposure_id, reserve_category having sum(amount) < 0`);
    expect(negative.rows).toEqual([]);
    const draftsWithMoney = await db.execute(sql`
      select count(*)::int as n from claims.ledger_entry e join claims.claim c on c.id = e.claim_id where c.status = 'draft'`);
    expect(draftsWithMoney.rows[0]!.n).toBe(0);

    const [first] = (
      await db.execute(sql`select claim_id from claims.ledger_transaction where type = 'payment' order by id limit 1`)
    ).rows;
    const financials = await financialsOf(server.adjuster, first!.claim_id as number);
    expect(Number(financials.paid)).toBeGreaterThan(0);
    expect(financials.total_incurred).toBe(
      formatMoney(parseMoney(financials.paid) + parseMoney(financials.reserve_outstanding)),
    );
  });

  it('seeds the adjuster a 5000.00 payment authority', async () => {
    const [exposure] = (
      await server.atrium.database.db.execute(sql`
        select e.id from claims.exposure e join claims.claim c on c.id = e.claim_id where c.status <> 'draft' order by e.id limit 1`)
    ).rows;
    const id = exposure!.id as number;
    await server.admin.post('/api/claims/reserves/', {
      data: {
        type: 'reserves',
        attributes: { amount: '20000.00', reserve_category: 'legal' },
        relationships: { exposure: { data: { type: 'exposures', id: String(id) } } },
      },
    });
    const within = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(id, { amount: '5000.00', reserve_category: 'legal' }),
    );
    expect(within.status).toBe(201);
    const over = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(id, { amount: '5000.01', reserve_category: 'legal' }),
    );
    expect(over.status).toBe(202);
    expect(((await over.json()) as any).data.attributes.pending_reason).toBe(
      'Waiting for approval: 5000.01 over the limit of 5000.00 per transaction; over the amount the access policy allows.',
    );
  });
});
