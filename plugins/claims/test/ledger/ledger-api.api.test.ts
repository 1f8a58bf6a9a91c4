import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { party } from '../../server/core/tables.js';
import {
  financialsOf,
  JSONAPI,
  paymentDoc,
  recoveryDoc,
  reserveDoc,
  startLedgerServer,
  voidDoc,
  type LedgerTestServer,
} from './ledger-test-server.js';

let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer();
});
afterAll(async () => {
  await server?.close();
});

const body = async (response: Response) => (await response.json()) as any;
const pointers = async (response: Response) =>
  ((await body(response)).errors as { source?: { pointer?: string; header?: string } }[]).map(
    (e) => e.source?.pointer ?? e.source?.header,
  );

describe('posting reserves, payments and recoveries', () => {
  it('derives every total from the ledger and answers JSON:API', async () => {
    const { claimId, exposureIds } = await server.createClaim(2);
    const [e1, e2] = exposureIds as [number, number];
    const reserve = await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e1, { new_amount: '1000.00', reserve_category: 'indemnity' }),
    );
    expect(reserve.status).toBe(201);
    expect(reserve.headers.get('content-type')).toContain(JSONAPI);
    const reserveBody = await body(reserve);
    expect(reserveBody.data).toMatchObject({
      type: 'reserves',
      attributes: {
        amount: '1000.00',
        new_amount: '1000.00',
        transaction_status: 'posted',
        reserve_category: 'indemnity',
      },
      relationships: { exposure: { data: { type: 'exposures', id: String(e1) } } },
    });
    expect(
      (
        await server.adjuster.post(
          '/api/claims/reserves/',
          reserveDoc(e1, { amount: '-200.00', reserve_category: 'indemnity' }),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await server.adjuster.post(
          '/api/claims/reserves/',
          reserveDoc(e2, { new_amount: '300.00', reserve_category: 'expense' }),
        )
      ).status,
    ).toBe(201);
    const payment = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e1, {
        amount: '250.10',
        reserve_category: 'indemnity',
        payment_method: 'check',
        deductible_amount_to_pay: '100.00',
      }),
    );
    expect(payment.status).toBe(201);
    const final = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e2, { amount: '100.00', reserve_category: 'expense', final_payment: true }),
    );
    expect(final.status).toBe(201);
    const recovery = await server.adjuster.post(
      '/api/claims/recoveries/',
      recoveryDoc(e1, {
        amount: '50.05',
        reserve_category: 'indemnity',
        recovery_type: 'salvage',
        received_date: '2026-11-01',
      }),
    );
    expect(recovery.status).toBe(201);

    const financials = await financialsOf(server.adjuster, claimId);
    // indemnity 800.00 − 250.10 = 549.90 open; expense closed by the final payment.
    expect(financials).toMatchObject({
      reserve_outstanding: '549.90',
      paid: '350.10',
      recovered: '50.05',
      total_incurred: '900.00',
      net_paid: '300.05',
      net_incurred: '849.95',
      pending_approval_count: 0,
    });
    expect(financials.exposures.map((e) => [e.exposure_id, e.reserve_outstanding, e.paid, e.total_incurred])).toEqual([
      [String(e1), '549.90', '250.10', '800.00'],
      [String(e2), '0.00', '100.00', '100.00'],
    ]);
    const exposureFinancials = await body(await server.adjuster.get(`/api/claims/exposures/${e2}/financials/`));
    expect(exposureFinancials.data.attributes.categories).toEqual([
      expect.objectContaining({ reserve_category: 'expense', reserve_outstanding: '0.00', paid: '100.00' }),
    ]);

    // Replaying the entries gives the same totals.
    const entries = await body(await server.adjuster.get(`/api/claims/ledger-entries/?filter[claim]=${claimId}`));
    const cents = (kinds: string[]) =>
      entries.data
        .filter((e: any) => kinds.includes(e.attributes.kind))
        .reduce((sum: bigint, e: any) => sum + BigInt(e.attributes.amount.replace('.', '')), 0n);
    expect(cents(['reserve_change', 'reserve_erosion', 'reserve_close'])).toBe(54990n);
    expect(cents(['payment'])).toBe(35010n);

    const listed = await body(await server.adjuster.get(`/api/claims/claims/payments/?filter[claim]=${claimId}`));
    expect(listed.meta.count).toBe(2);
    expect(listed.data[0].attributes).toMatchObject({
      amount: '250.10',
      payment_method: 'check',
      deductible_amount_to_pay: '100.00',
    });
  });

  it('refuses a payment over the open reserve, and a reserve below zero, with pointers; nothing is written', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '100.00', reserve_category: 'indemnity' }),
    );
    const over = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '100.01', reserve_category: 'indemnity' }),
    );
    expect(over.status).toBe(400);
    const overBody = await body(over);
    expect(overBody.errors[0]).toMatchObject({
      detail: 'The payment of 100.01 exceeds the open indemnity reserve of 100.00. Raise the reserve first.',
      source: { pointer: '/data/attributes/amount' },
      code: 'payment_exceeds_reserve',
    });
    const below = await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { amount: '-100.01', reserve_category: 'indemnity' }),
    );
    expect(below.status).toBe(400);
    expect(await pointers(below)).toEqual(['/data/attributes/amount']);
    const financials = await financialsOf(server.adjuster, claimId);
    expect(financials).toMatchObject({ reserve_outstanding: '100.00', paid: '0.00' });
    const transactions = await body(await server.adjuster.get(`/api/claims/transactions/?filter[claim]=${claimId}`));
    expect(transactions.meta.count).toBe(1);
  });

  it('voids a payment with a reversing transaction, once', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '500.00', reserve_category: 'indemnity' }),
    );
    const payment = await body(
      await server.adjuster.post(
        '/api/claims/payments/',
        paymentDoc(e, { amount: '200.00', reserve_category: 'indemnity', final_payment: true }),
      ),
    );
    expect((await financialsOf(server.adjuster, claimId)).reserve_outstanding).toBe('0.00');
    const id = payment.data.id;
    const missingReason = await server.adjuster.post(`/api/claims/payments/${id}/void/`, voidDoc('payments', ' '));
    expect(missingReason.status).toBe(400);
    expect(await pointers(missingReason)).toEqual(['/data/attributes/void_reason']);
    const voided = await server.adjuster.post(`/api/claims/payments/${id}/void/`, voidDoc('payments', 'Wrong payee'));
    expect(voided.status).toBe(200);
    expect((await body(voided)).data.attributes).toMatchObject({
      amount: '200.00',
      voided: true,
      void_reason: 'Wrong payee',
    });
    expect(await financialsOf(server.adjuster, claimId)).toMatchObject({ reserve_outstanding: '500.00', paid: '0.00' });
    const again = await server.adjuster.post(`/api/claims/payments/${id}/void/`, voidDoc('payments', 'Again'));
    expect(again.status).toBe(409);
    expect((await body(again)).errors[0].detail).toBe('The payment is already voided.');
    const voids = await body(
      await server.adjuster.get(
        `/api/claims/transactions/?filter[claim]=${claimId}&filter[transaction_type]=payment_void`,
      ),
    );
    expect(voids.data[0].attributes).toMatchObject({ amount: '-200.00', void_reason: 'Wrong payee' });
    expect(voids.data[0].relationships.reverses.data).toEqual({ type: 'transactions', id });
  });

  it('answers bad input with a 4xx and a pointer, never a 500', async () => {
    const { exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    const cases: [unknown, number, string | undefined][] = [
      [paymentDoc(e, { amount: 12.5, reserve_category: 'indemnity' }), 400, '/data/attributes/amount'],
      [paymentDoc(e, { amount: '12.505', reserve_category: 'indemnity' }), 400, '/data/attributes/amount'],
      [paymentDoc(e, { amount: '0.00', reserve_category: 'indemnity' }), 400, '/data/attributes/amount'],
      [paymentDoc(e, { amount: '-5.00', reserve_category: 'indemnity' }), 400, '/data/attributes/amount'],
      [paymentDoc(e, { amount: '1e3', reserve_category: 'indemnity' }), 400, '/data/attributes/amount'],
      [paymentDoc(e, { amount: '10.00', reserve_category: 'bonus' }), 400, '/data/attributes/reserve_category'],
      [
        paymentDoc(e, { amount: '10.00', reserve_category: 'indemnity', colour: 'red' }),
        400,
        '/data/attributes/colour',
      ],
      [
        paymentDoc(e, { amount: '10.00', reserve_category: 'indemnity', due_date: '1/2/2026' }),
        400,
        '/data/attributes/due_date',
      ],
      [
        { data: { type: 'payments', attributes: { amount: '10.00', reserve_category: 'indemnity' } } },
        400,
        '/data/relationships/exposure',
      ],
      [
        paymentDoc(999999, { amount: '10.00', reserve_category: 'indemnity' }),
        404,
        '/data/relationships/exposure/data/id',
      ],
      [
        { data: { type: 'reserves', attributes: { amount: '10.00', reserve_category: 'indemnity' } } },
        409,
        '/data/type',
      ],
      [
        {
          ...paymentDoc(e, { amount: '10.00', reserve_category: 'indemnity' }),
          data: {
            ...paymentDoc(e, {}).data,
            attributes: { amount: '10.00', reserve_category: 'indemnity' },
            relationships: {
              exposure: { data: { type: 'exposures', id: String(e) } },
              payees: { data: [{ type: 'payees', id: '424242' }] },
            },
          },
        },
        400,
        '/data/relationships/payees/data/0/id',
      ],
    ];
    for (const [doc, status, pointer] of cases) {
      const response = await server.adjuster.post('/api/claims/payments/', doc);
      expect({ doc, status: response.status }).toEqual({ doc, status });
      expect(await pointers(response)).toContain(pointer);
    }
    const both = await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { amount: '1.00', new_amount: '2.00', reserve_category: 'indemnity' }),
    );
    expect(both.status).toBe(400);
    const notJsonApi = await server.fetch('/api/claims/payments/', {
      method: 'POST',
      headers: { authorization: 'Bearer test:adjuster@atrium.test', 'content-type': 'application/json' },
      body: JSON.stringify(paymentDoc(e, { amount: '1.00', reserve_category: 'indemnity' })),
    });
    expect(notJsonApi.status).toBe(415);
    expect((await server.adjuster.get('/api/claims/payments/abc/')).status).toBe(400);
    expect((await server.adjuster.get('/api/claims/payments/987654/')).status).toBe(404);
    expect((await server.adjuster.get('/api/claims/claims/987654/financials/')).status).toBe(404);
    expect((await server.adjuster.get('/api/claims/payments/?filter[claim]=x')).status).toBe(400);
    const badKey = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '1.00', reserve_category: 'indemnity' }),
      {
        'idempotency-key': 'with space',
      },
    );
    expect(badKey.status).toBe(400);
    expect(await pointers(badKey)).toEqual(['idempotency-key']);
    expect((await server.fetch('/api/claims/payments/')).status).toBe(401);
    expect(
      (
        await server
          .as('underwriter@atrium.test')
          .post('/api/claims/payments/', paymentDoc(e, { amount: '1.00', reserve_category: 'indemnity' }))
      ).status,
    ).toBe(403);
  });
});

