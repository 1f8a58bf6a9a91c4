// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { lineOverviewRoute, linesSearchRoute } from '../routes.js';
import SearchLinesPage from './search-lines-page.js';
import { HOMEOWNERS, HOMEOWNERS_LINES, problem } from './test-fixtures.js';

const AUTO = { id: 2, name: 'PersonalAuto', label: 'Personal Auto', latest_product: null };

describe('search lines page', () => {
  beforeAll(preloadTestHost);

  it('lists lines with their latest product and version, filters by name and links to the overview', async () => {
    const host = await renderInTestHost(<SearchLinesPage />, {
      path: linesSearchRoute.path,
      apis: {
        'GET /lines/lines/': ({ query }) => {
          const results = [HOMEOWNERS, AUTO].filter((l) =>
            l.name.toLowerCase().includes((query.get('search') ?? '').toLowerCase()),
          );
          return { count: results.length, results };
        },
      },
      routes: { [lineOverviewRoute.path]: <p>overview</p> },
    });
    const table = await screen.findByRole('table', { name: 'Lines' });
    expect(await within(table).findByText('HO3')).toBeTruthy();
    expect(within(table).getAllByRole('link', { name: 'Latest version' })[0]!.getAttribute('href')).toContain(
      'version_id=12',
    );
    expect(within(table).getByText('Draft')).toBeTruthy();
    await host.user.type(screen.getByLabelText('Name'), 'auto');
    await waitFor(() => expect(within(table).queryByText('Homeowners')).toBeNull());
    expect(within(table).getByText('PersonalAuto')).toBeTruthy();
    await host.user.click(within(table).getByText('Personal Auto'));
    expect(host.location().pathname).toBe('/lines/PersonalAuto');
  });

  it('creates a line, showing the server’s error on the field its pointer names', async () => {
    let attempts = 0;
    const host = await renderInTestHost(<SearchLinesPage />, {
      path: linesSearchRoute.path,
      apis: {
        ...HOMEOWNERS_LINES,
        'POST /lines/lines/': ({ body }) =>
          ++attempts === 1
            ? problem(400, "A line named 'Homeowners' already exists.", [
                { pointer: '/name', detail: "A line named 'Homeowners' already exists." },
              ])
            : { id: 3, ...(body as object) },
      },
      routes: { [lineOverviewRoute.path]: <p>overview</p> },
    });
    await host.user.click(await screen.findByRole('button', { name: 'New line' }));
    const dialog = await screen.findByRole('dialog', { name: 'New line' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    await host.user.type(within(dialog).getByLabelText(/Name/), 'Home owners');
    await host.user.type(within(dialog).getByLabelText(/Label/), 'Homeowners');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The Name cannot contain spaces.')).toBeTruthy();
    await host.user.clear(within(dialog).getByLabelText(/Name/));
    await host.user.type(within(dialog).getByLabelText(/Name/), 'Homeowners');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText("A line named 'Homeowners' already exists.")).toBeTruthy();
    await host.user.clear(within(dialog).getByLabelText(/Name/));
    await host.user.type(within(dialog).getByLabelText(/Name/), 'Farm');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Line 'Farm' created.")).toBeTruthy();
    expect(host.location().pathname).toBe('/lines/Farm');
    expect(
      host.requests.filter((r) => r.method === 'POST' && r.path === '/api/lines/lines/').map((r) => r.body),
    ).toEqual([
      { name: 'Homeowners', label: 'Homeowners' },
      { name: 'Farm', label: 'Homeowners' },
    ]);
  });

  it('uploads a product export, shows a failed import’s errors, imports with overwrite and links to the product', async () => {
    let runs = 0;
    const failure = "Product import 3 failed: A draft of product 'ho3' exists; import with overwrite to replace it.";
    const host = await renderInTestHost(<SearchLinesPage />, {
      path: linesSearchRoute.path,
      apis: {
        ...HOMEOWNERS_LINES,
        'POST /lines/product-imports/': {
          id: 3,
          status: 'uploaded',
          file_name: 'ho3.json',
          product_name: 'ho3',
          product_id: null,
          product_version_id: null,
          errors: [],
        },
        'POST /lines/product-imports/3/import/': () =>
          ++runs === 1
            ? problem(400, failure)
            : { id: 3, status: 'imported', file_name: 'ho3.json', product_id: 5, product_version_id: 14, errors: [] },
        'GET /lines/product-imports/3/': () => ({
          id: 3,
          status: ['uploaded', 'failed'][runs] ?? 'imported',
          file_name: 'ho3.json',
          product_id: runs < 2 ? null : 5,
          product_version_id: runs < 2 ? null : 14,
          errors:
            runs === 1 ? [{ detail: "A draft of product 'ho3' exists; import with overwrite to replace it." }] : [],
        }),
        'GET /lines/products/5/': { id: 5, name: 'ho3', label: 'HO3', line_id: 1, versions: [] },
        'GET /lines/lines/1/': HOMEOWNERS,
      },
      routes: { [lineOverviewRoute.path]: <p>overview</p> },
    });
    const card = await screen.findByLabelText('Product import');
    const input = card.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['{}'], 'ho3.json', { type: 'application/json' })] } });
    const status = await within(card).findByLabelText('Product import 3');
    expect(within(status).getByText('uploaded')).toBeTruthy();
    expect(within(status).getByText('ho3.json — product ho3')).toBeTruthy();
    const upload = host.requests.find((r) => r.method === 'POST' && r.path === '/api/lines/product-imports/');
    expect((upload?.body as FormData).get('file')).toBeInstanceOf(File);

    await host.user.click(within(status).getByRole('button', { name: 'Import' }));
    expect(await within(card).findByText(failure)).toBeTruthy();
    expect(await within(status).findByText('failed')).toBeTruthy();
    expect(
      within(status).getByText("A draft of product 'ho3' exists; import with overwrite to replace it."),
    ).toBeTruthy();

    await host.user.click(within(status).getByRole('button', { name: 'Import and overwrite draft' }));
    expect(await screen.findByText("Product 'ho3' imported.")).toBeTruthy();
    await host.user.click(await within(card).findByRole('link', { name: 'Open the imported product' }));
    expect(host.location().pathname).toBe('/lines/Homeowners');
    expect(host.location().search).toBe('?version_id=14');
    const runsSent = host.requests.filter((r) => r.path === '/api/lines/product-imports/3/import/').map((r) => r.body);
    expect(runsSent).toEqual([{ overwrite: false }, { overwrite: true }]);
  });
});
