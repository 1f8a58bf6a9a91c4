import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * The rating screens end to end against the real lines API and its demo data: a product author opens
 * the Homeowners line, the `home` risk type of the draft version, pastes cells copied from a
 * spreadsheet into its territory rate table and saves it, then rates a known-answer scenario of the
 * draft and reads the worksheet line that looked the territory up.
 */

describe('Lines rating screens', () => {
  const e2e = useE2eSession('lines-rating');
  const { errors, signIn } = e2e;

  async function openDraftVersion(page: Page) {
    const tree = page.getByRole('tree', { name: 'Product tree' });
    await tree.getByText('Homeowners HO-3').waitFor();
    await tree
      .getByRole('treeitem')
      .filter({ hasText: 'draft' })
      .first()
      .getByRole('button')
      .filter({ hasText: /^Version/ })
      .click();
  }

  it('pastes cells into a rate table of the draft, saves it, rates a scenario and reads the worksheet', async () => {
    const page = await signIn('author@atrium.test', '/lines/homeowners');
    await page.waitForURL((url) => url.pathname === '/lines/homeowners');
    await openDraftVersion(page);
    await page.getByRole('tree', { name: 'Risk types' }).getByText('Home', { exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/lines/homeowners/products/homeowners/risk-types/home'));

    // The territory table of the draft, in the grid.
    await page.getByRole('tab', { name: 'Rate tables' }).click();
    await page
      .getByRole('table', { name: 'Rate tables' })
      .getByRole('button', { name: 'territory_factor', exact: true })
      .click();
    const grid = page.getByRole('grid', { name: 'Rate table rows' });
    await grid.getByRole('gridcell', { name: 'zip row 4' }).waitFor();
    expect(await grid.getByRole('gridcell', { name: 'zip row 1' }).textContent()).toBe('78701');

    // A new row after the last one, then two rows copied from a spreadsheet pasted from its first cell.
    await grid.getByRole('gridcell', { name: 'value row 4' }).click();
    await page.getByRole('button', { name: 'Add row' }).click();
    await grid.evaluate((element) => {
      const data = new DataTransfer();
      data.setData('text/plain', '78799\t1.05\r\n78798\t1.07\r\n');
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.getByText("Pasted 2 rows × 2 columns at row 5, column 'zip'; 1 rows added.").waitFor();
    expect(await grid.getByRole('gridcell', { name: 'zip row 6' }).textContent()).toBe('78798');
    expect(await grid.getByRole('gridcell', { name: 'value row 6' }).textContent()).toBe('1.07');
    await page.getByRole('button', { name: 'Save rate table' }).click();
    await page.getByText("Rate table 'territory_factor' saved (6 rows).").waitFor();

    // Saved on the server: the list counts the new rows.
    await page.getByRole('button', { name: 'Back to rate tables' }).click();
    const list = page.getByRole('table', { name: 'Rate tables' });
    await list
      .getByRole('row')
      .filter({ hasText: 'territory_factor' })
      .getByRole('cell', { name: '6', exact: true })
      .waitFor();

    // The toast would cover the scenario list's links; it goes after its 5 seconds.
    await page.getByText("Rate table 'territory_factor' saved (6 rows).").waitFor({ state: 'hidden', timeout: 15_000 });

    // A known-answer scenario of the draft, rated in its preview.
    await page.getByRole('link', { name: 'Homeowners', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lines/homeowners');
    await openDraftVersion(page);
    await page.getByRole('tab', { name: 'Scenarios' }).click();
    await page
      .getByRole('table', { name: 'Scenarios' })
      .getByRole('row')
      .filter({ hasText: 'Frame home in Austin with scheduled jewelry' })
      .getByRole('link', { name: 'Preview' })
      .click();
    await page.waitForURL((url) => /^\/lines\/products\/\d+\/scenarios\/\d+$/.test(url.pathname));
    await page.getByRole('button', { name: 'Rate', exact: true }).click();
    await page.getByLabel('Term premium').getByText('1789.60').waitFor();
    const keyFactor = page.getByRole('row', { name: 'Worksheet line key_factor' });
    await keyFactor.getByText('territory_factor(zip=78701) → row 1: 1.12').waitFor();
    expect(await keyFactor.getByLabel('Result of key_factor').textContent()).toMatch(/^1\.\d{4}/);
    expect(errors).toEqual([]);
  }, 180_000);

  it('completes names in the formula editor and marks the error the server finds in a formula', async () => {
    const page = await signIn('author@atrium.test', '/lines/homeowners');
    await page.waitForURL((url) => url.pathname === '/lines/homeowners');
    await openDraftVersion(page);
    await page.getByRole('tree', { name: 'Risk types' }).getByText('Home', { exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/lines/homeowners/products/homeowners/risk-types/home'));
    await page.getByRole('tab', { name: 'Calculations' }).click();
    await page
      .getByRole('table', { name: 'Calculations' })
      .getByRole('button', { name: 'base_rate', exact: true })
      .click();

    // Monaco loads lazily with the calculation's formula.
    const editor = page.getByTestId('formula-editor');
    await editor.locator('.view-lines').getByText('1150').waitFor();
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('territ', { delay: 80 });
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('territory_factor').first().waitFor();
    await page.keyboard.press('Escape');

    // An unfinished call: refused by the server, marked at its position, the message listed below.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('max(1150 +', { delay: 80 });
    await page.getByRole('button', { name: 'Save calculation' }).click();
    const problem = page.getByTestId('formula-problem').first();
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^Line 1, column \d+: Syntax error at line 1/);
    await editor.locator('.squiggly-error').first().waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
  }, 180_000);
});
