// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import { claimsAdminPaymentProcessingRoute } from '../routes.js';
import PaymentProcessingPage from './payment-processing-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const jsonApi = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: JSONAPI });

const queueItem = (id: string, attributes: Record<string, unknown>) => ({
  type: 'payment-queue-items',
  id,
  attributes: { check_number: null, batch_number: null, ...attributes } as Record<string, unknown>,
});
const QUEUE = [
  queueItem('11', {
    transaction_number: 'TXN-00000011',
    claim_number: 'CLM-1',
    payee: 'Ada Lovelace',
    amount: '1234.50',
    payment_method: 'check',
    due_date: '2026-01-10',
  }),
  queueItem('12', {
    transaction_number: 'TXN-00000012',
    claim_number: 'CLM-2',
    payee: 'Acme Towing',
    amount: '0.55',
    payment_method: 'ach',
    due_date: null,
  }),
];
const BATCH = {
  type: 'payment-batches',
  id: '7',
  attributes: {
    number: 'PB-000007',
    amount: '1234.50',
    payments_count: 1,
    run_by: 'jane@atrium.test',
    run_at: '2026-11-22T05:00:00.000Z',
  },
};

function apis(state: { batches: unknown[]; queue: unknown[] }) {
  return {
    'GET /claims/payment-batches/queue/': ({ query }: TestApiRequest) => {
      const rows = (state.queue as ReturnType<typeof queueItem>[]).filter(
        (r) =>
          !query.get('filter[payment_method]') || r.attributes.payment_method === query.get('filter[payment_method]'),
      );
      const total = rows.reduce((sum, r) => sum + Math.round(Number(r.attributes.amount) * 100), 0);
      return jsonApi({
        data: rows,
        meta: { count: rows.length, pages: 1, total: (total / 100).toFixed(2), next_check_number: '100001' },
      });
    },
    'GET /claims/payment-batches/': () =>
      jsonApi({ data: state.batches, meta: { count: state.batches.length, pages: 1 } }),
    'GET /claims/payment-batches/:id/payments/': () =>
      jsonApi({ data: [{ ...QUEUE[0], attributes: { ...QUEUE[0]!.attributes, check_number: '100001' } }] }),
    'GET /claims/payment-methods/': () =>
      jsonApi({
        data: [{ type: 'payment-methods', id: 'check', attributes: { name: 'check', label: 'Check', active: true } }],
      }),
    'GET /claims/pay-codes/': () =>
      jsonApi({
        data: [{ type: 'pay-codes', id: 'loss', attributes: { name: 'loss', label: 'Loss payment', active: true } }],
      }),
    'GET /claims/payment-batches/:id/export/': () =>
      new Response('batch_number,check_number\r\nPB-000007,100001\r\n', { headers: { 'content-type': 'text/csv' } }),
  };
}

