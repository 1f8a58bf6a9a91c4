import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/** The Rules module's screens as the Product and Rules Author: projects, a component, the editor. */
describe('rules projects', () => {
  const session = useE2eSession('rules');

  it('lists the demo projects with their effective dates and components, and opens a component on another date', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Personal auto rules' }).waitFor();
    const dates = page.getByLabel('Effective dates of Personal auto rules');
    await dates.getByText('Jan 1, 2026 · Published').waitFor();
    await dates.getByText('Jul 1, 2026 · Draft').waitFor();
    const table = page.getByRole('table', { name: 'Components of Personal auto rules' });
    const row = table.getByRole('row', { name: /Business use: no roadside, VIN required/ });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('Rule');
    await row.getByRole('link', { name: 'Business use: no roadside, VIN required' }).click();

    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    await expect(page.getByLabel('Component text').textContent()).resolves.toContain('hide roadside');
    await page.getByLabel('Effective date').first().click();
    await page.getByRole('option', { name: 'Jan 1, 2026 · Published' }).click();
    await page.waitForURL((url) => url.searchParams.has('effective_date'));
    await expect(page.getByLabel('Effective date').first().inputValue()).resolves.toBe('Jan 1, 2026 · Published');
    await page.getByRole('link', { name: 'All rules projects' }).click();
    await page.getByRole('heading', { name: 'Homeowners rules' }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('edits a rule in Monaco: completion, a diagnostic for a wrong field name, the fix, save by shortcut, validate, tests and the diff', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const table = page.getByRole('table', { name: 'Components of Personal auto rules' });
    await table.getByRole('link', { name: 'Business use: no roadside, VIN required' }).click();
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    await page.getByText('0 uncommitted components').waitFor();
    // Monaco is not loaded before the editor opens.
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.monaco-editor').first();
    await editor.locator('.view-line', { hasText: 'usage' }).first().waitFor();
    await page
      .getByRole('button', { name: /Save/ })
      .getByText(/Ctrl\+S|⌘S/)
      .waitFor();
    await page.getByText('No problems').waitFor();

    // A new condition with a field the vehicle does not have.
    await editor.locator('.view-line', { hasText: "it is true that usage = 'business'" }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('and it is true that model_');
    // Completion offers the vehicle's fields from the ontology of the effective date.
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('model_year').first().waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.insertText('yr > 1990');
    const problems = page.getByLabel('Problems');
    await problems
      .getByText("Rule 'business_use': 'model_yr' is not a field of 'vehicle' or the risks it belongs to.")
      .waitFor();
    await editor.locator('.squiggly-error').first().waitFor();
    await expect(page.getByRole('button', { name: /Save/ }).isEnabled()).resolves.toBe(true);

    // The fix: the diagnostic goes away.
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText('and it is true that model_year > 1990');
    await problems.getByText('No problems').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText('Saved Business use: no roadside, VIN required.').waitFor();
    await page.getByText('1 uncommitted component').waitFor();
    await expect(page.getByRole('button', { name: /Save/ }).isDisabled()).resolves.toBe(true);

    // Validate from the palette (listed with its shortcut), the tests from the toolbar: results inline.
    // (Monaco keeps F1 for its own palette: leave the editor first.)
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).click();
    await page.keyboard.press('F1');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('validate rules');
    const validate = palette.getByRole('option', { name: /Validate rules/ });
    await expect(validate.textContent()).resolves.toContain('Alt+Shift+V');
    await validate.click();
    await page.getByText('The effective date validates: no problems.').waitFor();
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page.getByRole('table', { name: 'Test results' }).waitFor();
    await page.getByText(/^\d of 2 tests passed$/).waitFor();

    // The uncommitted change side by side: as last committed, and the text in the editor.
    await page.getByRole('button', { name: 'Show changes' }).click();
    const changes = page.getByRole('dialog', { name: 'Uncommitted changes' });
    await changes.getByText('Left: as last committed. Right: the text in the editor.').waitFor();
    await changes.locator('.monaco-diff-editor .line-insert').first().waitFor();
    await page.keyboard.press('Escape');
    await changes.waitFor({ state: 'hidden' });

    // Saved: read again, the text has the new condition.
    await page.reload();
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    await expect(page.getByLabel('Component text').textContent()).resolves.toContain(
      'and it is true that model_year > 1990',
    );
    expect(session.errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('peeks at the template of a template use (go to definition)', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    const table = page.getByRole('table', { name: 'Components of Personal auto rules' });
    await table.getByRole('link', { name: 'Model year from 1981' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.monaco-editor').first();
    const line = editor.locator('.view-line', { hasText: 'from template minimum_model_year' });
    await line.waitFor();
    await page.getByText('No problems').waitFor();
    await line.getByText(/minimum_model_year/).click({ modifiers: ['ControlOrMeta'] });
    await page.locator('.peekview-widget').getByText('parameter earliest: number').first().waitFor();
    expect(session.errors).toEqual([]);
  });

  it('is not shown to an underwriter', async () => {
    const page = await session.signIn('underwriter@atrium.test', '/rules');
    await page.waitForURL((url) => url.pathname === '/forbidden');
    expect(session.errors).toEqual([]);
  });
});