describe('recovery parties', () => {
  it('records a party of the same claim and refuses a party of another claim, writing nothing', async () => {
    const db = server.atrium.database.db;
    const mine = await server.createClaim(1);
    const other = await server.createClaim(1);
    const [ownParty, foreignParty] = await db
      .insert(party)
      .values([
        { claimId: mine.claimId, displayNumber: 1, name: 'Salvage Buyer LLC', role: 'vendor' },
        { claimId: other.claimId, displayNumber: 1, name: 'Someone Else', role: 'claimant' },
      ])
      .returning();
    const e = mine.exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '100.00', reserve_category: 'indemnity' }),
    );
    const withParty = (id: string) => {
      const doc = recoveryDoc(e, { amount: '20.00', reserve_category: 'indemnity', recovery_type: 'salvage' });
      return {
        data: { ...doc.data, relationships: { ...doc.data.relationships, party: { data: { type: 'parties', id } } } },
      };
    };
    for (const id of [String(foreignParty!.id), '99999999', 'x']) {
      const refused = await server.adjuster.post('/api/claims/recoveries/', withParty(id));
      expect(refused.status).toBe(400);
      expect(await pointers(refused)).toEqual(['/data/relationships/party/data/id']);
    }
    expect((await financialsOf(server.adjuster, mine.claimId)).recovered).toBe('0.00');
    const recorded = await server.adjuster.post('/api/claims/recoveries/', withParty(String(ownParty!.id)));
    expect(recorded.status).toBe(201);
    expect((await body(recorded)).data.relationships.party.data).toEqual({ type: 'parties', id: String(ownParty!.id) });
    expect((await financialsOf(server.adjuster, mine.claimId)).recovered).toBe('20.00');
  });
});

