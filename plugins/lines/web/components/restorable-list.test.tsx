// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import CalculationsPanel from '../calculations/calculations-panel.js';
import RateTablesPanel from '../rate-tables/rate-tables-panel.js';

/** The list the rate-table and calculation panels share (restorable-list.tsx), seen through both panels. */
const tables = '/lines/products/3/risk-types/5/rate-tables/';
const rateTable = (id: number, name: string, deleted = false) => ({
  id,
  name,
  label: name.replace('_', ' '),
  rowsCount: 2,
  validityState: 'valid',
  inheritanceStatus: id === 7 ? 'inherited' : 'own',
  deleted_at: deleted ? '2026-11-20T00:00:00.000Z' : null,
  key_columns: [{ name: 'construction', match: 'exact' }],
  rows: [],
});
const live = [rateTable(7, 'construction_factor'), rateTable(8, 'territory_factor')];

describe('restorable list', () => {
  beforeAll(preloadTestHost);

  it('moves, deletes and restores rate tables; a deleted one is dimmed and cannot be opened', async () => {
    const host = await renderInTestHost(
      <RateTablesPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          [`GET ${tables}`]: ({ query }) =>
            query.get('include_deleted') === 'true' ? [...live, rateTable(9, 'old_factor', true)] : live,
          [`POST ${tables}reorder/`]: [],
          [`DELETE ${tables}:id/`]: new Response(null, { status: 204 }),
          [`POST ${tables}:id/restore/`]: rateTable(9, 'old_factor'),
        },
      },
    );
    const list = await screen.findByRole('table', { name: 'Rate tables' });
    expect(within(list).getByText('Inherited')).toBeTruthy();
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Label', 'Rows', 'Validity', 'Actions']);
    expect((screen.getByRole('button', { name: 'Move construction_factor up' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await host.user.click(screen.getByRole('button', { name: 'Move territory_factor up' }));
    await waitFor(() => expect(host.requests.some((r) => r.path.endsWith('/reorder/'))).toBe(true));
    expect(host.requests.find((r) => r.path.endsWith('/reorder/'))!.body).toEqual({ order: [8, 7] });

    const territory = within(list).getByRole('button', { name: 'territory_factor' }).closest('tr')!;
    await host.user.click(within(territory).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(host.requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/rate-tables/8/'))).toBe(true),
    );

    await host.user.click(screen.getByRole('switch', { name: 'Show deleted' }));
    const old = (await screen.findByText('old_factor')).closest('tr')!;
    expect(old.getAttribute('style')).toContain('opacity: 0.6');
    expect(within(old).queryByRole('button', { name: 'old_factor' })).toBeNull();
    expect(within(old).queryByRole('button', { name: /^Move / })).toBeNull();
    await host.user.click(within(old).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(host.requests.some((r) => r.method === 'POST' && r.path.endsWith('/rate-tables/9/restore/'))).toBe(true),
    );
  });

  it('shows a refusal line by line and keeps it on the way back from an editor', async () => {
    const host = await renderInTestHost(
      <RateTablesPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          [`GET ${tables}`]: live,
          [`GET ${tables}7/`]: live[0]!,
          [`DELETE ${tables}:id/`]: Response.json(
            { errors: [{ detail: 'Rate table construction_factor is used.' }, { detail: 'Change premium first.' }] },
            { status: 400 },
          ),
        },
      },
    );
    const list = await screen.findByRole('table', { name: 'Rate tables' });
    const construction = within(list).getByRole('button', { name: 'construction_factor' }).closest('tr')!;
    await host.user.click(within(construction).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByText(/Rate table construction_factor is used\./);
    expect(alert.textContent).toContain('is used.\nChange premium first.');
    expect(alert.closest('[style*="pre-line"]')).not.toBeNull();

    await host.user.click(within(list).getByRole('button', { name: 'construction_factor' }));
    await host.user.click(await screen.findByRole('button', { name: 'Back to rate tables' }));
    await screen.findByRole('table', { name: 'Rate tables' });
    expect(screen.getByText(/Rate table construction_factor is used\./)).toBeTruthy();
  });

  it('numbers the live calculations and lets a deleted one be opened (read-only)', async () => {
    const calc = (id: number, name: string, order: number, deleted = false) => ({
      id,
      name,
      label: '',
      calculation: '1',
      order,
      risk_item: null,
      inheritanceStatus: 'own',
      deleted_at: deleted ? '2026-11-20T00:00:00.000Z' : null,
    });
    const host = await renderInTestHost(
      <CalculationsPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          'GET /lines/products/3/risk-types/5/calculations/': [calc(1, 'base_rate', 0), calc(9, 'old', 1, true)],
          'GET /lines/products/3/risk-types/5/rating-context/': {},
        },
      },
    );
    const list = await screen.findByRole('table', { name: 'Calculations' });
    const cells = (name: string) =>
      within(within(list).getByRole('button', { name }).closest('tr')!)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells('base_rate').slice(0, 2)).toEqual(['1', 'base_rate']);
    expect(cells('old').slice(0, 2)).toEqual(['—', 'old']);
    await host.user.click(within(list).getByRole('button', { name: 'old' }));
    expect(await screen.findByText('This version is not a draft: its calculations are read-only.')).toBeTruthy();
  });
});
