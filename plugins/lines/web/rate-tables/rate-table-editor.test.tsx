// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import RateTablesPanel from './rate-tables-panel.js';

const table = {
  id: 7,
  name: 'construction_factor',
  label: 'Construction factor',
  rowsCount: 2,
  validityState: 'valid',
  key_columns: [
    { name: 'construction', match: 'exact' },
    { name: 'coverage_a', match: 'range' },
  ],
  interpolate: null,
  default: null,
  rows: [
    { keys: { construction: 'frame', coverage_a: { from: '0', to: '100000' } }, value: '1.10' },
    { keys: { construction: 'masonry', coverage_a: { from: '0', to: '100000' } }, value: '0.95' },
  ],
};

/** Dispatches a paste of spreadsheet text, as a browser does for Ctrl+V. */
function paste(target: Element, text: string) {
  fireEvent.paste(target, { clipboardData: { getData: (type: string) => (type === 'text/plain' ? text : '') } });
}

describe('rate tables panel', () => {
  beforeAll(preloadTestHost);

  it('pastes spreadsheet cells at the selected cell, adds rows and saves the whole table', async () => {
    const host = await renderInTestHost(
      <RateTablesPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          'GET /lines/products/3/risk-types/5/rate-tables/': [table],
          'GET /lines/products/3/risk-types/5/rate-tables/7/': table,
          'PUT /lines/products/3/risk-types/5/rate-tables/7/': ({ body }) => ({ ...table, ...(body as object) }),
        },
      },
    );
    const list = await screen.findByRole('table', { name: 'Rate tables' });
    await host.user.click(within(list).getByRole('button', { name: 'construction_factor' }));
    const grid = await screen.findByRole('grid', { name: 'Rate table rows' });
    expect(within(grid).getByRole('gridcell', { name: 'value row 2' }).textContent).toBe('0.95');

    // Select the second row's construction cell, then paste two rows of four columns.
    fireEvent.mouseDown(within(grid).getByRole('gridcell', { name: 'construction row 2' }));
    paste(grid, 'masonry\t0\t100000\t0.90\r\nbrick\t100000\t\t0.85\r\n');
    expect(screen.getByRole('status').textContent).toBe(
      "Pasted 2 rows × 4 columns at row 2, column 'construction'; 1 rows added.",
    );
    expect(within(grid).getByRole('gridcell', { name: 'construction row 3' }).textContent).toBe('brick');

    await host.user.click(screen.getByRole('button', { name: 'Save rate table' }));
    await waitFor(() => expect(host.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = host.requests.find((r) => r.method === 'PUT')!;
    expect(put.search).toBe('?version_id=11');
    expect(put.body).toMatchObject({
      name: 'construction_factor',
      key_columns: table.key_columns,
      rows: [
        { keys: { construction: 'frame', coverage_a: { from: '0', to: '100000' } }, value: '1.10' },
        { keys: { construction: 'masonry', coverage_a: { from: '0', to: '100000' } }, value: '0.90' },
        { keys: { construction: 'brick', coverage_a: { from: '100000', to: null } }, value: '0.85' },
      ],
    });
  });

  it('edits a cell from the keyboard and refuses to save a value that is not a number', async () => {
    const host = await renderInTestHost(
      <RateTablesPanel productId={3} versionId={11} riskTypeId={5} readOnly={false} />,
      {
        apis: {
          'GET /lines/products/3/risk-types/5/rate-tables/': [table],
          'GET /lines/products/3/risk-types/5/rate-tables/7/': table,
        },
      },
    );
    await host.user.click(await screen.findByRole('button', { name: 'construction_factor' }));
    const grid = await screen.findByRole('grid', { name: 'Rate table rows' });
    fireEvent.mouseDown(within(grid).getByRole('gridcell', { name: 'construction row 1' }));
    // Move right three times to the value, type over it, Enter commits and moves down.
    await host.user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    await host.user.keyboard('x{Enter}');
    expect(within(grid).getByRole('gridcell', { name: 'value row 1' }).textContent).toBe('x');
    expect(within(grid).getByRole('gridcell', { name: 'value row 2' }).getAttribute('aria-selected')).toBe('true');
    await host.user.click(screen.getByRole('button', { name: 'Save rate table' }));
    expect(await screen.findByText("Row 1, column 'value': 'x' is not a number")).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('is read-only for a version that is not a draft', async () => {
    const host = await renderInTestHost(<RateTablesPanel productId={3} versionId={10} riskTypeId={5} readOnly />, {
      apis: {
        'GET /lines/products/3/risk-types/5/rate-tables/': [table],
        'GET /lines/products/3/risk-types/5/rate-tables/7/': table,
      },
    });
    expect(screen.queryByRole('button', { name: 'New rate table' })).toBeNull();
    await host.user.click(await screen.findByRole('button', { name: 'construction_factor' }));
    const grid = await screen.findByRole('grid', { name: 'Rate table rows' });
    paste(grid, 'wood\t1\t2\t3');
    expect(within(grid).getByRole('gridcell', { name: 'construction row 1' }).textContent).toBe('frame');
    expect(screen.queryByRole('button', { name: 'Save rate table' })).toBeNull();
  });
});
