// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { claimsFnolRoute, claimsLossDetailRoute } from '../routes.js';
import FnolPage from './fnol-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...JSONAPI, ...headers } });
const empty = () => json({ data: [], meta: { count: 0, pages: 1 } });
const draft = (attributes: Record<string, unknown>) => ({
  type: 'claim',
  id: '41',
  attributes: { number: 'CLM-000041', fnol_number: 'CLM-000041', status: 'draft', ...attributes },
  // The server resolved the product from the policy type (Auto → product 2).
  relationships: { product: { data: { type: 'product', id: '2' } } },
});
const lookupRow = (type: string, id: string, name: string, productId: string | null) => ({
  type,
  id,
  attributes: { name, label: name, expired: false },
  relationships: { product: { data: productId ? { type: 'product', id: productId } : null } },
});

/** A Mantine select's options (its listbox is named by aria-controls). */
async function optionsOf(user: { click(el: Element): Promise<void> }, label: string) {
  const select = screen.getByRole('combobox', { name: label });
  await user.click(select);
  const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
  return {
    names: () =>
      within(listbox)
        .queryAllByRole('option', { hidden: true })
        .map((o) => o.textContent),
    pick: async (name: string) => user.click(await within(listbox).findByRole('option', { name, hidden: true })),
  };
}

