// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import ClaimWorkspacePage from '../pages/claim-workspace-page.js';
import { claimsAccountingRoute } from '../routes.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, headers: Record<string, string> = {}, status = 200) =>
  new Response(JSON.stringify({ data, meta: { count: Array.isArray(data) ? data.length : 1, pages: 1 } }), {
    status,
    headers: { ...JSONAPI, ...headers },
  });
const totals = (recovered: string) => ({
  reserve_outstanding: '1000.00',
  paid: '0.00',
  recovered,
  total_incurred: '1000.00',
  net_paid: `-${recovered}`,
  net_incurred: (1000 - Number(recovered)).toFixed(2),
});
const claim = {
  type: 'claim',
  id: '7',
  attributes: { number: 'CLM-7', status: 'open', total_incurred: '1000.00' },
  relationships: { product: { data: { type: 'product', id: '3' } } },
};

/** The claim CLM-7 with its product and one exposure, as the workspace loads them. */
const claimApis = {
  'GET /claims/claims/by-number/:number/': () => doc(claim, { etag: '"claim-7-v1"' }),
  'GET /claims/products/:id/': () => doc({ type: 'product', id: '3', attributes: { name: 'auto' } }),
  'GET /claims/exposures/': () =>
    doc([
      {
        type: 'exposure',
        id: '11',
        attributes: { number: 1, display_number: 'CLM-7-1', exposure_name: 'Collision', status: 'open' },
      },
    ]),
};

describe('accounting tab: recoveries', () => {
  beforeAll(preloadTestHost);

  it('records a subrogation recovery with payor, party, pay code and date under one Idempotency-Key, then shows the server totals', async () => {
    let recovered = '0.00';
    const keys: string[] = [];
    const recoveries: unknown[] = [];
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsAccountingRoute.path,
      at: claimsAccountingRoute.link({ claimNumber: 'CLM-7' }, { action: 'recovery' }),
      apis: {
        ...claimApis,
        'GET /claims/parties/': () =>
          doc([{ type: 'party', id: '5', attributes: { display_number: 2, name: 'Other Driver', role: 'claimant' } }]),
        'GET /claims/payors/': () => doc([{ type: 'payors', id: '8', attributes: { name: 'Acme Mutual' } }]),
        'GET /claims/claims/:id/financials/': () =>
          doc({
            type: 'claim-financials',
            id: '7',
            attributes: {
              ...totals(recovered),
              exposures: [
                {
                  ...totals(recovered),
                  exposure_id: '11',
                  display_number: 'CLM-7-1',
                  exposure_name: 'Collision',
                  categories: [],
                },
              ],
            },
          }),
        'GET /claims/reserves/': () => doc([]),
        'GET /claims/payments/': () => doc([]),
        'GET /claims/recoveries/': () => doc(recoveries),
        'GET /claims/transactions/': () => doc([]),
        'GET /claims/approvals/': () => doc([]),
        'POST /claims/recoveries/': ({ headers, body }) => {
          keys.push(headers.get('idempotency-key') ?? '');
          const data = (body as { data: { attributes: Record<string, string>; relationships: unknown } }).data;
          recovered = data.attributes.amount!;
          const created = {
            type: 'recoveries',
            id: '70',
            attributes: { ...data.attributes, transaction_status: 'posted', voided: false },
            relationships: {
              exposure: { data: { type: 'exposures', id: '11' } },
              payor: { data: { type: 'payors', id: '8' } },
              party: { data: { type: 'parties', id: '5' } },
            },
          };
          recoveries.push(created);
          return doc(created, {}, 201);
        },
      },
    });

    // ?action=recovery (the palette's Add Recovery) opens the form at once.
    const dialog = await screen.findByRole('dialog', { name: 'Add recovery' });
    await waitFor(() => expect(screen.getByTestId('total-recovered').textContent).toBe('0.00'));
    await host.user.click(within(dialog).getByRole('button', { name: 'Save recovery' }));
    expect(within(dialog).getByText('This field is required.')).toBeTruthy();

    const choose = async (label: string, option: string) => {
      const select = within(dialog).getByRole('combobox', { name: label });
      await host.user.click(select);
      const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
      await host.user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
    };
    await choose('Recovery type', 'Subrogation');
    await choose('Payor', 'Acme Mutual');
    await choose('Party', '2 Other Driver');
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Amount received' }), '400.00');
    const received = within(dialog).getByLabelText('Received date');
    await host.user.clear(received);
    await host.user.type(received, '2026-03-04');
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Pay code' }), 'SUB-1');
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Comments' }), 'From the other carrier');
    await host.user.dblClick(within(dialog).getByRole('button', { name: 'Save recovery' }));

    await waitFor(() => expect(screen.getByTestId('total-recovered').textContent).toBe('400.00'));
    expect(screen.getByTestId('total-net_incurred').textContent).toBe('600.00');
    expect(new Set(keys).size).toBe(1);
    const posted = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/recoveries/');
    expect(posted?.body).toEqual({
      data: {
        type: 'recoveries',
        attributes: {
          amount: '400.00',
          reserve_category: 'indemnity',
          recovery_type: 'subrogation',
          comments: 'From the other carrier',
          received_date: '2026-03-04',
          pay_code: 'SUB-1',
        },
        relationships: {
          exposure: { data: { type: 'exposures', id: '11' } },
          payor: { data: { type: 'payors', id: '8' } },
          party: { data: { type: 'parties', id: '5' } },
        },
      },
    });

    const table = await screen.findByRole('table', { name: 'Recoveries' });
    const row = within(table).getByText('Acme Mutual').closest('tr')!;
    expect(within(row).getByText('Other Driver')).toBeTruthy();
    expect(within(row).getByText('SUB-1')).toBeTruthy();
    expect(within(row).getByText('CLM-7-1 Collision')).toBeTruthy();
    const byExposure = screen.getByRole('table', { name: 'Totals by exposure' });
    expect(within(byExposure).getByText('600.00')).toBeTruthy();
  });
});

