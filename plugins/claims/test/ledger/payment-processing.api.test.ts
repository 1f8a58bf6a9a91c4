import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDoc, reserveDoc, startLedgerServer, voidDoc, type LedgerTestServer } from './ledger-test-server.js';

/**
 * Payment processing (docs/claims-accounting.md): the queue of payments awaiting issue, batch runs
 * (selection, method, due date, check numbers, atomicity), batch detail and CSV export. One server
 * per file: batches issue the whole queue, so every test names its own payments or filters.
 */
let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer();
});
afterAll(async () => {
  await server?.close();
});

const body = async (response: Response) => (await response.json()) as any;
const errorsOf = async (response: Response) =>
  ((await body(response)).errors as { detail: string; source?: { pointer?: string } }[]).map((e) => ({
    detail: e.detail,
    pointer: e.source?.pointer,
  }));

let payeeCounter = 0;
async function createPayee(name = `Payee ${++payeeCounter}`): Promise<string> {
  const response = await server.adjuster.post('/api/claims/payees/', {
    data: { type: 'payees', attributes: { name, payee_type: 'person' } },
  });
  expect(response.status).toBe(201);
  return (await body(response)).data.id as string;
}

/** A claim with an indemnity reserve of 10000.00 and the given payments posted on it; answers their ids. */
async function postPayments(
  payments: { amount: string; payment_method?: string; due_date?: string; payee?: string }[],
): Promise<{ claimId: number; claimNumber: string; ids: string[] }> {
  const { claimId, exposureIds } = await server.createClaim(1);
  const exposureId = exposureIds[0]!;
  const reserve = await server.adjuster.post(
    '/api/claims/reserves/',
    reserveDoc(exposureId, { new_amount: '10000.00', reserve_category: 'indemnity' }),
  );
  expect(reserve.status).toBe(201);
  const ids: string[] = [];
  for (const p of payments) {
    const document = paymentDoc(exposureId, {
      amount: p.amount,
      reserve_category: 'indemnity',
      ...(p.payment_method ? { payment_method: p.payment_method } : {}),
      ...(p.due_date ? { due_date: p.due_date } : {}),
    }) as any;
    if (p.payee) document.data.relationships.payees = { data: [{ type: 'payees', id: p.payee }] };
    const response = await server.adjuster.post('/api/claims/payments/', document);
    expect(response.status).toBe(201);
    ids.push((await body(response)).data.id);
  }
  const claim = await body(await server.admin.get(`/api/claims/claims/${claimId}/`));
  return { claimId, claimNumber: claim.data.attributes.number, ids };
}

const batchDoc = (ids: string[] | null, attributes: Record<string, unknown> = {}) => ({
  data: {
    type: 'payment-batches',
    attributes,
    ...(ids ? { relationships: { payments: { data: ids.map((id) => ({ type: 'payments', id })) } } } : {}),
  },
});

async function queue(query = ''): Promise<any> {
  const response = await server.admin.get(`/api/claims/payment-batches/queue/${query}`);
  expect(response.status).toBe(200);
  return body(response);
}