describe('FNOL page', () => {
  beforeAll(preloadTestHost);

  it('searches a policy, saves the draft at every step, submits it and opens the claim', async () => {
    let version = 0;
    const host = await renderInTestHost(<FnolPage />, {
      role: 'Claims Adjuster',
      path: claimsFnolRoute.path,
      at: claimsFnolRoute.link({}),
      routes: { [claimsLossDetailRoute.path]: <p>claim workspace</p> },
      apis: {
        'GET /claims/integrations/policies/search/': ({ query }) =>
          json({
            data:
              query.get('policyNumber') === 'POL-1001'
                ? [
                    {
                      type: 'policy',
                      id: '5',
                      attributes: {
                        policy_number: 'POL-1001',
                        primary_insured: 'Ada Insured',
                        policy_type: 'Auto',
                        revisions: [
                          { id: 8, number: '1', effective_date: '2026-01-01', expiration_date: '2027-01-01' },
                        ],
                      },
                    },
                  ]
                : [],
          }),
        'GET /claims/reported-methods/': empty,
        'GET /claims/integrations/policies/revisions/:id/': ({ params }) =>
          json({
            data: {
              type: 'policy-revision',
              id: params.id,
              attributes: {
                number: 'POL-1001-R1',
                coverages: [
                  {
                    coverage_type: 'Collision',
                    label: 'Collision',
                    limit: '50000.00',
                    deductible: '500.00',
                    risk: '2014 Sedan',
                  },
                  {
                    coverage_type: 'Bodily Injury',
                    label: 'Bodily Injury',
                    limit: '100000.00',
                    deductible: '0.00',
                    risk: '',
                  },
                ],
              },
            },
          }),
        'GET /claims/perils/': () =>
          json({
            data: [lookupRow('peril', '1', 'Fire', '1'), lookupRow('peril', '2', 'Collision', '2')],
            meta: { count: 2, pages: 1 },
          }),
        'GET /claims/loss-categories/': () =>
          json({
            data: [
              lookupRow('loss-category', '3', 'Property Damage', '1'),
              lookupRow('loss-category', '4', 'Auto Physical Damage', '2'),
              lookupRow('loss-category', '5', 'Other', null),
            ],
            meta: { count: 3, pages: 1 },
          }),
        'POST /claims/claims/': ({ body }) => {
          version = 1;
          const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
          return json({ data: draft(attributes) }, 201, { etag: '"claim-41-v1"' });
        },
        'PATCH /claims/claims/:id/': ({ headers, body }) => {
          if (headers.get('if-match') !== `"claim-41-v${version}"`) return json({ errors: [{ detail: 'stale' }] }, 412);
          version += 1;
          const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
          return json({ data: draft(attributes) }, 200, { etag: `"claim-41-v${version}"` });
        },
        'POST /claims/claims/:id/submit/': ({ headers }) =>
          headers.get('if-match') === `"claim-41-v${version}"`
            ? json({ data: { ...draft({}), attributes: { number: 'CLM-000041', status: 'open' } } })
            : json({ errors: [{ detail: 'stale' }] }, 412),
      },
    });

    await host.user.type(screen.getByRole('textbox', { name: 'Policy search' }), 'POL-1001');
    await host.user.click(screen.getByRole('button', { name: 'Search' }));
    await host.user.click(await screen.findByRole('button', { name: 'Select POL-1001' }));
    await host.user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('heading', { name: 'Reported By' })).toBeTruthy();
    await waitFor(() => expect(host.location().pathname).toBe('/claims/fnol/CLM-000041'));
    const created = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/claims/');
    expect(created?.body).toMatchObject({
      data: {
        type: 'claim',
        attributes: {
          status: 'draft',
          current_fnol_step: 'reported-by',
          policy_number: 'POL-1001',
          policy_id: 5,
          policy_revision_id: 8,
        },
      },
    });

    await host.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('This field is required.')).toBeTruthy();
    await host.user.type(screen.getByRole('textbox', { name: 'Reported by' }), 'Ada Insured');
    await host.user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('heading', { name: 'Loss Details' })).toBeTruthy();
    const dateInput = screen.getByLabelText(/Date of loss/);
    await host.user.type(dateInput, '2026-02-03');
    await host.user.type(screen.getByRole('textbox', { name: 'Loss description' }), 'Rear-ended at a light');
    await host.user.type(screen.getByRole('textbox', { name: 'State' }), 'TX');
    // Only the policy product's categories (and the global ones) are offered.
    const categories = await optionsOf(host.user, 'Loss category');
    await waitFor(() => expect(categories.names()).toEqual(['Auto Physical Damage', 'Other']));
    await categories.pick('Auto Physical Damage');
    const perils = await optionsOf(host.user, 'Peril');
    await waitFor(() => expect(perils.names()).toEqual(['Collision']));
    await perils.pick('Collision');
    await host.user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('heading', { name: 'Claimants and Exposures' })).toBeTruthy();
    // The coverage is one of the policy revision's, chosen from a list.
    const coverages = await optionsOf(host.user, 'Coverage');
    await coverages.pick('Collision · limit 50,000.00 · deductible 500.00 · 2014 Sedan');
    await host.user.click(screen.getByRole('button', { name: 'Add exposure' }));
    expect(within(screen.getByRole('table', { name: 'Claimants and exposures' })).getByText('Collision')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('heading', { name: 'Submit Claim' })).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Submit Claim' }));
    await waitFor(() => expect(host.location().pathname).toBe('/claims/CLM-000041/details'));

    const patches = host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body);
    expect(
      patches.map(
        (b) => (b as { data: { attributes: { current_fnol_step: string } } }).data.attributes.current_fnol_step,
      ),
    ).toEqual(['loss-details', 'claimants', 'submit-claim']);
    expect(patches[2]).toMatchObject({
      data: {
        attributes: {
          reported_by: { name: 'Ada Insured' },
          date_of_loss: '2026-02-03',
          loss_location: { state: 'TX' },
          loss_category: 'Auto Physical Damage',
          perils: ['Collision'],
          claimants: [
            { claimant_name: 'Ada Insured', coverage_type: 'Collision', coverage: 'Collision', description: '' },
          ],
        },
      },
    });
  }, 120_000);

  it("shows 'FNOL {n} not found.' for an unknown FNOL number", async () => {
    await renderInTestHost(<FnolPage />, {
      role: 'Claims Adjuster',
      path: claimsFnolRoute.path,
      at: claimsFnolRoute.link({ fnolNumber: 'CLM-9' }),
      apis: {
        'GET /claims/claims/fnol/:number/': ({ params }) =>
          json({ errors: [{ status: '404', detail: `FNOL ${params.number} not found.` }] }, 404),
      },
    });
    expect(await screen.findByText('FNOL CLM-9 not found.')).toBeTruthy();
  });
});
