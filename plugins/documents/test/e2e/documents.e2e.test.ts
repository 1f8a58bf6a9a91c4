import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/** An adjuster opens Documents with its chord, adds an entry and sees it listed. */
describe('documents in the browser', () => {
  const session = useE2eSession('documents');

  it('opens with g d and adds an entry', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/');
    await page.getByRole('link', { name: 'Documents' }).first().waitFor();
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('d');
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    await page.getByLabel('Title').fill('Site visit');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('cell', { name: 'Site visit' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/documents');
    expect(session.errors).toEqual([]);
  });
});
