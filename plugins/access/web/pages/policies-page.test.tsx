// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import type { Policy } from '../access-api.js';
import PoliciesPage from './policies-page.js';

const policy = (id: number, name: string, type: Policy['type'] = 'custom'): Policy => ({
  id,
  name,
  description: '',
  version: '0.0.0',
  date_added: '2026-11-01T00:00:00.000Z',
  statements: [],
  type,
});

describe('policies page', () => {
  beforeAll(preloadTestHost);

  it('lists policies with filters and pages of 15, and reports a failed batch delete in the batch-failure dialog', async () => {
    const host = await renderInTestHost(<PoliciesPage />, {
      apis: {
        'GET /access/policies': ({ query }) => ({
          count: 2,
          next: null,
          previous: null,
          results: query.get('type') === 'system' ? [] : [policy(1, 'Claims read-only'), policy(2, 'Payments')],
        }),
        'DELETE /access/policies/1': () => new Response(null, { status: 204 }),
        'DELETE /access/policies/2': () =>
          new Response(JSON.stringify({ status: 404, detail: 'Policy 2 not found.' }), {
            status: 404,
            headers: { 'content-type': 'application/problem+json' },
          }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Policies' });
    await within(table).findByText('Claims read-only');
    const list = host.requests.find((r) => r.path === '/api/access/policies')!;
    expect(new URLSearchParams(list.search).get('page_size')).toBe('15');
    expect(new URLSearchParams(list.search).get('ordering')).toBe('name');

    await host.user.click(screen.getByRole('checkbox', { name: 'Select Claims read-only' }));
    await host.user.click(screen.getByRole('checkbox', { name: 'Select Payments' }));
    await host.user.click(await screen.findByRole('button', { name: 'Delete selected (2)' }));
    expect(await screen.findByText('Are you sure you want to delete this selection of 2 policies?')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Yes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Batch Action Failed' });
    expect(within(dialog).getByText('We are sorry, batch action failed for 1 items out of 2')).toBeTruthy();
    expect(within(dialog).getByText('Payments')).toBeTruthy();
    expect(within(dialog).getByText('Policy 2 not found.')).toBeTruthy();
    expect(host.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/access/policies/1',
      '/api/access/policies/2',
    ]);

    // Sorting by a column header asks the server for that ordering.
    await host.user.click(screen.getByRole('button', { name: 'Ok' }));
    await host.user.click(screen.getByRole('button', { name: /^Version/ }));
    await waitFor(() =>
      expect(host.requests.some((r) => new URLSearchParams(r.search).get('ordering') === 'version')).toBe(true),
    );
  });
});
