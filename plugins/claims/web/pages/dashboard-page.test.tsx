// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import AssignClaimsPage from './assign-claims-page.js';
import ClaimsDashboardPage from './dashboard-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const claimRow = (id: string, number: string, status = 'open') => ({
  type: 'claim',
  id,
  attributes: { number, status, policy_number: 'POL-1', total_incurred: '10.00' },
});
const claimsAnswer = ({ query }: { query: URLSearchParams }) => {
  const pending = query.get('filter[has_adjuster]') === 'false';
  const rows = pending ? [claimRow('1', 'CLM-1'), claimRow('2', 'CLM-2')] : [claimRow('3', 'CLM-3', 'draft')];
  return new Response(JSON.stringify({ data: rows, meta: { count: pending ? 45 : 1, pages: pending ? 3 : 1 } }), {
    headers: JSONAPI,
  });
};
const claimsQueries = (requests: { path: string; search: string }[]) =>
  requests.filter((r) => r.path === '/api/claims/claims/').map((r) => new URLSearchParams(r.search));

describe('claims dashboard', () => {
  beforeAll(preloadTestHost);

  it('lists my claims, and pending claims pre-filtered has_adjuster false in pages of 20 with the filter panel', async () => {
    const host = await renderInTestHost(<ClaimsDashboardPage />, {
      role: 'Claims Adjuster',
      user: { username: 'adjuster@atrium.test' },
      apis: { 'GET /claims/claims/': claimsAnswer },
    });
    const mine = await screen.findByRole('table', { name: 'My claims' });
    // A draft links to its FNOL, not to a workspace.
    expect(within(mine).getByRole('link', { name: 'CLM-3' }).getAttribute('href')).toBe('/claims/fnol/CLM-3');
    // My claims: the adjuster's own and those the user filed.
    expect(claimsQueries(host.requests)[0]?.get('filter[adjuster_or_filer]')).toBe('adjuster@atrium.test');

    await host.user.click(screen.getByRole('tab', { name: 'Pending claims' }));
    const pending = await screen.findByRole('table', { name: 'Pending claims' });
    expect(within(pending).getByRole('link', { name: 'CLM-1' }).getAttribute('href')).toBe('/claims/CLM-1/details');
    const last = () => claimsQueries(host.requests).at(-1)!;
    expect(last().get('filter[has_adjuster]')).toBe('false');
    expect(last().get('page[size]')).toBe('20');

    await host.user.type(screen.getByRole('textbox', { name: 'Loss state' }), 'TX{Enter}');
    await waitFor(() => expect(last().get('filter[loss_state]')).toBe('TX'));
    expect(last().get('filter[has_adjuster]')).toBe('false');
    expect(screen.getByText('Loss state: TX')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Remove filter Loss state' }));
    await waitFor(() => expect(last().get('filter[loss_state]')).toBeNull());
  });

  it('assigns the selected claims one by one and lists the failures in the batch-failure dialog', async () => {
    const host = await renderInTestHost(<AssignClaimsPage />, {
      role: 'Claims Adjuster',
      apis: {
        'GET /claims/claims/': claimsAnswer,
        'GET /claims/integrations/users/': {
          data: [
            { type: 'claim-user', id: 'u1', attributes: { username: 'casey@atrium.test', name: 'Casey Adjuster' } },
          ],
        },
        'POST /claims/claims/users/:username/assign/claims/': ({ body }) =>
          (body as { claim_ids: number[] }).claim_ids[0] === 2
            ? new Response(JSON.stringify({ errors: [{ status: '400', detail: 'Claim CLM-2 is closed.' }] }), {
                status: 400,
                headers: JSONAPI,
              })
            : new Response(null, { status: 204 }),
      },
    });
    await screen.findByRole('table', { name: 'Pending claims' });
    await host.user.click(screen.getByRole('checkbox', { name: 'Select CLM-1' }));
    await host.user.click(screen.getByRole('checkbox', { name: 'Select CLM-2' }));
    const adjuster = screen.getByRole('combobox', { name: 'Adjuster' });
    await host.user.click(adjuster);
    const listbox = await waitFor(() => document.getElementById(adjuster.getAttribute('aria-controls') ?? '')!);
    await host.user.click(within(listbox).getByRole('option', { name: 'Casey Adjuster', hidden: true }));
    await host.user.click(screen.getByRole('button', { name: 'Assign selected (2)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Batch Action Failed' });
    expect(within(dialog).getByText('We are sorry, batch action failed for 1 items out of 2')).toBeTruthy();
    expect(within(dialog).getByText('CLM-2')).toBeTruthy();
    expect(within(dialog).getByText('Claim CLM-2 is closed.')).toBeTruthy();
    const posts = host.requests.filter((r) => r.method === 'POST' && r.path.includes('/assign/claims/'));
    expect(posts.map((r) => [r.path, r.body])).toEqual([
      ['/api/claims/claims/users/casey%40atrium.test/assign/claims/', { claim_ids: [1] }],
      ['/api/claims/claims/users/casey%40atrium.test/assign/claims/', { claim_ids: [2] }],
    ]);
  });
});
