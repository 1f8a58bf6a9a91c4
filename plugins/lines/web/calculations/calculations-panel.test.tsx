// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import CalculationsPanel from './calculations-panel.js';

const calc = (id: number, name: string, order: number, formula: string, deleted = false) => ({
  id,
  name,
  label: '',
  calculation: formula,
  order,
  risk_item: null,
  inheritanceStatus: 'own',
  deleted_at: deleted ? '2026-11-20T00:00:00.000Z' : null,
});

describe('calculations panel', () => {
  beforeAll(preloadTestHost);

  it('lists the calculations in their order, moves one down and restores a deleted one', async () => {
    const host = await renderInTestHost(
      <CalculationsPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          'GET /lines/products/3/risk-types/5/calculations/': ({ query }) =>
            query.get('include_deleted') === 'true'
              ? [calc(2, 'premium', 1, 'base_rate * 2'), calc(1, 'base_rate', 0, '1150'), calc(9, 'old', 2, '1', true)]
              : [calc(2, 'premium', 1, 'base_rate * 2'), calc(1, 'base_rate', 0, '1150')],
          'POST /lines/products/3/risk-types/5/calculations/reorder/': { ok: true },
          'POST /lines/products/3/risk-types/5/calculations/:id/restore/': { ok: true },
        },
      },
    );
    const table = await screen.findByRole('table', { name: 'Calculations' });
    const names = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(names).toEqual(['base_rate', 'premium']);
    await host.user.click(screen.getByRole('button', { name: 'Move base_rate down' }));
    await waitFor(() => expect(host.requests.some((r) => r.path.endsWith('/reorder/'))).toBe(true));
    const reorder = host.requests.find((r) => r.path.endsWith('/reorder/'))!;
    expect(reorder.body).toEqual({ order: [2, 1] });
    expect(reorder.search).toBe('?version_id=11');

    await host.user.click(screen.getByRole('switch', { name: 'Show deleted' }));
    await host.user.click(await screen.findByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(host.requests.some((r) => r.method === 'POST' && r.path.endsWith('/calculations/9/restore/'))).toBe(true),
    );
  });

  it('offers no writes for a version that is not a draft', async () => {
    await renderInTestHost(<CalculationsPanel productId={3} versionId={10} riskTypeId={5} readOnly />, {
      apis: { 'GET /lines/products/3/risk-types/5/calculations/': [calc(1, 'base_rate', 0, '1150')] },
    });
    await screen.findByRole('table', { name: 'Calculations' });
    expect(screen.queryByRole('button', { name: 'New calculation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move base_rate down' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