describe('the payment queue', () => {
  it('lists posted, unvoided, unissued payments with claim number, payee, method, due date and a decimal total', async () => {
    const payee = await createPayee('Ada "The Plumber", Ltd');
    const { claimNumber, ids } = await postPayments([
      { amount: '100.10', payment_method: 'check', due_date: '2026-01-10', payee },
      { amount: '200.20', payment_method: 'ach', due_date: '2026-03-01' },
      { amount: '0.70', payment_method: 'check', due_date: '2026-02-01' },
    ]);
    // A voided payment never waits for issue.
    const voided = await server.admin.post(`/api/claims/payments/${ids[2]}/void/`, voidDoc('payments', 'typo'));
    expect(voided.status).toBeLessThan(300);
    const all = await queue();
    const mine = all.data.filter((r: any) => ids.includes(r.id));
    expect(mine.map((r: any) => r.id)).toEqual([ids[0], ids[1]]);
    expect(mine[0]).toMatchObject({
      type: 'payment-queue-items',
      attributes: {
        claim_number: claimNumber,
        payee: 'Ada "The Plumber", Ltd',
        amount: '100.10',
        payment_method: 'check',
        due_date: '2026-01-10',
        check_number: null,
      },
      relationships: { payment: { data: { type: 'payments', id: ids[0] } } },
    });
    expect(all.meta.total).toMatch(/^\d+\.\d{2}$/);

    const checks = await queue('?filter[payment_method]=check&filter[due_date_to]=2026-02-15');
    const mineChecks = checks.data.filter((r: any) => ids.includes(r.id));
    expect(mineChecks.map((r: any) => r.id)).toEqual([ids[0]]);
    const byDue = await queue('?filter[due_date_to]=2026-02-15');
    expect(byDue.data.map((r: any) => r.id)).not.toContain(ids[1]);
    expect(byDue.meta.next_check_number).toMatch(/^\d+$/);
  });

  it('refuses bad filters with the parameter named, and reading needs claims:payment-batch read', async () => {
    const response = await server.admin.get('/api/claims/payment-batches/queue/?filter[payment_method]=cash');
    expect(response.status).toBe(400);
    expect(JSON.stringify(await body(response))).toContain('Payment method must be one of check, ach, wire, card.');
    const date = await server.admin.get('/api/claims/payment-batches/queue/?filter[due_date_to]=10/01/2026');
    expect(date.status).toBe(400);
    expect(JSON.stringify(await body(date))).toContain('Due date must be a date in the format YYYY-MM-DD.');
    expect((await server.as('author@atrium.test').get('/api/claims/payment-batches/queue/')).status).toBe(403);
    // Adjusters may see the queue but not run a batch (Claims handling: PaymentBatchesAdministered).
    expect((await server.adjuster.get('/api/claims/payment-batches/queue/')).status).toBe(200);
  });
});