describe('concurrency', () => {
  it('concurrent payments never overdraw a reserve (the claim row is locked)', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '100.00', reserve_category: 'indemnity' }),
    );
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.adjuster.post(
          '/api/claims/payments/',
          paymentDoc(e, { amount: '30.00', reserve_category: 'indemnity' }),
        ),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400, 400, 400]);
    expect(await financialsOf(server.adjuster, claimId)).toMatchObject({ paid: '90.00', reserve_outstanding: '10.00' });
  });
});

describe('idempotency', () => {
  it('20 concurrent payments with one key make one payment and answer alike', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '1000.00', reserve_category: 'indemnity' }),
    );
    const doc = paymentDoc(e, { amount: '40.00', reserve_category: 'indemnity' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.adjuster.post('/api/claims/payments/', doc, { 'idempotency-key': `pay-${claimId}` }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const payments = await body(await server.adjuster.get(`/api/claims/payments/?filter[claim]=${claimId}`));
    expect(payments.meta.count).toBe(1);
    expect((await financialsOf(server.adjuster, claimId)).paid).toBe('40.00');

    const other = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '41.00', reserve_category: 'indemnity' }),
      {
        'idempotency-key': `pay-${claimId}`,
      },
    );
    expect(other.status).toBe(422);
    expect((await body(other)).errors[0].detail).toBe(
      `The Idempotency-Key 'pay-${claimId}' was already used with a different request body; use a new key for a new request.`,
    );
    // Another user's key space is their own.
    const admin = await server.admin.post('/api/claims/payments/', doc, { 'idempotency-key': `pay-${claimId}` });
    expect(admin.status).toBe(201);
  });

  it('replays reserve creation and does not keep the key of a refused request', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    const refused = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '5.00', reserve_category: 'expense' }),
      {
        'idempotency-key': `retry-${claimId}`,
      },
    );
    expect(refused.status).toBe(400);
    const first = await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '10.00', reserve_category: 'expense' }),
      {
        'idempotency-key': `r-${claimId}`,
      },
    );
    const second = await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '10.00', reserve_category: 'expense' }),
      {
        'idempotency-key': `r-${claimId}`,
      },
    );
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await second.json()).toEqual(await first.json());
    const retried = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '5.00', reserve_category: 'expense' }),
      {
        'idempotency-key': `retry-${claimId}`,
      },
    );
    expect(retried.status).toBe(201);
    expect((await financialsOf(server.adjuster, claimId)).paid).toBe('5.00');
  });
});

