import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * The Lines catalog screens end to end against the real lines API and its demo data: a product
 * author opens the Homeowners line from the search, sees the product tree, opens the `home` risk
 * type of the draft version, adds a field, and finds the published version read-only.
 */

describe('Lines catalog', () => {
  const e2e = useE2eSession('lines-catalog');
  const { errors, signIn } = e2e;

  it('opens Homeowners from the search, adds a field to the draft and finds the published version read-only', async () => {
    const page = await signIn('author@atrium.test', '/lines');
    await page.waitForURL((url) => url.pathname === '/lines');

    // The search: filter by name, open the line.
    await page.getByRole('textbox', { name: 'Name' }).fill('home');
    const lines = page.getByRole('table', { name: 'Lines' });
    await lines.getByRole('link', { name: /^Homeowners/ }).click();
    await page.waitForURL((url) => url.pathname === '/lines/homeowners');

    // The product tree: the product, its Texas child product, versions with their status.
    const tree = page.getByRole('tree', { name: 'Product tree' });
    await tree.getByText('Homeowners HO-3').waitFor();
    await tree.getByText('Homeowners Texas').waitFor();
    await tree.getByText('published').first().waitFor();

    // The draft version of the HO-3 product is selected by default (the line's latest version).
    const draftVersion = tree.getByRole('treeitem').filter({ hasText: 'draft' }).first();
    await draftVersion
      .getByRole('button')
      .filter({ hasText: /^Version/ })
      .click();
    await page.getByRole('tree', { name: 'Risk types' }).getByText('Home', { exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lines/homeowners/products/homeowners/risk-types/home');
    expect(await page.getByTestId('read-only-notice').count()).toBe(0);

    // Add a field to the draft.
    const fields = page.getByRole('table', { name: 'Fields' });
    await fields.getByText('year_built', { exact: true }).waitFor();
    const name = `pool_count_${Date.now() % 100000}`;
    await page.getByRole('button', { name: 'Add field' }).click();
    const editor = page.getByRole('region', { name: 'Field editor' });
    await editor.getByRole('textbox', { name: /^Name/ }).fill(name);
    await editor.getByRole('textbox', { name: /^Label/ }).fill('Pools');
    await editor.getByLabel(/^Type/).click();
    await page.getByRole('option', { name: 'number', exact: true }).click();
    await editor.getByRole('textbox', { name: 'Default' }).fill('0');
    await editor.getByRole('button', { name: 'Save field' }).click();
    await page.getByText(`Field '${name}' created.`).waitFor();
    await fields.getByText(name, { exact: true }).waitFor();

    // The published version of the same product: read-only, with the reason.
    await page.getByRole('link', { name: 'Homeowners', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lines/homeowners');
    const published = page
      .getByRole('tree', { name: 'Product tree' })
      .getByRole('treeitem')
      .filter({ hasText: 'published' })
      .first();
    await published
      .getByRole('button')
      .filter({ hasText: /^Version/ })
      .click();
    await page.getByTestId('read-only-notice').waitFor();
    await page.getByRole('tree', { name: 'Risk types' }).getByText('Home', { exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lines/homeowners/products/homeowners/risk-types/home');
    await page
      .getByTestId('read-only-notice')
      .getByText(/only a draft version can be edited/)
      .waitFor();
    await page.getByRole('table', { name: 'Fields' }).getByText('year_built', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add field' }).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Fields' }).getByText(name, { exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});
