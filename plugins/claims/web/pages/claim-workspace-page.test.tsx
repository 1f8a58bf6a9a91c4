// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { claimsAccountingRoute, claimsExposuresRoute, claimsLossDetailRoute } from '../routes.js';
import ClaimWorkspacePage from './claim-workspace-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data, meta: { count: Array.isArray(data) ? data.length : 1, pages: 1 } }), {
    status: 200,
    headers: { ...JSONAPI, ...headers },
  });
const claim = (version: number, description = 'Rear-ended at a light') => ({
  type: 'claim',
  id: '7',
  attributes: {
    number: 'CLM-7',
    status: 'open',
    policy_number: 'POL-1001',
    date_of_loss: '2026-02-03T00:00:00.000Z',
    loss_description: description,
    primary_adjuster: 'adjuster@atrium.test',
    total_incurred: '0.00',
  },
  relationships: { product: { data: { type: 'product', id: '3' } } },
});
const totals = (paid: string) => ({
  reserve_outstanding: '0.00',
  paid,
  recovered: '0.00',
  total_incurred: paid,
  net_paid: paid,
  net_incurred: paid,
});
const base = {
  'GET /claims/products/:id/': () => doc({ type: 'product', id: '3', attributes: { name: 'auto' } }),
  'GET /claims/exposures/': () =>
    doc([{ type: 'exposure', id: '11', attributes: { number: '1', exposure_name: 'Collision', status: 'open' } }]),
  'GET /claims/reserves/': () => doc([]),
  'GET /claims/recoveries/': () => doc([]),
  'GET /claims/transactions/': () => doc([]),
  'GET /claims/approvals/': () => doc([]),
  'GET /claims/payees/': () => doc([]),
  'GET /claims/parties/': () => doc([]),
  'GET /claims/payment-methods/': () =>
    doc([{ type: 'payment-methods', id: 'check', attributes: { label: 'Check', active: true } }]),
};

/** Picks an option of a Mantine select (its listbox is named by aria-controls). */
async function pickMethod(user: { click(el: Element): Promise<void> }, select: HTMLElement, name: string) {
  await user.click(select);
  const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
  await user.click(await within(listbox).findByRole('option', { name, hidden: true }));
}

