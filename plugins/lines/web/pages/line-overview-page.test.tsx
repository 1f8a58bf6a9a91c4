// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { lineOverviewRoute, riskTypeDetailsRoute } from '../routes.js';
import LineOverviewPage from './line-overview-page.js';
import { HO3, HO3_CONDO, HOMEOWNERS_LINES, problem, RISK_TYPES } from './test-fixtures.js';

const base = {
  ...HOMEOWNERS_LINES,
  'GET /lines/products/': [HO3, HO3_CONDO],
  'GET /lines/products/:p/risk-types/': RISK_TYPES,
};

describe('line overview page', () => {
  beforeAll(preloadTestHost);

  it('shows the product tree with child products and versions, and the selected version’s risk types', async () => {
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners',
      apis: base,
      routes: { [riskTypeDetailsRoute.path]: <p>risk type</p> },
    });
    const tree = await screen.findByRole('tree', { name: 'Product tree' });
    expect(within(tree).getByText('HO3 Special Form')).toBeTruthy();
    expect(within(tree).getByText('HO3 Condo')).toBeTruthy();
    expect(within(tree).getByText('Version 2026.1')).toBeTruthy();
    // Without version_id: the latest version of the line's latest product, a draft (editable).
    expect(screen.getByText('HO3 Special Form · version 2026.2')).toBeTruthy();
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
    await host.user.click(within(tree).getByText('Version 2026.1'));
    expect(host.location().search).toBe('?version_id=11');
    expect(await screen.findByTestId('read-only-notice')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit effective date' })).toBeNull();
    expect(
      host.requests.some((r) => r.path === '/api/lines/products/5/risk-types/' && r.search === '?version_id=11'),
    ).toBe(true);

    await host.user.click(
      await within(await screen.findByRole('tree', { name: 'Risk types' })).findByText('Swimming pool'),
    );
    expect(host.location().pathname).toBe('/lines/Homeowners/products/HO3/risk-types/pool');
    expect(host.location().search).toBe('?version_id=11');
  });

  it('shows a refused publish in full, each failing known-answer case factor by factor', async () => {
    const refusal =
      "This version cannot be published: 1 of 1 known-answer case differs: 'Frame house' expected 812.00, got 830.40 (base_rate: expected 1.20, got 1.23).";
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12',
      apis: {
        ...base,
        'PATCH /lines/products/5/versions/12/status/': problem(400, refusal, [{ detail: refusal }], {
          known_answer: {
            cases: [
              {
                name: 'Frame house',
                passed: false,
                expected_premium: '812.00',
                actual_premium: '830.40',
                differences: [
                  { message: 'base_rate: expected 1.20, got 1.23' },
                  { message: 'termPremium: expected 812.00, got 830.40' },
                ],
              },
            ],
          },
        }),
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Publish' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    const details = screen.getByLabelText('Known-answer case Frame house');
    expect(within(details).getByText('termPremium: expected 812.00, got 830.40')).toBeTruthy();
    expect(host.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ status: 'published' });
  });

  it('asks before deleting a version and opens the add-product form from the addProduct query', async () => {
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12&addProduct=1',
      apis: {
        ...base,
        'DELETE /lines/products/5/versions/12/': new Response(null, { status: 204 }),
        'POST /lines/products/': { id: 9, name: 'HO5', versions: [{ id: 30 }] },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add product' });
    await host.user.type(within(dialog).getByLabelText(/Name/), 'HO5');
    await host.user.type(within(dialog).getByLabelText(/Label/), 'HO5 Comprehensive');
    await host.user.type(within(dialog).getByLabelText(/Effective date/), '2026-09-01');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Product 'HO5' created.")).toBeTruthy();
    expect(host.location().search).toBe('?version_id=30');
    expect(host.requests.find((r) => r.method === 'POST' && r.path === '/api/lines/products/')?.body).toEqual({
      name: 'HO5',
      label: 'HO5 Comprehensive',
      line_id: 1,
      parent_product_id: null,
      effective_date: '2026-09-01',
    });

    await host.navigate('/lines/Homeowners?version_id=12');
    await host.user.click(await screen.findByRole('button', { name: 'Delete version' }));
    expect(await screen.findByText('Are you sure you want to delete this version?')).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await host.user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Version 2026.2 deleted.')).toBeTruthy();
  });
  it('shows the differences per risk type, with child products on request', async () => {
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12',
      apis: {
        ...base,
        'GET /lines/products/5/differences/': ({ query }) => ({
          product: 'HO3',
          differences: [
            {
              product: 'HO3',
              risk_type: 'dwelling',
              label: 'Dwelling',
              status: 'changed',
              added: {
                fields: [
                  {
                    name: 'pool_count',
                    old_value: null,
                    new_value: { type: 'number', label: 'Pools' },
                    options: { added: [], removed: [] },
                  },
                ],
                items: [],
              },
              removed: { fields: [], items: [{ name: 'theft', old_value: { presence: 'optional' }, new_value: null }] },
              changed: {
                fields: [
                  {
                    name: 'construction',
                    old_value: { default: 'frame' },
                    new_value: { default: 'masonry' },
                    options: { added: ['log'], removed: ['adobe'] },
                  },
                ],
                items: [],
              },
            },
            ...(query.get('include_descendants') === 'true'
              ? [
                  {
                    product: 'HO3Condo',
                    risk_type: 'unit',
                    label: 'Unit',
                    status: 'added',
                    added: { fields: [{ name: 'floor', old_value: null, new_value: { type: 'number' } }], items: [] },
                  },
                ]
              : []),
          ],
        }),
      },
    });
    await host.user.click(await screen.findByRole('tab', { name: 'Differences' }));
    const added = await screen.findByRole('table', { name: 'Added fields' });
    expect(within(added).getByText('type: number; label: Pools')).toBeTruthy();
    const changed = screen.getByRole('table', { name: 'Changed fields' });
    expect(within(changed).getByText('default: frame')).toBeTruthy();
    expect(within(changed).getByText('default: masonry')).toBeTruthy();
    expect(within(changed).getByText('+log −adobe')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Removed items' })).getByText('theft')).toBeTruthy();
    expect(screen.queryByText('Unit (HO3Condo) — added')).toBeNull();
    await host.user.click(screen.getByLabelText('Include child products'));
    expect(await screen.findByText('Unit (HO3Condo) — added')).toBeTruthy();
  });
  it('edits the product mapping and starts an export', async () => {
    let exports: object[] = [];
    let puts = 0;
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12',
      apis: {
        ...base,
        'GET /lines/product-mappings/5/': {
          mapping: {
            dwelling: {
              fields: [
                { sources: ['roof_year'], targets: ['roof_age'], operation: 'other', description: 'age from year' },
              ],
            },
          },
        },
        'PUT /lines/product-mappings/5/': () =>
          ++puts === 1
            ? problem(400, "Source 'nope' is not a field of 'dwelling' in this version or the one before it.", [
                {
                  pointer: '/mapping/dwelling/fields/0/sources/1',
                  detail: "Source 'nope' is not a field of 'dwelling' in this version or the one before it.",
                },
              ])
            : { mapping: {} },
        'GET /lines/products/5/exports/': () => exports,
        'POST /lines/products/5/exports/': () => {
          exports = [
            {
              id: 3,
              status: 'ready',
              file_name: 'homeowners-2026.2.json',
              version_id: 12,
              created_at: '2026-11-22T03:00:00Z',
            },
          ];
          return new Response(JSON.stringify(exports[0]), {
            status: 201,
            headers: { 'content-type': 'application/json' },
          });
        },
      },
    });
    await host.user.click(await screen.findByRole('tab', { name: 'Mapping' }));
    const table = await screen.findByRole('table', { name: 'Mapping of dwelling' });
    const sources = within(table).getByLabelText('Sources');
    expect((sources as HTMLInputElement).value).toBe('roof_year');
    await host.user.type(sources, ', nope');
    await host.user.click(screen.getByRole('button', { name: 'Save mapping' }));
    expect(
      await screen.findByText("Source 'nope' is not a field of 'dwelling' in this version or the one before it."),
    ).toBeTruthy();
    expect(host.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      mapping: {
        dwelling: {
          fields: [
            { sources: ['roof_year', 'nope'], targets: ['roof_age'], operation: 'other', description: 'age from year' },
          ],
        },
      },
    });
    expect(host.requests.find((r) => r.method === 'PUT')?.search).toBe('?version_id=12');

    await host.user.click(screen.getByRole('tab', { name: 'Exports' }));
    expect(await screen.findByText('No exports yet.')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Start export' }));
    expect(await screen.findByText('Export started.')).toBeTruthy();
    const list = screen.getByRole('table', { name: 'Exports' });
    expect(await within(list).findByText('homeowners-2026.2.json')).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Download' })).toBeTruthy();
  });
  it('reinstates a retired version when the server allows it', async () => {
    const retired = {
      ...HO3,
      versions: [
        { ...HO3.versions[0]!, status: 'retired', allowed_statuses: [], can_reinstate: true },
        HO3.versions[1],
      ],
    };
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=11',
      apis: {
        ...base,
        'GET /lines/products/': [retired],
        'POST /lines/products/5/versions/11/reinstate/': { id: 11, status: 'published' },
      },
    });
    expect(await screen.findByText('HO3 Special Form · version 2026.1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retire' })).toBeNull();
    await host.user.click(screen.getByRole('button', { name: 'Reinstate' }));
    expect(await screen.findByText('Version 2026.1 reinstated.')).toBeTruthy();
    expect(
      host.requests.some((r) => r.method === 'POST' && r.path === '/api/lines/products/5/versions/11/reinstate/'),
    ).toBe(true);
  });

  it('shows the selected product’s settings and edits them, checking the base term against the terms', async () => {
    let patches = 0;
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12',
      apis: {
        ...base,
        'GET /lines/products/': [{ ...HO3, settings: { renumberAt: 'rewrite', terms: [12], baseTerm: 12 } }, HO3_CONDO],
        'PATCH /lines/products/5/': ({ body }) =>
          ++patches === 1
            ? problem(400, 'Invalid product', [{ pointer: '/settings/renumberAt', detail: 'Too long.' }])
            : { ...HO3, ...(body as object) },
      },
    });
    const card = await screen.findByLabelText('Product settings');
    expect(within(card).getByText('Renumber at: rewrite')).toBeTruthy();
    expect(within(card).getByText('Terms: 12 months')).toBeTruthy();
    expect(within(card).getByText('Base term: 12 months')).toBeTruthy();

    await host.user.click(await within(card).findByRole('button', { name: 'Edit settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings of HO3' });
    const terms = within(dialog).getByLabelText(/Terms/);
    await host.user.clear(terms);
    await host.user.type(terms, '6');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The base term must be one of the terms.')).toBeTruthy();
    await host.user.clear(terms);
    await host.user.type(terms, '12, six');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Terms are whole months from 1 to 120, separated by commas.')).toBeTruthy();
    await host.user.clear(terms);
    await host.user.type(terms, '12, 6');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Too long.')).toBeTruthy();
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Settings of product 'HO3' saved.")).toBeTruthy();
    const sent = host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body);
    expect(sent).toEqual([
      { settings: { renumberAt: 'rewrite', terms: [12, 6], baseTerm: 12 } },
      { settings: { renumberAt: 'rewrite', terms: [12, 6], baseTerm: 12 } },
    ]);
  });

  it('lists, creates, edits and deletes the sequences of a draft version', async () => {
    const policy = {
      id: 61,
      name: 'policy_number',
      label: 'Policy number',
      prefix: 'HO-',
      suffix: '',
      padding: 6,
      start: 1,
      increment: 1,
      next_value: 42,
      preview: 'HO-000042',
      inheritance_status: 'own',
    };
    let posts = 0;
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=12',
      apis: {
        ...base,
        'GET /lines/products/5/sequences/': [policy],
        'POST /lines/products/5/sequences/': ({ body }) =>
          ++posts === 1
            ? problem(400, 'Invalid sequence', [
                { pointer: '/name', detail: "A sequence named 'policy_number' already exists in this version." },
              ])
            : { id: 62, ...(body as object) },
        'PUT /lines/products/5/sequences/61/': ({ body }) => ({ ...policy, ...(body as object) }),
        'DELETE /lines/products/5/sequences/61/': new Response(null, { status: 204 }),
      },
    });
    await host.user.click(await screen.findByRole('tab', { name: 'Sequences' }));
    const table = await screen.findByRole('table', { name: 'Sequences' });
    expect(within(table).getByText('HO-000042')).toBeTruthy();

    await host.user.click(await screen.findByRole('button', { name: 'New sequence' }));
    let dialog = await screen.findByRole('dialog', { name: 'New sequence' });
    await host.user.type(within(dialog).getByLabelText(/Name/), 'policy_number');
    await host.user.type(within(dialog).getByLabelText(/Label/), 'Quote number');
    await host.user.type(within(dialog).getByLabelText('Prefix'), 'Q-');
    await host.user.clear(within(dialog).getByLabelText('Padding (digits)'));
    await host.user.type(within(dialog).getByLabelText('Padding (digits)'), 'six');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Padding must be a whole number.')).toBeTruthy();
    await host.user.clear(within(dialog).getByLabelText('Padding (digits)'));
    await host.user.type(within(dialog).getByLabelText('Padding (digits)'), '5');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText("A sequence named 'policy_number' already exists in this version."),
    ).toBeTruthy();
    await host.user.clear(within(dialog).getByLabelText(/Name/));
    await host.user.type(within(dialog).getByLabelText(/Name/), 'quote_number');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Sequence 'quote_number' saved.")).toBeTruthy();

    await host.user.click(within(table).getByRole('button', { name: 'Edit policy_number' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit sequence policy_number' });
    expect((within(dialog).getByLabelText('Next value') as HTMLInputElement).value).toBe('42');
    await host.user.clear(within(dialog).getByLabelText('Next value'));
    await host.user.type(within(dialog).getByLabelText('Next value'), '1000');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Sequence 'policy_number' saved.")).toBeTruthy();

    await host.user.click(within(table).getByRole('button', { name: 'Delete policy_number' }));
    await host.user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("Sequence 'policy_number' deleted.")).toBeTruthy();

    const writes = host.requests.filter((r) => r.method !== 'GET' && r.path.includes('/sequences/'));
    expect(writes.map((r) => [r.method, r.path, r.search, r.body])).toEqual([
      [
        'POST',
        '/api/lines/products/5/sequences/',
        '?version_id=12',
        { name: 'policy_number', label: 'Quote number', prefix: 'Q-', suffix: '', padding: 5, start: 1, increment: 1 },
      ],
      [
        'POST',
        '/api/lines/products/5/sequences/',
        '?version_id=12',
        { name: 'quote_number', label: 'Quote number', prefix: 'Q-', suffix: '', padding: 5, start: 1, increment: 1 },
      ],
      [
        'PUT',
        '/api/lines/products/5/sequences/61/',
        '?version_id=12',
        {
          name: 'policy_number',
          label: 'Policy number',
          prefix: 'HO-',
          suffix: '',
          padding: 6,
          start: 1,
          increment: 1,
          next_value: 1000,
        },
      ],
      ['DELETE', '/api/lines/products/5/sequences/61/', '?version_id=12', undefined],
    ]);
  });

  it('shows the sequences of a published version without write buttons', async () => {
    const host = await renderInTestHost(<LineOverviewPage />, {
      path: lineOverviewRoute.path,
      at: '/lines/Homeowners?version_id=11',
      apis: {
        ...base,
        'GET /lines/products/5/sequences/': [{ id: 61, name: 'policy_number', label: 'Policy number', next_value: 7 }],
      },
    });
    await host.user.click(await screen.findByRole('tab', { name: 'Sequences' }));
    const table = await screen.findByRole('table', { name: 'Sequences' });
    expect(within(table).getByText('Policy number')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New sequence' })).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Edit policy_number' })).toBeNull();
    expect(host.requests.some((r) => r.path.endsWith('/sequences/') && r.search === '?version_id=11')).toBe(true);
  });
});
