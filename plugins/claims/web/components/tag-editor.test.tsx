// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import ClaimWorkspacePage from '../pages/claim-workspace-page.js';
import { claimsExposureDetailsRoute, claimsLossDetailRoute } from '../routes.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data, meta: { count: Array.isArray(data) ? data.length : 1, pages: 1 } }), {
    headers: { ...JSONAPI, ...headers },
  });
const tag = (id: string, label: string, extra: { level?: string; expired?: boolean; product?: string } = {}) => ({
  type: 'tag',
  id,
  attributes: {
    name: label,
    label,
    expired: extra.expired ?? false,
    attributes: extra.level ? { level: extra.level } : {},
  },
  relationships: { product: { data: extra.product ? { type: 'product', id: extra.product } : null } },
});
const TAGS = [
  tag('1', 'Litigation'),
  tag('2', 'VIP', { level: 'claim' }),
  tag('3', 'Total Loss', { level: 'exposure' }),
  tag('4', 'Old Program', { expired: true }),
  tag('5', 'Boat Claims', { product: '9' }),
  tag('6', 'Auto Fraud', { product: '3' }),
];
const claim = (tagIds: string[]) => ({
  type: 'claim',
  id: '7',
  attributes: { number: 'CLM-7', status: 'open' },
  relationships: {
    product: { data: { type: 'product', id: '3' } },
    tags: { data: tagIds.map((id) => ({ type: 'tag', id })) },
  },
});
const optionsOf = async (host: { user: { click(e: Element): Promise<void> } }, label: string) => {
  const input = screen.getByRole('combobox', { name: label });
  await host.user.click(input);
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  return listbox;
};

describe('tags on a claim and an exposure', () => {
  beforeAll(preloadTestHost);

  it("edits the claim's tags: only active claim-level tags of its product are offered; Save PATCHes the relationship", async () => {
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsLossDetailRoute.path,
      at: claimsLossDetailRoute.link({ claimNumber: 'CLM-7' }),
      apis: {
        'GET /claims/claims/by-number/:number/': () => doc(claim(['1', '4']), { etag: '"claim-7-v1"' }),
        'GET /claims/products/:id/': () => doc({ type: 'product', id: '3', attributes: { name: 'auto' } }),
        'GET /claims/tags/': () => doc(TAGS),
        'PATCH /claims/claims/:id/relationships/tags/': ({ body }) => doc((body as { data: unknown[] }).data),
      },
    });
    const tags = await screen.findByRole('group', { name: 'Claim tags' });
    expect(await within(tags).findByText('Litigation')).toBeTruthy();
    expect(within(tags).getByText('Old Program')).toBeTruthy();
    await host.user.click(await within(tags).findByRole('button', { name: 'Edit tags' }));

    const listbox = await optionsOf(host, 'Claim tags');
    const offered = within(listbox)
      .getAllByRole('option', { hidden: true })
      .map((o) => o.textContent);
    // VIP (claim level), Litigation (no level), Auto Fraud (this product's), and the expired tag it already has.
    expect(offered.sort()).toEqual(['Auto Fraud', 'Litigation', 'Old Program (expired)', 'VIP']);
    await host.user.click(within(listbox).getByRole('option', { name: 'VIP', hidden: true }));
    await host.user.click(screen.getByRole('button', { name: 'Save tags' }));

    const saved = await screen.findByRole('group', { name: 'Claim tags' });
    expect(await within(saved).findByText('VIP')).toBeTruthy();
    const patch = host.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe('/api/claims/claims/7/relationships/tags/');
    expect(patch?.body).toEqual({
      data: [
        { type: 'tag', id: '1' },
        { type: 'tag', id: '4' },
        { type: 'tag', id: '2' },
      ],
    });
  });

  it("edits an exposure's tags with exposure-level tags", async () => {
    let exposureTags: string[] = [];
    const host = await renderInTestHost(<ClaimWorkspacePage />, {
      role: 'Claims Adjuster',
      path: claimsExposureDetailsRoute.path,
      at: claimsExposureDetailsRoute.link({ claimNumber: 'CLM-7', claimant_number: '1', exposure_number: '1' }),
      apis: {
        'GET /claims/claims/by-number/:number/': () => doc(claim([]), { etag: '"claim-7-v1"' }),
        'GET /claims/products/:id/': () => doc({ type: 'product', id: '3', attributes: { name: 'auto' } }),
        'GET /claims/tags/': () => doc(TAGS),
        'GET /claims/exposures/': () =>
          doc([
            {
              type: 'exposure',
              id: '11',
              attributes: { number: 1, display_number: 'CLM-7-1', exposure_name: 'Collision', status: 'open' },
              relationships: { tags: { data: exposureTags.map((id) => ({ type: 'tag', id })) } },
            },
          ]),
        'GET /claims/exposures/:id/': () =>
          doc({ type: 'exposure', id: '11', attributes: { number: 1, status: 'open' } }, { etag: '"e-11"' }),
        'PATCH /claims/exposures/:id/relationships/tags/': ({ body }) => {
          exposureTags = (body as { data: { id: string }[] }).data.map((t) => t.id);
          return doc((body as { data: unknown[] }).data);
        },
      },
    });
    const tags = await screen.findByRole('group', { name: 'Exposure tags' });
    await host.user.click(await within(tags).findByRole('button', { name: 'Edit tags' }));
    const listbox = await optionsOf(host, 'Exposure tags');
    const offered = within(listbox)
      .getAllByRole('option', { hidden: true })
      .map((o) => o.textContent);
    expect(offered.sort()).toEqual(['Auto Fraud', 'Litigation', 'Total Loss']);
    await host.user.click(within(listbox).getByRole('option', { name: 'Total Loss', hidden: true }));
    await host.user.click(screen.getByRole('button', { name: 'Save tags' }));
    const saved = await screen.findByRole('group', { name: 'Exposure tags' });
    expect(await within(saved).findByText('Total Loss')).toBeTruthy();
    expect(host.requests.find((r) => r.method === 'PATCH')?.path).toBe('/api/claims/exposures/11/relationships/tags/');
  });
});