describe('claim workspace', () => {
  beforeAll(preloadTestHost);

  it('adds a payment with one Idempotency-Key per form, shows the new totals, and uses a fresh key for the next form', async () => {
    let paid = '0.00';
    const keys: string[] = [];
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsAccountingRoute.path,
      at: claimsAccountingRoute.link({ claimNumber: 'CLM-7' }),
      apis: {
        ...base,
        'GET /claims/claims/by-number/:number/': () => doc(claim(1), { etag: '"claim-7-v1"' }),
        'GET /claims/claims/:id/financials/': () =>
          doc({ type: 'claim-financials', id: '7', attributes: { ...totals(paid), exposures: [] } }),
        'GET /claims/payments/': () => doc([]),
        'POST /claims/payments/': ({ headers, body }) => {
          keys.push(headers.get('idempotency-key') ?? '');
          paid = (body as { data: { attributes: { amount: string } } }).data.attributes.amount;
          return new Response(
            JSON.stringify({
              data: { type: 'payments', id: '90', attributes: { amount: paid, transaction_status: 'posted' } },
            }),
            { status: 201, headers: JSONAPI },
          );
        },
      },
    });
    expect(await screen.findByText('Claim CLM-7')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('total-paid').textContent).toBe('0.00'));

    await host.user.click(await screen.findByRole('button', { name: 'Add payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add payment' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    // Amount and payment method (no method is chosen for the user).
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    await pickMethod(host.user, within(dialog).getByRole('combobox', { name: 'Payment method' }), 'Check');
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Payment amount' }), '1250.505');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save payment' }));
    expect(within(dialog).getByText('Amount can not have more than 2 decimal places.')).toBeTruthy();
    await host.user.clear(within(dialog).getByRole('textbox', { name: 'Payment amount' }));
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Payment amount' }), '1250.50');
    await host.user.dblClick(within(dialog).getByRole('button', { name: 'Save payment' }));

    await waitFor(() => expect(screen.getByTestId('total-paid').textContent).toBe('1,250.50'));
    expect(screen.getByTestId('total-total_incurred').textContent).toBe('1,250.50');
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(new Set(keys).size).toBe(1);
    const posted = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/payments/');
    expect(posted?.body).toMatchObject({
      data: {
        type: 'payments',
        attributes: { amount: '1250.50', reserve_category: 'indemnity', payment_method: 'check', final_payment: false },
        relationships: { exposure: { data: { type: 'exposures', id: '11' } }, payees: { data: [] } },
      },
    });

    await host.user.click(screen.getByRole('button', { name: 'Add payment' }));
    const again = await screen.findByRole('dialog', { name: 'Add payment' });
    await host.user.type(within(again).getByRole('textbox', { name: 'Payment amount' }), '80');
    await pickMethod(host.user, within(again).getByRole('combobox', { name: 'Payment method' }), 'Check');
    await host.user.click(within(again).getByRole('button', { name: 'Save payment' }));
    await waitFor(() => expect(new Set(keys).size).toBe(2));
  });

  it('saves details with If-Match and offers a reload when someone else changed the claim (412)', async () => {
    let version = 1;
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsLossDetailRoute.path,
      at: claimsLossDetailRoute.link({ claimNumber: 'CLM-7' }),
      apis: {
        ...base,
        'GET /claims/claims/by-number/:number/': () =>
          doc(claim(version, version > 1 ? 'Changed by a colleague' : undefined), { etag: `"claim-7-v${version}"` }),
        'PATCH /claims/claims/:id/': ({ headers }) =>
          headers.get('if-match') === `"claim-7-v${version}"`
            ? doc(claim(version + 1), { etag: `"claim-7-v${version + 1}"` })
            : new Response(JSON.stringify({ errors: [{ status: '412', detail: 'The claim has changed.' }] }), {
                status: 412,
                headers: JSONAPI,
              }),
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Edit details' }));
    version = 2; // a colleague saves first
    const description = screen.getByRole('textbox', { name: 'Loss description' });
    await host.user.clear(description);
    await host.user.type(description, 'Hit while parked');
    await host.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This claim was changed by someone else; reload to see the changes.')).toBeTruthy();
    const patch = host.requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      data: { type: 'claim', id: '7', attributes: { loss_description: 'Hit while parked' } },
    });

    await host.user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('Changed by a colleague')).toBeTruthy();
  });

  it('Change status offers the moves the server resolves for the claim and asks for the reason', async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsLossDetailRoute.path,
      at: claimsLossDetailRoute.link({ claimNumber: 'CLM-7' }),
      apis: {
        ...base,
        'GET /claims/claims/by-number/:number/': () => doc(claim(1), { etag: '"claim-7-v1"' }),
        'GET /claims/claims/statuses/': ({ query }) =>
          query.get('claim') === '7'
            ? doc([
                {
                  type: 'status',
                  id: 'claim:open:closed:1',
                  attributes: {
                    from_status: 'open',
                    to_status: 'closed',
                    action: 'Close Claim',
                    reason_required: true,
                    reason: 'Claim Paid',
                  },
                },
                {
                  type: 'status',
                  id: 'claim:open:closed:2',
                  attributes: {
                    from_status: 'open',
                    to_status: 'closed',
                    action: 'Close Claim',
                    reason_required: true,
                    reason: 'Duplicate',
                  },
                },
              ])
            : doc([]),
        'PATCH /claims/claims/:id/': ({ body }) => {
          const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
          return doc({ ...claim(2), attributes: { ...claim(2).attributes, ...attributes } }, { etag: '"claim-7-v2"' });
        },
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change status of claim CLM-7' });
    await host.user.click(await within(dialog).findByRole('combobox', { name: 'New status' }));
    await host.user.click(await screen.findByRole('option', { name: 'Close Claim', hidden: true }));
    await host.user.click(within(dialog).getByRole('button', { name: 'Change status' }));
    expect(within(dialog).getByText('This field is required.')).toBeTruthy();
    await host.user.click(within(dialog).getByRole('combobox', { name: 'Reason' }));
    await host.user.click(await screen.findByRole('option', { name: 'Duplicate', hidden: true }));
    await host.user.click(within(dialog).getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText('Reason: Duplicate')).toBeTruthy();
    const patch = host.requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      data: { attributes: { status: 'closed', status_change_reason: 'Duplicate' } },
    });
  });

  it('adds an exposure after FNOL from the Exposures tab, with names for claimant and coverage', async () => {
    let exposures = [
      { type: 'exposure', id: '11', attributes: { number: '1', exposure_name: 'Collision', status: 'open' } },
    ];
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsExposuresRoute.path,
      at: claimsExposuresRoute.link({ claimNumber: 'CLM-7' }),
      apis: {
        ...base,
        'GET /claims/claims/by-number/:number/': () => {
          const filed = claim(1);
          return doc(
            { ...filed, attributes: { ...filed.attributes, policy_revision_id: 9 } },
            { etag: '"claim-7-v1"' },
          );
        },
        'GET /claims/exposures/': () => doc(exposures),
        // The coverages offered are the policy revision's (not the claim's coverage rows).
        'GET /claims/integrations/policies/revisions/:id/': () =>
          doc({
            type: 'policy-revision',
            id: '9',
            attributes: {
              number: '1',
              coverages: [
                { coverage_type: 'Collision', label: 'Collision', limit: '50000.00', deductible: '500.00', risk: '' },
              ],
            },
          }),
        'GET /claims/integrations/users/exposure-assignments/': () => doc([]),
        'GET /claims/integrations/users/roles/': () =>
          doc([{ type: 'claim-user-role', id: '4', attributes: { name: 'Field Adjuster', label: 'Field Adjuster' } }]),
        'GET /claims/parties/': () =>
          doc([{ type: 'party', id: '5', attributes: { name: 'Pat Neighbor', role: 'claimant', display_number: 2 } }]),
        'GET /claims/coverages/': () => doc([{ type: 'coverage', id: '8', attributes: { name: 'Collision' } }]),
        'GET /claims/risks/': () => doc([]),
        'GET /claims/integrations/users/': () =>
          doc([
            {
              type: 'claim-user',
              id: 'adjuster@atrium.test',
              attributes: { username: 'adjuster@atrium.test', name: 'Casey Adjuster' },
            },
          ]),
        'POST /claims/exposures/': ({ body }) => {
          const created = {
            type: 'exposure',
            id: '12',
            attributes: { number: '2', display_number: 'CLM-7-2', exposure_name: 'Neighbor fence', status: 'open' },
            relationships: { party: { data: { type: 'party', id: '5' } } },
          };
          exposures = [...exposures, created];
          expect(body).toMatchObject({
            data: {
              type: 'exposure',
              attributes: {
                exposure_name: 'Neighbor fence',
                adjuster: 'adjuster@atrium.test',
                coverage_type: 'Collision',
                policy_revision_id: 9,
              },
              relationships: {
                claim: { data: { type: 'claim', id: '7' } },
                party: { data: { type: 'party', id: '5' } },
              },
            },
          });
          return new Response(JSON.stringify({ data: created }), { status: 201, headers: JSONAPI });
        },
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Add exposure' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add exposure' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Add exposure' }));
    expect(within(dialog).getByText('This field is required.')).toBeTruthy();
    await host.user.type(within(dialog).getByRole('textbox', { name: 'Exposure name' }), 'Neighbor fence');
    for (const [field, option] of [
      ['Claimant', 'Pat Neighbor · claimant'],
      ['Coverage', 'Collision · limit 50,000.00 · deductible 500.00'],
      ['Adjuster', 'Casey Adjuster (adjuster@atrium.test)'],
    ] as const) {
      await host.user.click(within(dialog).getByRole('combobox', { name: field }));
      await host.user.click(await screen.findByRole('option', { name: option, hidden: true }));
    }
    await host.user.click(within(dialog).getByRole('button', { name: 'Add exposure' }));
    expect(await screen.findByRole('link', { name: 'CLM-7-2' })).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/claims/exposures/')).toBe(true);
  });

  it("says 'Claim {n} not found.' for an unknown number", async () => {
    await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsLossDetailRoute.path,
      at: claimsLossDetailRoute.link({ claimNumber: 'CLM-404' }),
      apis: {
        'GET /claims/claims/by-number/:number/': ({ params }) =>
          new Response(JSON.stringify({ errors: [{ status: '404', detail: `Claim ${params.number} not found.` }] }), {
            status: 404,
            headers: JSONAPI,
          }),
      },
    });
    expect(await screen.findByText('Claim CLM-404 not found.')).toBeTruthy();
  });
});
