// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import ClaimWorkspacePage from '../pages/claim-workspace-page.js';
import { claimsExposureDetailsRoute } from '../routes.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data, meta: { count: 1, pages: 1 } }), { headers: { ...JSONAPI, ...headers } });
const exposure = (status: string) => ({
  type: 'exposure',
  id: '11',
  attributes: { number: 1, display_number: 'CLM-7-1', exposure_name: 'Collision', status },
  relationships: { party: { data: { type: 'party', id: '5' } } },
});

describe('exposure details', () => {
  beforeAll(preloadTestHost);

  it('closes an exposure with a reason and If-Match', async () => {
    let status = 'open';
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsExposureDetailsRoute.path,
      at: claimsExposureDetailsRoute.link({ claimNumber: 'CLM-7', claimant_number: '1', exposure_number: '1' }),
      apis: {
        'GET /claims/claims/by-number/:number/': () =>
          doc({ type: 'claim', id: '7', attributes: { number: 'CLM-7', status: 'open' } }, { etag: '"claim-7-v1"' }),
        'GET /claims/exposures/': () => doc([exposure(status)]),
        'GET /claims/exposures/:id/': () => doc(exposure(status), { etag: `"exposure-11-${status}"` }),
        'PATCH /claims/exposures/:id/': ({ headers, body }) => {
          if (headers.get('if-match') !== `"exposure-11-${status}"`) return new Response(null, { status: 412 });
          status = (body as { data: { attributes: { status: string } } }).data.attributes.status;
          return doc(exposure(status));
        },
      },
    });
    expect(await screen.findByRole('heading', { name: /Exposure CLM-7-1 Collision/ })).toBeTruthy();
    const select = await screen.findByRole('combobox', { name: 'Change exposure status' });
    await host.user.click(select);
    const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
    await host.user.click(within(listbox).getByRole('option', { name: 'Close Exposure', hidden: true }));
    expect(screen.getByRole('button', { name: 'Apply to exposure' }).hasAttribute('disabled')).toBe(true);
    await host.user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Paid in full');
    await host.user.click(screen.getByRole('button', { name: 'Apply to exposure' }));
    await waitFor(() => expect(status).toBe('closed'));
    expect(host.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      data: { type: 'exposure', id: '11', attributes: { status: 'closed', status_change_reason: 'Paid in full' } },
    });
  });

  it("says 'Exposure {n} not found.' for a number the claim does not have", async () => {
    await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsExposureDetailsRoute.path,
      at: claimsExposureDetailsRoute.link({ claimNumber: 'CLM-7', claimant_number: '1', exposure_number: '9' }),
      apis: {
        'GET /claims/claims/by-number/:number/': () =>
          doc({ type: 'claim', id: '7', attributes: { number: 'CLM-7', status: 'open' } }, { etag: '"claim-7-v1"' }),
        'GET /claims/exposures/': () => doc([exposure('open')]),
      },
    });
    expect(await screen.findByText('Exposure 9 not found.', undefined, { timeout: 15_000 })).toBeTruthy();
  });
});