describe('running a batch', () => {
  it('issues the selected payments with consecutive check numbers from the first check number, audit-logged', async () => {
    const { claimId, ids } = await postPayments([
      { amount: '10.00', payment_method: 'check' },
      { amount: '20.05', payment_method: 'check' },
      { amount: '30.00', payment_method: 'wire' },
      { amount: '40.00', payment_method: 'check' },
    ]);
    const next = BigInt((await queue()).meta.next_check_number);
    const first = next + 1000n;
    const run = await server.admin.post(
      '/api/claims/payment-batches/',
      batchDoc(ids.slice(0, 3), { first_check_number: String(first) }),
    );
    expect(run.status).toBe(201);
    const batch = (await body(run)).data;
    expect(batch.attributes).toMatchObject({ amount: '60.05', payments_count: 3, run_by: 'admin@atrium.test' });
    expect(batch.attributes.number).toMatch(/^PB-\d{6}$/);
    expect(batch.relationships.payments.data.map((p: any) => p.id)).toEqual(ids.slice(0, 3));

    const detail = await body(await server.admin.get(`/api/claims/payment-batches/${batch.id}/payments/`));
    expect(detail.meta).toEqual({ count: 3, total: '60.05' });
    expect(detail.data.map((r: any) => r.attributes.check_number)).toEqual([
      String(first),
      String(first + 1n),
      `${batch.attributes.number}-WIRE-0001`,
    ]);
    expect((await queue()).data.map((r: any) => r.id)).not.toContain(ids[0]);
    expect((await queue()).data.map((r: any) => r.id)).toContain(ids[3]);
    expect((await queue()).meta.next_check_number).toBe(String(first + 2n));

    const payment = await body(await server.admin.get(`/api/claims/payments/${ids[0]}/`));
    expect(payment.data.attributes).toMatchObject({ is_processed: true, check_number: String(first) });

    const audit = await body(await server.admin.get(`/api/claims/audit-log/?filter[claim_id]=${claimId}`));
    const issued = audit.data.filter((e: any) => e.attributes.action === 'payment.issue');
    expect(issued).toHaveLength(3);
    expect(issued.find((e: any) => e.attributes.entity_id === ids[0]).attributes.after).toMatchObject({
      batch_number: batch.attributes.number,
      check_number: String(first),
    });
  });

  it('runs over one method and due date only, and says when nothing is due', async () => {
    const { ids } = await postPayments([
      { amount: '5.00', payment_method: 'card', due_date: '2020-01-01' },
      { amount: '6.00', payment_method: 'card', due_date: '2099-01-01' },
    ]);
    const run = await server.admin.post(
      '/api/claims/payment-batches/',
      batchDoc(null, { payment_method: 'card', due_date_to: '2020-06-30' }),
    );
    expect(run.status).toBe(201);
    const batch = (await body(run)).data;
    expect(batch.relationships.payments.data.map((p: any) => p.id)).toContain(ids[0]);
    expect(batch.relationships.payments.data.map((p: any) => p.id)).not.toContain(ids[1]);
    const again = await server.admin.post(
      '/api/claims/payment-batches/',
      batchDoc(null, { payment_method: 'card', due_date_to: '2020-06-30' }),
    );
    expect(again.status).toBe(409);
    expect((await errorsOf(again))[0]!.detail).toBe('There are no payments to process.');
  });

  it('refuses bad input with pointers and writes nothing', async () => {
    const { ids } = await postPayments([{ amount: '7.00', payment_method: 'check' }]);
    const before = (await body(await server.admin.get('/api/claims/payment-batches/'))).meta.count;
    const cases: [unknown, number, string, string | undefined][] = [
      [
        batchDoc([ids[0]!, '999999']),
        400,
        'Payment 999999 is not awaiting issue.',
        '/data/relationships/payments/data/1/id',
      ],
      [
        batchDoc([ids[0]!, ids[0]!]),
        400,
        `Payment ${ids[0]} is named twice.`,
        '/data/relationships/payments/data/1/id',
      ],
      [
        batchDoc(ids, { first_check_number: '12.5' }),
        400,
        'First check number must be a whole number such as "100001".',
        '/data/attributes/first_check_number',
      ],
      [
        batchDoc(ids, { first_check_number: '1' }),
        409,
        'Check number 1 or a later one was already issued',
        '/data/attributes/first_check_number',
      ],
      [
        batchDoc(ids, { payment_method: 'cash' }),
        400,
        'Payment method must be one of check, ach, wire, card.',
        '/data/attributes/payment_method',
      ],
      [
        batchDoc(ids, { due_date_to: 'tomorrow' }),
        400,
        'Due date must be a date in the format YYYY-MM-DD.',
        '/data/attributes/due_date_to',
      ],
      [
        batchDoc([ids[0]!], { payment_method: 'ach' }),
        400,
        `Payment ${ids[0]} is not awaiting issue.`,
        '/data/relationships/payments/data/0/id',
      ],
    ];
    for (const [document, status, detail, pointer] of cases) {
      const response = await server.admin.post('/api/claims/payment-batches/', document);
      expect(response.status, JSON.stringify(document)).toBe(status);
      const errors = await errorsOf(response);
      expect(errors[0]!.detail).toContain(detail);
      expect(errors[0]!.pointer).toBe(pointer);
    }
    expect((await body(await server.admin.get('/api/claims/payment-batches/'))).meta.count).toBe(before);
    expect((await queue()).data.map((r: any) => r.id)).toContain(ids[0]);
  });

  it('is refused with 403 to an adjuster (no claims:payment-batch create) and to an underwriter', async () => {
    const { ids } = await postPayments([{ amount: '8.00' }]);
    expect((await server.adjuster.post('/api/claims/payment-batches/', batchDoc(ids))).status).toBe(403);
    expect(
      (await server.as('underwriter@atrium.test').post('/api/claims/payment-batches/', batchDoc(ids))).status,
    ).toBe(403);
    expect((await queue()).data.map((r: any) => r.id)).toContain(ids[0]);
  });

  it('never puts one payment in two batches when runs race', async () => {
    const { ids } = await postPayments(
      Array.from({ length: 6 }, (_, i) => ({ amount: `${i + 1}.00`, payment_method: 'check' })),
    );
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => server.admin.post('/api/claims/payment-batches/', batchDoc(null))),
    );
    expect(runs.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const batches = (await body(await server.admin.get('/api/claims/payment-batches/?page[size]=1000'))).data;
    const issued = batches.flatMap((b: any) => b.relationships.payments.data.map((p: any) => p.id));
    expect(new Set(issued).size).toBe(issued.length);
    for (const id of ids) expect(issued.filter((x: string) => x === id)).toHaveLength(1);
    const checks = (
      await Promise.all(
        batches.map(
          async (b: any) => (await body(await server.admin.get(`/api/claims/payment-batches/${b.id}/payments/`))).data,
        ),
      )
    )
      .flat()
      .map((r: any) => r.attributes.check_number);
    expect(new Set(checks).size).toBe(checks.length);
  });
});

