import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDoc, reserveDoc, startLedgerServer, type LedgerTestServer } from './ledger-test-server.js';

/** payment-methods/ and pay-codes/ (docs/claims-accounting.md, "Payment methods and pay codes"). */
let server: LedgerTestServer;
beforeAll(async () => {
  server = await startLedgerServer();
});
afterAll(async () => {
  await server?.close();
});

const body = async (response: Response) => (await response.json()) as any;
const errorsOf = async (response: Response) =>
  ((await body(response)).errors as { detail: string; source?: { pointer?: string } }[]).map((e) => [
    e.source?.pointer,
    e.detail,
  ]);
const doc = (type: string, attributes: Record<string, unknown>, id?: string) => ({
  data: { type, ...(id ? { id } : {}), attributes },
});

async function pay(attributes: Record<string, unknown>): Promise<Response> {
  const { exposureIds } = await server.createClaim(1);
  await server.adjuster.post(
    '/api/claims/reserves/',
    reserveDoc(exposureIds[0]!, { new_amount: '100.00', reserve_category: 'indemnity' }),
  );
  return server.adjuster.post(
    '/api/claims/payments/',
    paymentDoc(exposureIds[0]!, { amount: '10.00', reserve_category: 'indemnity', ...attributes }),
  );
}

describe('payment methods and pay codes', () => {
  it('start with the built-in rows and answer them by name', async () => {
    const methods = await body(await server.adjuster.get('/api/claims/payment-methods/'));
    expect(methods.data.map((r: any) => [r.id, r.attributes.label, r.attributes.active])).toEqual([
      ['check', 'Check', true],
      ['ach', 'ACH', true],
      ['wire', 'Wire', true],
      ['card', 'Card', true],
    ]);
    const codes = await body(await server.adjuster.get('/api/claims/pay-codes/'));
    expect(codes.data.map((r: any) => r.id)).toEqual(['loss', 'expense']);
    expect((await body(await server.adjuster.get('/api/claims/pay-codes/loss/'))).data.attributes.label).toBe(
      'Loss payment',
    );
    expect((await server.adjuster.get('/api/claims/pay-codes/nope/')).status).toBe(404);
  });

  it('adds a payment method that payments may then use; a deactivated one is refused', async () => {
    const created = await server.admin.post(
      '/api/claims/payment-methods/',
      doc('payment-methods', { name: 'virtual_card', label: 'Virtual card' }),
    );
    expect(created.status).toBe(201);
    expect((await pay({ payment_method: 'virtual_card' })).status).toBe(201);

    const off = await server.admin.patch(
      '/api/claims/payment-methods/virtual_card/',
      doc('payment-methods', { active: false }, 'virtual_card'),
    );
    expect((await body(off)).data.attributes.active).toBe(false);
    const refused = await pay({ payment_method: 'virtual_card' });
    expect(refused.status).toBe(400);
    expect(await errorsOf(refused)).toEqual([
      ['/data/attributes/payment_method', 'Payment method must be one of check, ach, wire, card.'],
    ]);
    const active = await body(await server.adjuster.get('/api/claims/payment-methods/?filter[active]=true'));
    expect(active.data.map((r: any) => r.id)).not.toContain('virtual_card');

    // Used by a payment: deactivate, never delete. Built-in rows are never deleted either.
    const used = await server.admin.delete('/api/claims/payment-methods/virtual_card/');
    expect(used.status).toBe(409);
    expect((await errorsOf(used))[0]![1]).toBe(
      'Payment method virtual_card is used by transactions and cannot be deleted; deactivate it instead.',
    );
    expect((await server.admin.delete('/api/claims/payment-methods/check/')).status).toBe(409);
    await server.admin.post('/api/claims/pay-codes/', doc('pay-codes', { name: 'unused', label: 'Unused' }));
    expect((await server.admin.delete('/api/claims/pay-codes/unused/')).status).toBe(204);
    expect((await server.admin.get('/api/claims/pay-codes/unused/')).status).toBe(404);
    const audit = await body(await server.admin.get('/api/claims/audit-log/?filter[entity_type]=pay-code'));
    expect(audit.data.map((e: any) => e.attributes.action)).toEqual(['delete', 'create']);
  });

  it('refuses bad input with pointers', async () => {
    const cases: [string, unknown, number, [string, string]][] = [
      ['POST', doc('pay-codes', { label: 'No name' }), 400, ['/data/attributes/name', 'This field is required.']],
      [
        'POST',
        doc('pay-codes', { name: 'a b', label: 'Spaces' }),
        400,
        ['/data/attributes/name', 'The Name cannot contain spaces.'],
      ],
      ['POST', doc('pay-codes', { name: 'ok' }), 400, ['/data/attributes/label', 'This field is required.']],
      [
        'POST',
        doc('pay-codes', { name: 'loss', label: 'Again' }),
        409,
        ['/data/attributes/name', 'A pay code named loss already exists.'],
      ],
      [
        'PATCH',
        doc('pay-codes', { name: 'renamed' }, 'loss'),
        400,
        ['/data/attributes/name', 'The name of a pay code cannot change; payments record it.'],
      ],
      [
        'PATCH',
        doc('pay-codes', { label: 'x' }, 'expense'),
        409,
        ['/data/id', 'The id in the body does not match the URL.'],
      ],
    ];
    for (const [method, document, status, error] of cases) {
      const response =
        method === 'POST'
          ? await server.admin.post('/api/claims/pay-codes/', document)
          : await server.admin.patch('/api/claims/pay-codes/loss/', document);
      expect(response.status, JSON.stringify(document)).toBe(status);
      expect(await errorsOf(response)).toContainEqual(error);
    }
    const cash = await pay({ payment_method: 'cash' });
    expect(cash.status).toBe(400);
    expect(await errorsOf(cash)).toContainEqual([
      '/data/attributes/payment_method',
      'Payment method must be one of check, ach, wire, card.',
    ]);
  });

  it('are maintained only with claims:lookup writes (an underwriter reads claims but may not add)', async () => {
    const underwriter = server.as('underwriter@atrium.test');
    expect(
      (await underwriter.post('/api/claims/payment-methods/', doc('payment-methods', { name: 'x', label: 'X' })))
        .status,
    ).toBe(403);
    expect((await underwriter.delete('/api/claims/pay-codes/expense/')).status).toBe(403);
    expect((await server.as('author@atrium.test').get('/api/claims/pay-codes/')).status).toBe(403);
  });
});