describe('accounting tab: payments', () => {
  beforeAll(preloadTestHost);

  it('offers the active payment methods and the claim’s parties as payees, and posts the ones chosen', async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsAccountingRoute.path,
      at: claimsAccountingRoute.link({ claimNumber: 'CLM-7' }, { action: 'payment' }),
      apis: {
        ...claimApis,
        'GET /claims/exposures/': () =>
          doc([
            {
              type: 'exposure',
              id: '11',
              attributes: { number: 1, display_number: 'CLM-7-1', exposure_name: 'Collision', status: 'open' },
              relationships: { claim: { data: { type: 'claim', id: '7' } } },
            },
          ]),
        'GET /claims/parties/': () =>
          doc([{ type: 'party', id: '5', attributes: { display_number: 2, name: 'Other Driver', role: 'claimant' } }]),
        'GET /claims/payors/': () => doc([]),
        'GET /claims/payees/': () =>
          doc([
            { type: 'payees', id: '30', attributes: { name: 'Body Shop Inc', party_id: null } },
            { type: 'payees', id: '29', attributes: { name: 'Someone Elsewhere', party_id: 99 } },
          ]),
        'POST /claims/payees/': ({ body }) =>
          (body as { data: { attributes: { party_id: number } } }).data.attributes.party_id === 5
            ? doc({ type: 'payees', id: '31', attributes: { name: 'Other Driver', party_id: 5 } }, {}, 201)
            : doc({ errors: [{ detail: 'Party not found.' }] }, {}, 400),
        'GET /claims/payment-methods/': ({ url }) =>
          doc(
            [
              { type: 'payment-methods', id: 'check', attributes: { name: 'check', label: 'Check', active: true } },
              {
                type: 'payment-methods',
                id: 'eft',
                attributes: { name: 'eft', label: 'Electronic transfer', active: true },
              },
              { type: 'payment-methods', id: 'card', attributes: { name: 'card', label: 'Card', active: false } },
            ].filter((m) => url.searchParams.get('filter[active]') !== 'true' || m.attributes.active),
          ),
        'GET /claims/claims/:id/financials/': () =>
          doc({ type: 'claim-financials', id: '7', attributes: { ...totals('0.00'), exposures: [] } }),
        'GET /claims/reserves/': () => doc([]),
        'GET /claims/payments/': () => doc([]),
        'GET /claims/recoveries/': () => doc([]),
        'GET /claims/transactions/': () => doc([]),
        'GET /claims/approvals/': () => doc([]),
        'POST /claims/payments/': ({ body }) => {
          const data = (body as { data: { attributes: Record<string, string> } }).data;
          return doc(
            {
              type: 'payments',
              id: '90',
              attributes: { ...data.attributes, transaction_status: 'posted', voided: false },
              relationships: { exposure: { data: { type: 'exposures', id: '11' } } },
            },
            {},
            201,
          );
        },
      },
    });

    const dialog = await screen.findByRole('dialog', { name: 'Add payment' });
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Payment amount' }), '125.00');
    // No method chosen: the form says so instead of posting a default.
    await host.user.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    expect(within(dialog).getByText('This field is required.')).toBeTruthy();

    // The payee picker: the claim's parties first, then the payees list; it filters as you type.
    const payee = within(dialog).getByRole('combobox', { name: 'Payee' });
    await host.user.click(payee);
    const payees = await waitFor(() => document.getElementById(payee.getAttribute('aria-controls') ?? '')!);
    await waitFor(() =>
      expect(
        within(payees)
          .getAllByRole('option', { hidden: true })
          .map((o) => o.textContent),
      ).toEqual(['Other Driver (Claimant)', 'Body Shop Inc']),
    );
    await host.user.type(payee, 'driv');
    await waitFor(() =>
      expect(
        within(payees)
          .getAllByRole('option', { hidden: true })
          .map((o) => o.textContent),
      ).toEqual(['Other Driver (Claimant)']),
    );
    await host.user.click(within(payees).getByRole('option', { name: 'Other Driver (Claimant)', hidden: true }));

    const select = within(dialog).getByRole('combobox', { name: 'Payment method' });
    await host.user.click(select);
    const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
    expect(
      (await within(listbox).findAllByRole('option', { hidden: true })).map((option) => option.textContent),
    ).toEqual(['Check', 'Electronic transfer']);
    await host.user.click(within(listbox).getByRole('option', { name: 'Electronic transfer', hidden: true }));
    await host.user.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    await waitFor(() =>
      expect(host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/payments/')?.body).toMatchObject({
        data: {
          attributes: { amount: '125.00', payment_method: 'eft' },
          relationships: { payees: { data: [{ type: 'payees', id: '31' }] } },
        },
      }),
    );
  });
});