describe('batch detail and export', () => {
  it('exports a batch as CSV with one line per payment and exact amounts', async () => {
    const payee = await createPayee('=SUM(A1:A9)');
    const { claimNumber, ids } = await postPayments([
      { amount: '1234.50', payment_method: 'check', due_date: '2026-05-01', payee },
      { amount: '0.05', payment_method: 'ach' },
    ]);
    const batch = (await body(await server.admin.post('/api/claims/payment-batches/', batchDoc(ids)))).data;
    const response = await server.admin.get(`/api/claims/payment-batches/${batch.id}/export/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="payment-batch-${batch.attributes.number}.csv"`,
    );
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'batch_number,run_date,check_number,payment_id,transaction_number,claim_number,payee,amount,payment_method,due_date,pay_code,reserve_category',
    );
    expect(lines).toHaveLength(3);
    const today = batch.attributes.run_at.slice(0, 10);
    const detail = (await body(await server.admin.get(`/api/claims/payment-batches/${batch.id}/payments/`))).data;
    expect(lines[1]).toBe(
      `${batch.attributes.number},${today},${detail[0].attributes.check_number},${ids[0]},${detail[0].attributes.transaction_number},${claimNumber},'=SUM(A1:A9),1234.50,check,2026-05-01,,indemnity`,
    );
    expect(lines[2]).toContain(',0.05,ach,,,indemnity');

    expect((await server.admin.get('/api/claims/payment-batches/999999/export/')).status).toBe(404);
    expect((await server.admin.get('/api/claims/payment-batches/abc/payments/')).status).toBe(400);
    expect((await server.as('author@atrium.test').get(`/api/claims/payment-batches/${batch.id}/export/`)).status).toBe(
      403,
    );
    const newest = (await body(await server.admin.get('/api/claims/payment-batches/?sort=-id'))).data[0];
    expect(newest.id).toBe(batch.id);
  });
});