describe('authority limits and approvals', () => {
  it('an over-limit payment waits; an approver whose authority covers it posts it; both are audited', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    expect(
      (
        await server.adjuster.post(
          '/api/claims/reserves/',
          reserveDoc(e, { new_amount: '20000.00', reserve_category: 'indemnity' }),
        )
      ).status,
    ).toBe(201);
    const pending = await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '6000.00', reserve_category: 'indemnity' }),
    );
    expect(pending.status).toBe(202);
    const pendingBody = await body(pending);
    expect(pendingBody.data.attributes).toMatchObject({ transaction_status: 'pending_approval' });
    expect(pendingBody.data.attributes.pending_reason).toContain('6000.00 over the limit of 5000.00 per transaction');
    expect(await financialsOf(server.adjuster, claimId)).toMatchObject({
      paid: '0.00',
      reserve_outstanding: '20000.00',
      pending_approval_count: 1,
    });

    const id = pendingBody.data.id;
    const approvals = await body(await server.admin.get(`/api/claims/approvals/?filter[claim]=${claimId}`));
    expect(approvals.data.map((t: any) => t.id)).toEqual([id]);
    // The requester cannot approve their own; another adjuster's authority (5000.00) does not cover it.
    expect(
      (await server.adjuster.post(`/api/claims/approvals/${id}/approve/`, { data: { type: 'transactions' } })).status,
    ).toBe(403);
    const colleague = await server
      .as('sms@atrium.test')
      .post(`/api/claims/approvals/${id}/approve/`, { data: { type: 'transactions' } });
    expect(colleague.status).toBe(403);
    expect((await body(colleague)).errors[0].detail).toContain('Your authority does not cover transaction');

    const approved = await server.admin.post(`/api/claims/approvals/${id}/approve/`, {
      data: { type: 'transactions', attributes: { reason: 'Agreed settlement' } },
    });
    expect(approved.status).toBe(200);
    expect((await body(approved)).data).toMatchObject({
      type: 'payments',
      id,
      attributes: { transaction_status: 'posted' },
    });
    expect(await financialsOf(server.adjuster, claimId)).toMatchObject({
      paid: '6000.00',
      reserve_outstanding: '14000.00',
      pending_approval_count: 0,
    });
    const twice = await server.admin.post(`/api/claims/approvals/${id}/approve/`, { data: { type: 'transactions' } });
    expect(twice.status).toBe(409);

    // A second over-limit payment is rejected with a reason; nothing is posted.
    const second = await body(
      await server.adjuster.post(
        '/api/claims/payments/',
        paymentDoc(e, { amount: '7000.00', reserve_category: 'indemnity' }),
      ),
    );
    const noReason = await server.admin.post(`/api/claims/approvals/${second.data.id}/reject/`, {
      data: { type: 'transactions' },
    });
    expect(noReason.status).toBe(400);
    const rejected = await server.admin.post(`/api/claims/approvals/${second.data.id}/reject/`, {
      data: { type: 'transactions', attributes: { reason: 'Not covered' } },
    });
    expect(rejected.status).toBe(200);
    expect((await body(rejected)).data.attributes.transaction_status).toBe('rejected');
    expect((await financialsOf(server.adjuster, claimId)).paid).toBe('6000.00');

    const audit = await server.atrium.database.db.execute(
      sql`select action, username, from_status, to_status, reason from claims.audit_log where claim_id = ${claimId} order by id`,
    );
    expect(audit.rows).toEqual(
      expect.arrayContaining([
        {
          action: 'payment.request_approval',
          username: 'adjuster@atrium.test',
          from_status: null,
          to_status: 'pending_approval',
          reason: expect.stringContaining('over the limit'),
        },
        {
          action: 'payment.approve',
          username: 'admin@atrium.test',
          from_status: 'pending_approval',
          to_status: 'posted',
          reason: 'Agreed settlement',
        },
        {
          action: 'payment.reject',
          username: 'admin@atrium.test',
          from_status: 'pending_approval',
          to_status: 'rejected',
          reason: 'Not covered',
        },
      ]),
    );
  });

  it('applies the per-coverage total and lets administrators manage limits', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    const created = await server.admin.post('/api/claims/authority-limits/', {
      data: {
        type: 'authority-limits',
        attributes: {
          subject_type: 'user',
          subject: 'sms@atrium.test',
          kind: 'payment',
          per_transaction: '1000.00',
          per_coverage: '1500.00',
        },
      },
    });
    expect(created.status).toBe(201);
    const limit = await body(created);
    const sms = server.as('sms@atrium.test');
    await sms.post('/api/claims/reserves/', reserveDoc(e, { new_amount: '5000.00', reserve_category: 'indemnity' }));
    expect(
      (await sms.post('/api/claims/payments/', paymentDoc(e, { amount: '1000.00', reserve_category: 'indemnity' })))
        .status,
    ).toBe(201);
    const second = await body(
      await sms.post('/api/claims/payments/', paymentDoc(e, { amount: '600.00', reserve_category: 'indemnity' })),
    );
    expect(second.data.attributes.transaction_status).toBe('pending_approval');
    expect(second.data.attributes.pending_reason).toContain('1600.00 over the limit of 1500.00 per coverage');
    // An adjuster within their own role limits approves it.
    const approved = await server.adjuster.post(`/api/claims/approvals/${second.data.id}/approve/`, {
      data: { type: 'transactions' },
    });
    expect(approved.status).toBe(200);
    expect((await financialsOf(server.adjuster, claimId)).paid).toBe('1600.00');

    expect(
      (
        await server.adjuster.post('/api/claims/authority-limits/', {
          data: {
            type: 'authority-limits',
            attributes: { subject_type: 'user', subject: 'adjuster@atrium.test', kind: 'payment' },
          },
        })
      ).status,
    ).toBe(403);
    const duplicate = await server.admin.post('/api/claims/authority-limits/', {
      data: {
        type: 'authority-limits',
        attributes: { subject_type: 'user', subject: 'SMS@atrium.test', kind: 'payment' },
      },
    });
    expect(duplicate.status).toBe(409);
    const patched = await server.admin.patch(`/api/claims/authority-limits/${limit.data.id}/`, {
      data: { type: 'authority-limits', id: limit.data.id, attributes: { per_coverage: null } },
    });
    expect((await body(patched)).data.attributes).toMatchObject({ per_transaction: '1000.00', per_coverage: null });
    const roleLimits = await body(
      await server.adjuster.get('/api/claims/authority-limits/?filter[subject]=Claims%20Adjuster'),
    );
    expect(roleLimits.data.map((l: any) => [l.attributes.kind, l.attributes.per_transaction])).toEqual([
      ['payment', '5000.00'],
      ['reserve', '25000.00'],
    ]);
    expect((await server.admin.delete(`/api/claims/authority-limits/${limit.data.id}/`)).status).toBe(204);
  });
});

