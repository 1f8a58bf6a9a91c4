// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import { ADMIN_MODULES, filterAdminModules } from './admin-modules.js';
import ManualItemsPage from './manual-items-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const jsonApi = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: JSONAPI });
const list = (data: unknown[]) => jsonApi({ data, meta: { count: data.length, pages: 1 } });

type Row = { type: string; id: string; attributes: Record<string, unknown>; relationships?: Record<string, unknown> };
const product = (id: string) => ({ product: { data: id ? { type: 'product', id } : null } });

describe('Manual Items', () => {
  beforeAll(preloadTestHost);

  it('is found by the admin setup search, as is Payment Processing (case-insensitive, by title)', () => {
    expect(filterAdminModules(ADMIN_MODULES, 'MANUAL').map((m) => [m.title, m.to])).toEqual([
      ['Manual Items', '/claims/admin-setup/manual-items'],
    ]);
    expect(filterAdminModules(ADMIN_MODULES, 'payment pro').map((m) => [m.title, m.to])).toEqual([
      ['Payment Processing', '/claims/admin-setup/payment-processing'],
    ]);
  });

  it('searches, adds with the spec’s validation messages, maps server errors and deactivates', async () => {
    let items: Row[] = [
      {
        type: 'manual-item',
        id: '1',
        attributes: { name: 'rental_car', label: 'Rental Car', code: 'RC', description: null, expired: false },
        relationships: product('3'),
      },
      {
        type: 'manual-item',
        id: '2',
        attributes: { name: 'housing', label: 'Temporary Housing', code: null, description: null, expired: false },
        relationships: product(''),
      },
    ];
    let limits: Row[] = [];
    const match = (row: Row, query: URLSearchParams) => {
      const search = query.get('filter[search]')?.toLowerCase();
      return !search || `${row.attributes.name} ${row.attributes.label}`.toLowerCase().includes(search);
    };
    const host = await renderInTestHost(<ManualItemsPage />, {
      role: 'Administrator',
      apis: {
        'GET /claims/products/': list([{ type: 'product', id: '3', attributes: { name: 'auto', label: 'Auto' } }]),
        'GET /claims/manual-items/': ({ query }: TestApiRequest) => list(items.filter((r) => match(r, query))),
        'GET /claims/manual-limits/': ({ query }: TestApiRequest) => list(limits.filter((r) => match(r, query))),
        'POST /claims/manual-limits/': ({ body }: TestApiRequest) => {
          const data = (body as { data: Row }).data;
          if (data.attributes.name === 'taken')
            return jsonApi(
              {
                errors: [
                  {
                    detail: 'A manual limit with this name already exists for this product.',
                    source: { pointer: '/data/attributes/name' },
                  },
                ],
              },
              409,
            );
          limits = [...limits, { ...data, id: '9', attributes: { ...data.attributes, expired: false } }];
          return jsonApi({ data: limits[0] }, 201);
        },
        'PATCH /claims/manual-items/:id/': ({ params, body }: TestApiRequest) => {
          const data = (body as { data: Row }).data;
          items = items.map((r) =>
            r.id === params.id ? { ...r, attributes: { ...r.attributes, ...data.attributes } } : r,
          );
          return jsonApi({ data: items.find((r) => r.id === params.id) });
        },
      },
    });
    const itemsTable = await screen.findByRole('table', { name: 'Manual items' });
    await within(itemsTable).findByText('Rental Car');
    expect(within(itemsTable).getByText('Auto')).toBeTruthy();
    expect(within(itemsTable).getByText('All products')).toBeTruthy();

    await host.user.type(screen.getByRole('textbox', { name: 'Search' }), 'HOUS');
    await waitFor(() => expect(within(itemsTable).queryByText('Rental Car')).toBeNull());
    expect(within(itemsTable).getByText('Temporary Housing')).toBeTruthy();
    expect(host.requests.some((r) => r.search.includes('filter%5Bsearch%5D=HOUS'))).toBe(true);

    await host.user.click(screen.getByRole('button', { name: 'Add manual limit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add manual limit' });
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Code/ }), 'A B');
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Limit amount/ }), '10.005');
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Deductible amount/ }), '-1');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    expect(within(dialog).getByText('The Code cannot contain spaces.')).toBeTruthy();
    expect(within(dialog).getByText('Limit amount can not have more than 2 decimal places.')).toBeTruthy();
    expect(within(dialog).getByText('Deductible amount must be 0 or more.')).toBeTruthy();

    await host.user.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'Housing per day');
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'taken');
    await host.user.clear(within(dialog).getByRole('textbox', { name: /^Code/ }));
    await host.user.clear(within(dialog).getByRole('textbox', { name: /^Limit amount/ }));
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Limit amount/ }), '150.00');
    await host.user.clear(within(dialog).getByRole('textbox', { name: /^Deductible amount/ }));
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('A manual limit with this name already exists for this product.'),
    ).toBeTruthy();
    await host.user.clear(within(dialog).getByRole('textbox', { name: /^Name/ }));
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'housing_daily');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const limitsTable = await screen.findByRole('table', { name: 'Manual limits' });
    await within(limitsTable).findByText('Housing per day');
    const created = host.requests.filter((r) => r.method === 'POST' && r.path === '/api/claims/manual-limits/').at(-1);
    expect(created?.body).toEqual({
      data: {
        type: 'manual-limit',
        attributes: {
          label: 'Housing per day',
          name: 'housing_daily',
          code: null,
          limit_amount: '150.00',
          deductible_amount: null,
          limit_basis: 'per_occurrence',
        },
        relationships: { manual_item: { data: null }, product: { data: null } },
      },
    });

    await host.user.click(within(itemsTable).getByRole('button', { name: 'Deactivate Temporary Housing' }));
    await within(itemsTable).findByText('Inactive');
    expect(host.requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      data: { type: 'manual-item', id: '2', attributes: { expired: true } },
    });
  });
});
