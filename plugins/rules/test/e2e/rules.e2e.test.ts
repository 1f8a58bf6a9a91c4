import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/** The Rules module's read-only screens of slice (a), as the Product and Rules Author. */
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

  it('is not shown to an underwriter', async () => {
    const page = await session.signIn('underwriter@atrium.test', '/rules');
    await page.waitForURL((url) => url.pathname === '/forbidden');
    expect(session.errors).toEqual([]);
  });
});