describe('append-only in the database', () => {
  // On PGlite (and PostgreSQL without an app role) the tests connect as a superuser and the
  // append-only triggers refuse; as .ci/run's row-only app role the privileges refuse first where
  // the role lacks them (UPDATE, DELETE, TRUNCATE of entries), the triggers elsewhere.
  const asAppRole = process.env.ATRIUM_TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_APP_ROLE;
  const refused = asAppRole
    ? /permission denied for table|cannot be changed or deleted/
    : /cannot be changed or deleted/;
  it('refuses UPDATE and DELETE of posted rows, even for a superuser (triggers) and first by privilege for the app role', async () => {
    const { claimId, exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '10.00', reserve_category: 'indemnity' }),
    );
    await server.adjuster.post(
      '/api/claims/payments/',
      paymentDoc(e, { amount: '5.00', reserve_category: 'indemnity' }),
    );
    const db = server.atrium.database.db;
    const attempts = [
      sql`update claims.ledger_entry set amount = 0 where claim_id = ${claimId}`,
      sql`delete from claims.ledger_entry where claim_id = ${claimId}`,
      sql`update claims.ledger_transaction set amount = 1 where claim_id = ${claimId}`,
      sql`delete from claims.ledger_transaction where claim_id = ${claimId}`,
      sql`truncate claims.ledger_entry`,
    ];
    // drizzle wraps the database's error: its message is in the cause.
    const refusal = (query: ReturnType<typeof sql>): Promise<string> =>
      db.execute(query).then(
        () => 'done',
        (error: { message: string; cause?: { message: string } }) => error.cause?.message ?? error.message,
      );
    for (const attempt of attempts) expect(await refusal(attempt)).toMatch(refused);
    expect(await refusal(sql`select 1`)).toBe('done'); // leaves the pool's connection healthy for the API
    const batch = await server.admin.post('/api/claims/payment-batches/', { data: { type: 'payment-batches' } });
    expect(batch.status).toBe(201);
    expect((await body(batch)).data.attributes.payments_count).toBeGreaterThan(0);
    expect(await refusal(sql`delete from claims.payment_batch_item`)).toMatch(refused);
    expect(await refusal(sql`update claims.payment_batch set amount = 0`)).toMatch(refused);
    expect(await refusal(sql`select 1`)).toBe('done');
    expect(await financialsOf(server.adjuster, claimId)).toMatchObject({ paid: '5.00', reserve_outstanding: '5.00' });
    const payments = await body(await server.adjuster.get(`/api/claims/payments/?filter[claim]=${claimId}`));
    expect(payments.data[0].attributes).toMatchObject({ is_processed: true });
    expect(payments.data[0].attributes.check_number).toEqual(expect.any(String));
  });
});

