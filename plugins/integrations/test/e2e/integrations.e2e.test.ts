import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/** An adjuster opens Integrations with its chord, adds an entry and sees it listed. */
describe('integrations in the browser', () => {
  const session = useE2eSession('integrations');

  it('opens with g i and adds an entry', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/');
    await page.getByRole('link', { name: 'Integrations' }).first().waitFor();
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByLabel('Title').fill('Site visit');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('cell', { name: 'Site visit' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/integrations');
    expect(session.errors).toEqual([]);
  });
});