describe('Payment Processing', () => {
  beforeAll(preloadTestHost);

  it('lists the queue with a decimal running total, runs a batch over the selection after confirming, shows and exports it', async () => {
    const state = { batches: [] as unknown[], queue: QUEUE as unknown[] };
    const downloads: string[] = [];
    URL.createObjectURL = () => {
      downloads.push('blob');
      return 'blob:payment-batch';
    };
    URL.revokeObjectURL = () => undefined;
    const host = await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Administrator',
      apis: {
        ...apis(state),
        'POST /claims/payment-batches/': () => {
          state.batches = [BATCH];
          state.queue = [QUEUE[1]];
          return jsonApi(
            { data: { ...BATCH, relationships: { payments: { data: [{ type: 'payments', id: '11' }] } } } },
            201,
          );
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Payments awaiting issue' });
    await within(table).findByText('Ada Lovelace');
    expect(within(table).getByText('1,234.50')).toBeTruthy();
    expect(screen.getByLabelText('Queue total').textContent).toContain('2 payments awaiting issue, total 1,235.05');

    await host.user.click(within(table).getByRole('checkbox', { name: 'Select TXN-00000011' }));
    expect(screen.getByLabelText('Queue total').textContent).toContain('selected 1, 1,234.50');
    await host.user.click(screen.getByRole('button', { name: 'Run batch for 1 selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run payment batch' });
    expect(within(dialog).getByText(/Issue 1 payment totalling/).textContent).toBe(
      'Issue 1 payment totalling 1,234.50?',
    );
    const firstCheck = within(dialog).getByRole('textbox', { name: /First check number/ });
    expect((firstCheck as HTMLInputElement).value).toBe('100001');
    await host.user.clear(firstCheck);
    await host.user.type(firstCheck, '12.5');
    await host.user.click(within(dialog).getByRole('button', { name: 'Run batch' }));
    expect(await within(dialog).findByText('First check number must be a whole number such as "100001".')).toBeTruthy();
    await host.user.clear(firstCheck);
    await host.user.type(firstCheck, '200000');
    await host.user.click(within(dialog).getByRole('button', { name: 'Run batch' }));

    const detail = await screen.findByRole('dialog', { name: 'Payment batch PB-000007' });
    await within(detail).findByText('100001');
    const run = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/payment-batches/');
    expect(run?.body).toEqual({
      data: {
        type: 'payment-batches',
        attributes: { first_check_number: '200000' },
        relationships: { payments: { data: [{ type: 'payments', id: '11' }] } },
      },
    });
    await host.user.click(within(detail).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(host.requests.some((r) => r.path === '/api/claims/payment-batches/7/export/')).toBe(true);

    const batches = await screen.findByRole('table', { name: 'Payment batches' });
    await within(batches).findByText('PB-000007');
    expect(within(batches).getByText('jane@atrium.test')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('Ada Lovelace')).toBeNull());
  });

  it('filters by method and due date, and runs all due payments of the filter with the server’s refusal shown', async () => {
    const state = { batches: [] as unknown[], queue: QUEUE as unknown[] };
    const host = await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Administrator',
      apis: {
        ...apis(state),
        'POST /claims/payment-batches/': () =>
          jsonApi(
            {
              errors: [
                {
                  status: '409',
                  detail: 'Check number 5 or a later one was already issued; the next free check number is 100001.',
                  source: { pointer: '/data/attributes/first_check_number' },
                },
              ],
            },
            409,
          ),
      },
    });
    const table = await screen.findByRole('table', { name: 'Payments awaiting issue' });
    await within(table).findByText('Acme Towing');
    const method = screen.getByRole('combobox', { name: 'Payment method' });
    await host.user.click(method);
    const listbox = await waitFor(() => document.getElementById(method.getAttribute('aria-controls') ?? '')!);
    await host.user.click(await within(listbox).findByRole('option', { name: 'Check', hidden: true }));
    await waitFor(() => expect(within(table).queryByText('Acme Towing')).toBeNull());
    expect(screen.getByLabelText('Queue total').textContent).toContain('1 payment awaiting issue, total 1,234.50');
    const due = screen.getByLabelText('Due on or before');
    await host.user.type(due, '2026-02-01');
    await waitFor(() =>
      expect(
        host.requests.some(
          (r) =>
            r.path === '/api/claims/payment-batches/queue/' && r.search.includes('filter%5Bdue_date_to%5D=2026-02-01'),
        ),
      ).toBe(true),
    );
    await host.user.click(screen.getByRole('button', { name: 'Run batch for all due' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run payment batch' });
    await host.user.clear(within(dialog).getByRole('textbox', { name: /First check number/ }));
    await host.user.type(within(dialog).getByRole('textbox', { name: /First check number/ }), '5');
    await host.user.click(within(dialog).getByRole('button', { name: 'Run batch' }));
    expect(await within(dialog).findByText(/Check number 5 or a later one was already issued/)).toBeTruthy();
    const run = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/payment-batches/');
    expect(run?.body).toEqual({
      data: {
        type: 'payment-batches',
        attributes: { payment_method: 'check', due_date_to: '2026-02-01', first_check_number: '5' },
      },
    });
  });

  it('offers no batch run to a role that may not create payment batches', async () => {
    const state = { batches: [BATCH] as unknown[], queue: QUEUE as unknown[] };
    await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Claims Adjuster',
      apis: {
        ...apis(state),
        'POST /access/evaluations': ({ body }: TestApiRequest) =>
          new Response(
            JSON.stringify({
              results: (body as { requests: { resource: string; action: string }[] }).requests.map((r) => ({
                evaluation: { allowed: !(r.resource === 'claims:payment-batch' && r.action === 'create') },
              })),
            }),
            { headers: { 'content-type': 'application/json' } },
          ),
      },
    });
    const batches = await screen.findByRole('table', { name: 'Payment batches' });
    await within(batches).findByText('PB-000007');
    await within(await screen.findByRole('table', { name: 'Payments awaiting issue' })).findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: /Run batch/ })).toBeNull();
  });

  it('maintains payment methods and pay codes: add with the spec’s messages, deactivate, a refused delete explained', async () => {
    let methods = [
      { type: 'payment-methods', id: 'check', attributes: { name: 'check', label: 'Check', active: true } },
    ];
    const host = await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Administrator',
      apis: {
        ...apis({ batches: [], queue: [] }),
        'GET /claims/payment-methods/': () => jsonApi({ data: methods }),
        'POST /claims/payment-methods/': ({ body }: TestApiRequest) => {
          const attributes = (body as { data: { attributes: { name: string; label: string } } }).data.attributes;
          methods = [
            ...methods,
            { type: 'payment-methods', id: attributes.name, attributes: { ...attributes, active: true } },
          ];
          return jsonApi({ data: methods.at(-1) }, 201);
        },
        'PATCH /claims/payment-methods/:name/': ({ params, body }: TestApiRequest) => {
          const active = (body as { data: { attributes: { active: boolean } } }).data.attributes.active;
          methods = methods.map((m) => (m.id === params.name ? { ...m, attributes: { ...m.attributes, active } } : m));
          return jsonApi({ data: methods.find((m) => m.id === params.name) });
        },
        'DELETE /claims/payment-methods/:name/': () =>
          jsonApi(
            {
              errors: [
                {
                  status: '409',
                  detail: 'Payment method check is built in and cannot be deleted; deactivate it instead.',
                },
              ],
            },
            409,
          ),
      },
    });
    const table = await screen.findByRole('table', { name: 'Payment methods' });
    await within(table).findByText('Check');
    const form = screen.getByRole('form', { name: 'Add payment method' });
    await host.user.type(within(form).getByRole('textbox', { name: 'Name' }), 'virtual card');
    await host.user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByText('The Name cannot contain spaces.')).toBeTruthy();
    expect(within(form).getByText('This field is required.')).toBeTruthy();
    await host.user.clear(within(form).getByRole('textbox', { name: 'Name' }));
    await host.user.type(within(form).getByRole('textbox', { name: 'Name' }), 'virtual_card');
    await host.user.type(within(form).getByRole('textbox', { name: 'Label' }), 'Virtual card');
    await host.user.click(within(form).getByRole('button', { name: 'Add' }));
    await within(table).findByText('Virtual card');

    await host.user.click(within(table).getByRole('button', { name: 'Deactivate virtual_card' }));
    await within(table).findByRole('button', { name: 'Activate virtual_card' });
    await host.user.click(within(table).getByRole('button', { name: 'Delete check' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/Payment method check is built in and cannot be deleted/)).toBeTruthy();
  });

  it('opens the confirmation for every due payment when the palette’s Run payment batch opened it', async () => {
    const host = await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Administrator',
      path: claimsAdminPaymentProcessingRoute.path,
      at: claimsAdminPaymentProcessingRoute.link({}, { action: 'run' }),
      apis: apis({ batches: [], queue: QUEUE }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Run payment batch' });
    expect(within(dialog).getByText(/Issue 2 payments totalling/).textContent).toBe(
      'Issue 2 payments totalling 1,235.05?',
    );
    await waitFor(() => expect(host.location().search).toBe(''));
  });

  it('marks an issued payment cleared, and a correction asks for a reason', async () => {
    let cleared: string | null = null;
    const host = await renderInTestHost(<PaymentProcessingPage />, {
      role: 'Administrator',
      apis: {
        ...apis({ batches: [BATCH], queue: [] }),
        'GET /claims/payment-batches/:id/payments/': () =>
          jsonApi({
            data: [
              { ...QUEUE[0], attributes: { ...QUEUE[0]!.attributes, check_number: '100001', cleared_date: cleared } },
            ],
          }),
        'POST /claims/payments/:id/clear/': ({ body }: TestApiRequest) => {
          cleared = (body as { data: { attributes: { cleared_date: string } } }).data.attributes.cleared_date;
          return jsonApi({ data: { type: 'payments', id: '11', attributes: { cleared_date: cleared } } }, 201);
        },
      },
    });
    const batches = await screen.findByRole('table', { name: 'Payment batches' });
    await host.user.click(await within(batches).findByRole('button', { name: 'View PB-000007' }));
    const detail = await screen.findByRole('dialog', { name: 'Payment batch PB-000007' });
    await host.user.click(await within(detail).findByRole('button', { name: 'Mark cleared TXN-00000011' }));
    let dialog = await screen.findByRole('dialog', { name: 'Mark cleared' });
    const date = within(dialog).getByLabelText('Cleared date');
    await host.user.clear(date);
    await host.user.type(date, '2026-11-20');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(detail).findByText('2026-11-20');
    expect(host.requests.find((r) => r.path === '/api/claims/payments/11/clear/')?.body).toEqual({
      data: { type: 'payments', attributes: { cleared_date: '2026-11-20' } },
    });

    await host.user.click(within(detail).getByRole('button', { name: 'Correct cleared date of TXN-00000011' }));
    dialog = await screen.findByRole('dialog', { name: 'Correct cleared date' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('This field is required.')).toBeTruthy();
    expect(host.requests.filter((r) => r.path === '/api/claims/payments/11/clear/')).toHaveLength(1);
  });
});