describe('payees, payors and authority limits (declared resources keeping the hand-written wire details)', () => {
  const errorOf = async (response: Response) => (await body(response)).errors[0];

  it('answers bad ids, missing names, filters, order and in-use payees as the hand-written routes did', async () => {
    const badId = await server.adjuster.get('/api/claims/payees/abc/');
    expect(badId.status).toBe(400);
    expect(await errorOf(badId)).toMatchObject({
      detail: 'The id must be a positive whole number.',
      source: { parameter: 'id' },
    });
    // A document without attributes: each route's own required check (with code 'required').
    for (const type of ['payees', 'payors']) {
      const unnamed = await server.adjuster.post(`/api/claims/${type}/`, { data: { type } });
      expect(unnamed.status).toBe(400);
      expect(await errorOf(unnamed)).toMatchObject({
        detail: 'This field is required.',
        code: 'required',
        source: { pointer: '/data/attributes/name' },
      });
    }
    const payees = (await body(await server.adjuster.get('/api/claims/payees/'))).data as any[];
    // In name order (the database's collation decides).
    const byName = await server.atrium.database.db.execute(sql`select id from claims.payee order by name, id`);
    expect(payees.map((p) => Number(p.id))).toEqual(byName.rows.map((r) => r.id));
    // Never had relationships: no empty member.
    expect(payees.every((p) => !('relationships' in p))).toBe(true);

    // A payee a payment names is not deleted.
    const { exposureIds } = await server.createClaim(1);
    const e = exposureIds[0]!;
    const payee = await body(
      await server.adjuster.post('/api/claims/payees/', {
        data: { type: 'payees', attributes: { name: 'Kept Payee' } },
      }),
    );
    await server.adjuster.post(
      '/api/claims/reserves/',
      reserveDoc(e, { new_amount: '100.00', reserve_category: 'indemnity' }),
    );
    const payment = paymentDoc(e, { amount: '10.00', reserve_category: 'indemnity' }) as any;
    payment.data.relationships.payees = { data: [{ type: 'payees', id: payee.data.id }] };
    expect((await server.adjuster.post('/api/claims/payments/', payment)).status).toBe(201);
    const inUse = await server.adjuster.delete(`/api/claims/payees/${payee.data.id}/`);
    expect(inUse.status).toBe(409);
    expect(await errorOf(inUse)).toMatchObject({
      detail: `Payee ${payee.data.id} is named by a ledger transaction and cannot be deleted.`,
      code: 'in_use',
    });
    const mismatch = await server.adjuster.patch(`/api/claims/payees/${payee.data.id}/`, {
      data: { type: 'payees', id: '1', attributes: { name: 'x' } },
    });
    expect(mismatch.status).toBe(409);
    expect((await errorOf(mismatch)).detail).toBe('The id in the body does not match the URL.');

    const limits = (await body(await server.admin.get('/api/claims/authority-limits/'))).data as any[];
    const ordered = await server.atrium.database.db.execute(
      sql`select id from claims.authority_limit order by subject_type, subject, kind`,
    );
    expect(limits.map((l) => Number(l.id))).toEqual(ordered.rows.map((r) => r.id));
    expect((await body(await server.admin.get('/api/claims/authority-limits/?filter[subject]='))).data).toHaveLength(
      limits.length,
    );
    const badKind = await server.admin.get('/api/claims/authority-limits/?filter[kind]=bad');
    expect(badKind.status).toBe(400);
    expect((await errorOf(badKind)).detail).toBe("Kind must be 'reserve' or 'payment'.");
    const [first] = limits;
    const duplicate = await server.admin.post('/api/claims/authority-limits/', {
      data: {
        type: 'authority-limits',
        attributes: {
          subject_type: first.attributes.subject_type,
          subject: first.attributes.subject,
          kind: first.attributes.kind,
        },
      },
    });
    expect(duplicate.status).toBe(409);
    expect(await errorOf(duplicate)).toMatchObject({
      detail: 'An authority limit for this subject and kind already exists.',
      code: 'duplicate',
      source: { pointer: '/data/attributes/subject' },
    });
  });
});