describe('clearing issued payments', () => {
  const clearDoc = (attributes: Record<string, unknown>) => ({ data: { type: 'payments', attributes } });

  it('records the cleared date append-only; a correction needs a reason and is a new row', async () => {
    const { claimId, ids } = await postPayments([{ amount: '9.00', payment_method: 'check' }, { amount: '1.00' }]);
    const early = await server.admin.post(
      `/api/claims/payments/${ids[0]}/clear/`,
      clearDoc({ cleared_date: '2020-01-01' }),
    );
    expect(early.status).toBe(409);
    expect((await errorsOf(early))[0]!.detail).toBe(
      `Payment ${ids[0]} has not been issued; only issued payments clear.`,
    );
    const batch = (await body(await server.admin.post('/api/claims/payment-batches/', batchDoc([ids[0]!])))).data;
    const runDate = batch.attributes.run_at.slice(0, 10);

    const cases: [Record<string, unknown>, string, string][] = [
      [{ cleared_date: null }, '/data/attributes/cleared_date', 'This field is required.'],
      [{ cleared_date: '2020-01-01' }, '/data/attributes/cleared_date', `Cleared date must be ${runDate} or later.`],
      [{ cleared_date: '2999-01-01' }, '/data/attributes/cleared_date', 'or earlier.'],
      [
        { cleared_date: '01/02/2026' },
        '/data/attributes/cleared_date',
        'Cleared date must be a date in the format YYYY-MM-DD.',
      ],
    ];
    for (const [attributes, pointer, detail] of cases) {
      const response = await server.admin.post(`/api/claims/payments/${ids[0]}/clear/`, clearDoc(attributes));
      expect(response.status, JSON.stringify(attributes)).toBe(400);
      const [error] = await errorsOf(response);
      expect(error!.pointer).toBe(pointer);
      expect(error!.detail).toContain(detail);
    }
    const cleared = await server.admin.post(
      `/api/claims/payments/${ids[0]}/clear/`,
      clearDoc({ cleared_date: runDate }),
    );
    expect(cleared.status).toBe(201);
    expect((await body(cleared)).data.attributes).toMatchObject({ cleared_date: runDate, is_processed: true });

    const noReason = await server.admin.post(`/api/claims/payments/${ids[0]}/clear/`, clearDoc({ cleared_date: null }));
    expect(noReason.status).toBe(400);
    expect((await errorsOf(noReason))[0]).toEqual({
      pointer: '/data/attributes/reason',
      detail: `Give a reason to correct the cleared date ${runDate}.`,
    });
    const corrected = await server.admin.post(
      `/api/claims/payments/${ids[0]}/clear/`,
      clearDoc({ cleared_date: null, reason: 'Check stopped' }),
    );
    expect(corrected.status).toBe(201);
    expect(
      (await body(await server.admin.get(`/api/claims/payments/${ids[0]}/`))).data.attributes.cleared_date,
    ).toBeNull();
    const detail = await body(await server.admin.get(`/api/claims/payment-batches/${batch.id}/payments/`));
    expect(detail.data[0].attributes.cleared_date).toBeNull();

    const audit = await body(await server.admin.get(`/api/claims/audit-log/?filter[claim_id]=${claimId}`));
    expect(
      audit.data
        .filter((e: any) => e.attributes.action.startsWith('payment.clear'))
        .map((e: any) => [e.attributes.action, e.attributes.reason]),
    ).toEqual([
      ['payment.clear_correct', 'Check stopped'],
      ['payment.clear', null],
    ]);
    // Clearing is claims finance's: adjusters may not (claims:payment-batch update).
    expect(
      (
        await server.adjuster.post(
          `/api/claims/payments/${ids[0]}/clear/`,
          clearDoc({ cleared_date: runDate, reason: 'x' }),
        )
      ).status,
    ).toBe(403);
    expect(
      (await server.admin.post('/api/claims/payments/999999/clear/', clearDoc({ cleared_date: runDate }))).status,
    ).toBe(404);
  });

  it('is refused by the database to any update or delete', async () => {
    const db = server.atrium.database.db;
    const { sql } = await import('drizzle-orm');
    const { ids } = await postPayments([{ amount: '2.00', payment_method: 'check' }]);
    const batch = (await body(await server.admin.post('/api/claims/payment-batches/', batchDoc(ids)))).data;
    await server.admin.post(
      `/api/claims/payments/${ids[0]}/clear/`,
      clearDoc({ cleared_date: batch.attributes.run_at.slice(0, 10) }),
    );
    for (const statement of [
      sql`update claims.payment_clearance set cleared_date = null`,
      sql`delete from claims.payment_clearance`,
    ]) {
      const refusal = await db.execute(statement).then(
        () => 'done',
        (error: any) => String(error?.cause?.message ?? error?.message),
      );
      expect(refusal).toMatch(/cannot be changed or deleted/);
    }
  });
});
