import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * Keyboard operation (issue 13, "full keyboard operation of tables, trees, tabs and dialogs"): each
 * journey uses only the keyboard once the page is open, as a user who cannot use a mouse would.
 */
describe('keyboard operation', () => {
  const e2e = useE2eSession('keyboard');
  const { errors, signIn } = e2e;
  const focusedText = (page: import('playwright-core').Page) =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '');

  it('a tree: arrow keys move through the document templates and Enter opens one', async () => {
    const page = await signIn('admin@atrium.test', '/documents');
    const tree = page.getByRole('tree', { name: 'Document templates' });
    await tree.waitFor();
    await tree.focus();
    let template = '';
    for (let i = 0; i < 15 && !template; i++) {
      await page.keyboard.press('ArrowDown');
      template = await page.evaluate(
        () => document.activeElement?.closest('[role="treeitem"]')?.querySelector('a')?.textContent ?? '',
      );
    }
    expect(template).not.toBe('');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/documents\/templates\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: template }).waitFor();
    expect(errors).toEqual([]);
  });

  it('tabs: arrow keys move between tabs and show their panel', async () => {
    const page = await signIn('admin@atrium.test', '/integrations/events');
    const first = page.getByRole('tab', { name: 'Recent events' });
    await first.waitFor();
    await first.focus();
    await page.keyboard.press('ArrowRight');
    const second = page.getByRole('tab', { name: 'Topic catalogue' });
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
    expect(await focusedText(page)).toBe('Topic catalogue');
    await page.getByRole('tabpanel', { name: 'Topic catalogue' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('a dialog: Enter opens it with the focus inside, Escape closes it and gives the focus back', async () => {
    const page = await signIn('admin@atrium.test', '/users/sign-in-providers');
    const add = page.getByRole('button', { name: 'Add provider' });
    await add.waitFor();
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a sign-in provider' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    // Tab stays inside the dialog (a focus trap), whatever the number of presses.
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe('Add provider');
    expect(errors).toEqual([]);
  });

  it('a table: Tab reaches the links in its rows and Enter follows one', async () => {
    const page = await signIn('admin@atrium.test', '/users');
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.waitFor();
    await page.getByRole('table', { name: 'Users' }).getByRole('link').first().waitFor();
    await search.focus();
    let link = '';
    for (let i = 0; i < 30 && !link; i++) {
      await page.keyboard.press('Tab');
      link = await page.evaluate(() => {
        const active = document.activeElement;
        return active?.tagName === 'A' && active.closest('table') ? (active.textContent ?? '') : '';
      });
    }
    expect(link).toContain('@');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/users/edit/${link}`);
    expect(errors).toEqual([]);
  });

  it('focus visible: every element Tab reaches on a page shows an outline or a ring', async () => {
    // The pages of the journeys above plus the claim workspace (tabs) and All Modules (tiles, My work).
    const unmarked: string[] = [];
    for (const path of ['/', '/users', '/documents', '/claims/CLM-000040/details']) {
      const page = await signIn('admin@atrium.test', path);
      // Signed in: the sign-in form is gone and the page's own heading is up.
      await page.locator('input[autocomplete="username"]').waitFor({ state: 'detached', timeout: 60_000 });
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
      await page.locator('body').focus();
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const found = await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          if (!active || active === document.body) return '';
          // An outline or a box shadow (a focus ring); a password field shows it on the wrapper
          // around its inner input, a tree row on the row.
          const marked = (el: Element) => {
            const style = getComputedStyle(el);
            const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
            return outline || style.boxShadow !== 'none';
          };
          const wrapper = active.parentElement?.closest('[role="treeitem"], .mantine-Input-input');
          if (marked(active) || (wrapper && wrapper !== active && marked(wrapper))) return '';
          const name = active.getAttribute('aria-label') ?? active.getAttribute('placeholder') ?? active.innerText;
          return `${active.tagName.toLowerCase()} "${(name ?? '').trim().slice(0, 40)}"`;
        });
        if (found) unmarked.push(`${path}: ${found}`);
      }
      await page.close();
    }
    expect([...new Set(unmarked)]).toEqual([]);
    expect(errors).toEqual([]);
  });
});
