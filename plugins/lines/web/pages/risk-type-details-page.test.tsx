// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { riskTypeDetailsRoute } from '../routes.js';
import RiskTypeDetailsPage from './risk-type-details-page.js';
import { FIELDS, HO3, HOMEOWNERS_LINES, problem, RISK_TYPES } from './test-fixtures.js';

const base = {
  ...HOMEOWNERS_LINES,
  'GET /lines/products/': [HO3],
  'GET /lines/products/5/risk-types/': RISK_TYPES,
  'GET /lines/products/5/risk-types/7/risk-fields/': FIELDS,
  'GET /lines/field-formats/': [{ id: 1, name: 'year', label: 'Year', field_types: ['number'] }],
  'GET /lines/products/5/risk-types/7/risk-items/': [
    {
      id: 41,
      name: 'dwelling_coverage',
      label: 'Dwelling coverage',
      presence: 'required',
      type: 'coverage',
      fully_earned: false,
      limits: [
        { id: 51, kind: 'limit', label: 'Coverage A', default_value: '300000', min_value: '50000', max_value: null },
      ],
      deductibles: [{ id: 52, kind: 'deductible', label: 'All perils', default_value: '1000' }],
    },
  ],
};

describe('risk type details page', () => {
  beforeAll(preloadTestHost);

  it('adds a field to a draft version, checking the form rules first and mapping the server’s errors', async () => {
    let attempts = 0;
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling?version_id=12',
      apis: {
        ...base,
        'POST /lines/products/5/risk-types/7/risk-fields/': ({ body }) =>
          ++attempts === 1
            ? problem(400, 'Invalid field', [{ pointer: '/default_value', detail: "'abc' is not a number." }])
            : { id: 33, ...(body as object) },
      },
    });
    const table = await screen.findByRole('table', { name: 'Fields' });
    expect(await within(table).findByText('year_built')).toBeTruthy();
    expect(within(await screen.findByRole('tree', { name: 'Risk type tree' })).getByText('Swimming pool')).toBeTruthy();
    expect(screen.queryByTestId('read-only-notice')).toBeNull();

    await host.user.click(screen.getByRole('button', { name: 'Add field' }));
    const editor = screen.getByLabelText('Field editor');
    await host.user.type(within(editor).getByLabelText(/Name/), 'roof age');
    await host.user.type(within(editor).getByLabelText(/Label/), 'Roof age');
    await host.user.click(within(editor).getByRole('button', { name: 'Save field' }));
    expect(within(editor).getByText('The Name cannot contain spaces.')).toBeTruthy();
    await host.user.clear(within(editor).getByLabelText(/Name/));
    await host.user.type(within(editor).getByLabelText(/Name/), 'roof_age');
    await host.user.click(within(editor).getByRole('button', { name: 'Save field' }));
    expect(await within(editor).findByText("'abc' is not a number.")).toBeTruthy();
    await host.user.click(within(editor).getByRole('button', { name: 'Save field' }));
    expect(await screen.findByText("Field 'roof_age' created.")).toBeTruthy();
    const posts = host.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/risk-fields/'));
    expect(posts.map((r) => r.search)).toEqual(['?version_id=12', '?version_id=12']);
    expect(posts[1]!.body).toEqual({
      name: 'roof_age',
      label: 'Roof age',
      type: 'string',
      default_value: null,
      source: null,
      required: false,
      format_id: null,
      options: null,
      formula: null,
    });
  });

  it('reorders fields with the up/down buttons', async () => {
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling?version_id=12',
      apis: { ...base, 'POST /lines/products/5/risk-types/7/risk-fields/reorder/': { ok: true } },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Move construction up' }));
    expect(await screen.findByText('Field order saved.')).toBeTruthy();
    expect(host.requests.find((r) => r.path.endsWith('/reorder/'))?.body).toEqual({ order: [32, 31] });
  });

  it('lists deleted fields on request and restores one', async () => {
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling?version_id=12',
      apis: {
        ...base,
        'GET /lines/products/5/risk-types/7/risk-fields/': ({ query }) =>
          query.get('deleted') === 'true'
            ? {
                count: 1,
                results: [
                  { id: 35, name: 'old_roof', label: 'Old roof', type: 'string', deleted_at: '2026-05-01T00:00:00Z' },
                ],
              }
            : { count: FIELDS.length, results: FIELDS },
        'POST /lines/products/5/risk-types/7/risk-fields/35/restore/': { id: 35 },
      },
    });
    const table = await screen.findByRole('table', { name: 'Fields' });
    await within(table).findByText('year_built');
    expect(within(table).queryByText('old_roof')).toBeNull();
    await host.user.click(screen.getByLabelText('Show deleted fields'));
    await within(table).findByText('old_roof');
    await host.user.click(screen.getByRole('button', { name: 'Restore old_roof' }));
    expect(await screen.findByText("Field 'old_roof' restored.")).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'POST' && r.path.endsWith('/risk-fields/35/restore/'))).toBe(true);
  });

  it('shows a published version read-only with the reason, and a field opened from the hash', async () => {
    await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/field-construction?version_id=11',
      apis: base,
    });
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(
      'Version 2026.1 is published: only a draft version can be edited.',
    );
    const editor = await screen.findByLabelText('Field editor');
    expect(within(editor).getByText('Field construction')).toBeTruthy();
    expect((within(editor).getByLabelText(/Label/) as HTMLInputElement).value).toBe('Construction');
    expect(within(editor).queryByRole('button', { name: 'Save field' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add field' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete year_built' })).toBeNull();
  });

  it('lists items with their limits and deductibles on the items tab', async () => {
    await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/items?version_id=12',
      apis: base,
    });
    const item = await screen.findByLabelText('Item dwelling_coverage');
    expect(within(item).getByText('required')).toBeTruthy();
    const limits = within(item).getByRole('table', { name: 'Limits and deductibles of dwelling_coverage' });
    expect(within(limits).getByText('Coverage A')).toBeTruthy();
    expect(within(limits).getByText('300000')).toBeTruthy();
    expect(within(limits).getByText('All perils')).toBeTruthy();
  });
  it('adds, copies and deletes child risk types', async () => {
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/risk-types?version_id=12',
      apis: {
        ...base,
        'POST /lines/products/5/risk-types/': ({ body }) => ({ id: 9, ...(body as object) }),
        'POST /lines/products/5/risk-types/8/copy/': ({ body }) => ({ id: 10, ...(body as object) }),
        'DELETE /lines/products/5/risk-types/8/': new Response(null, { status: 204 }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Child risk types' });
    expect(within(table).getByText('Swimming pool')).toBeTruthy();

    await host.user.click(await screen.findByRole('button', { name: 'Add child risk type' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add child risk type' });
    await host.user.type(within(dialog).getByLabelText(/Name/), 'trampoline');
    await host.user.type(within(dialog).getByLabelText(/Label/), 'Trampoline');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Risk type 'trampoline' created.")).toBeTruthy();

    await host.user.click(within(table).getByRole('button', { name: 'Copy' }));
    dialog = await screen.findByRole('dialog', { name: 'Copy pool' });
    expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('pool_copy');
    await host.user.clear(within(dialog).getByLabelText(/Name/));
    await host.user.type(within(dialog).getByLabelText(/Name/), 'hot_tub');
    await host.user.clear(within(dialog).getByLabelText(/Label/));
    await host.user.type(within(dialog).getByLabelText(/Label/), 'Hot tub');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Risk type 'pool' copied to 'hot_tub'.")).toBeTruthy();

    await host.user.click(within(table).getByRole('button', { name: 'Delete pool' }));
    expect(await screen.findByText('Are you sure you want to delete this risk type?')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("Risk type 'pool' deleted.")).toBeTruthy();

    const writes = host.requests.filter((r) => r.method !== 'GET' && r.path.includes('/risk-types/'));
    expect(writes.map((r) => [r.method, r.path, r.search, r.body])).toEqual([
      [
        'POST',
        '/api/lines/products/5/risk-types/',
        '?version_id=12',
        { name: 'trampoline', label: 'Trampoline', parent_risk_type_id: 7 },
      ],
      ['POST', '/api/lines/products/5/risk-types/8/copy/', '?version_id=12', { name: 'hot_tub', label: 'Hot tub' }],
      ['DELETE', '/api/lines/products/5/risk-types/8/', '?version_id=12', undefined],
    ]);
  });
  it('adds an item and a limit under it (amounts checked as decimals)', async () => {
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/items?version_id=12',
      apis: {
        ...base,
        'POST /lines/products/5/risk-types/7/risk-items/': ({ body }) => ({ id: 42, ...(body as object) }),
        'POST /lines/products/5/risk-types/7/risk-items/41/limits/': ({ body }) => ({ id: 53, ...(body as object) }),
      },
    });
    await screen.findByLabelText('Item dwelling_coverage');
    await host.user.click(await screen.findByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'New item' });
    await host.user.type(within(dialog).getByLabelText(/Name/), 'jewelry');
    await host.user.type(within(dialog).getByLabelText(/Label/), 'Scheduled jewelry');
    await host.user.click(within(dialog).getByLabelText('Fully earned'));
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Item 'jewelry' saved.")).toBeTruthy();

    await host.user.click(screen.getByRole('button', { name: 'Add limit or deductible' }));
    const limit = await screen.findByRole('dialog', { name: 'Add limit or deductible to dwelling_coverage' });
    await host.user.type(within(limit).getByLabelText(/Label/), 'Wind deductible');
    await host.user.type(within(limit).getByLabelText('Default'), '1,000');
    await host.user.click(within(limit).getByRole('button', { name: 'Save' }));
    expect(within(limit).getByText('Default must be a number.')).toBeTruthy();
    await host.user.clear(within(limit).getByLabelText('Default'));
    await host.user.type(within(limit).getByLabelText('Default'), '2500.00');
    await host.user.click(within(limit).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Limit 'Wind deductible' created.")).toBeTruthy();
    const posts = host.requests.filter((r) => r.method === 'POST' && r.path.includes('/risk-items/'));
    expect(posts.map((r) => r.body)).toEqual([
      { name: 'jewelry', label: 'Scheduled jewelry', presence: 'optional', type: 'coverage', fully_earned: true },
      { kind: 'limit', name: '', label: 'Wind deductible', default_value: '2500.00', min_value: null, max_value: null },
    ]);
  });

  it('edits an existing limit under an item, named or main, and sends it with PUT', async () => {
    const host = await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/items?version_id=12',
      apis: {
        ...base,
        'PUT /lines/products/5/risk-types/7/risk-items/41/limits/51/': ({ body }) => ({ id: 51, ...(body as object) }),
      },
    });
    const item = await screen.findByLabelText('Item dwelling_coverage');
    await host.user.click(await within(item).findByRole('button', { name: 'Edit limit Coverage A' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit limit Coverage A of dwelling_coverage' });
    expect((within(dialog).getByLabelText('Default') as HTMLInputElement).value).toBe('300000');
    expect((within(dialog).getByLabelText('Minimum') as HTMLInputElement).value).toBe('50000');
    await host.user.type(within(dialog).getByLabelText('Name'), 'coverage_a');
    await host.user.clear(within(dialog).getByLabelText('Maximum'));
    await host.user.type(within(dialog).getByLabelText('Maximum'), 'lots');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Maximum must be a number.')).toBeTruthy();
    await host.user.clear(within(dialog).getByLabelText('Maximum'));
    await host.user.type(within(dialog).getByLabelText('Maximum'), '900000');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Limit 'Coverage A' saved.")).toBeTruthy();
    const puts = host.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, r.search, r.body])).toEqual([
      [
        '/api/lines/products/5/risk-types/7/risk-items/41/limits/51/',
        '?version_id=12',
        {
          kind: 'limit',
          name: 'coverage_a',
          label: 'Coverage A',
          default_value: '300000',
          min_value: '50000',
          max_value: '900000',
        },
      ],
    ]);
  });

  it('offers no limit edit on a published version', async () => {
    await renderInTestHost(<RiskTypeDetailsPage />, {
      path: riskTypeDetailsRoute.path,
      at: '/lines/Homeowners/products/HO3/risk-types/dwelling/items?version_id=11',
      apis: base,
    });
    const item = await screen.findByLabelText('Item dwelling_coverage');
    await within(item).findByText('Coverage A');
    expect(within(item).queryByRole('button', { name: 'Edit limit Coverage A' })).toBeNull();
  });
});
