import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '@atrium/sdk/testing';
import { launchBrowser, startAppServer } from './browser.js';

/**
 * The host shell in a real browser against the real server. Nobody can sign in yet (identity is
 * another module), so these flows use what an anonymous visitor can reach: the guard's redirects,
 * the public hello page, the shortcuts, the palette and the not-found page.
 */
describe('host shell', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string) {
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('sends a protected page to login with the wanted path as redirect, and the root without one', async () => {
    await open('/all-modules?view=tiles');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/all-modules?view=tiles');
    // The placeholder until the identity module registers its own sign-in page; either says "Sign in".
    await page
      .getByText(/sign in/i)
      .first()
      .waitFor();
    await page.getByText('Atrium Mutual Insurance').first().waitFor();

    await page.goto(`${server.url}/`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it('shows the not-found page for an unknown path', async () => {
    await open('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/no/such/page');
    await page.close();
  });

  // `g p` (Policy Quick Search) over real policies: plugins/policies/test/e2e/policies.e2e.test.ts.

  it('lists every shortcut with ? and does not fire chords while typing', async () => {
    await open('/hello');
    await page.getByRole('heading', { name: 'Hello' }).waitFor();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard Shortcuts' });
    await dialog.waitFor();
    const expected: [string, string][] = [
      ['G then P', 'Policy quick search'],
      ['G then C', 'Claim quick search'],
      ['G then N', 'Contact (Name) quick search'],
      ['?', 'Show Keyboard Shortcuts'],
      ['Ctrl+K', 'Open Command Palette'],
    ];
    for (const [keys, action] of expected) {
      await dialog.getByRole('row', { name: new RegExp(`${escape(keys)}.*${escape(action)}`) }).waitFor();
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // In the palette's input, "g p" is text, not a chord.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox');
    await input.waitFor();
    await page.keyboard.type('g p');
    expect(await input.inputValue()).toBe('g p');
    expect(await page.getByRole('dialog', { name: 'Policy Quick Search' }).count()).toBe(0);
    await page.close();
  });

  it('navigates to a module from the palette with the keyboard only', async () => {
    await open('/somewhere-else');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').waitFor();
    await page.keyboard.type('hello');
    await palette.getByRole('option', { name: /Hello/ }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/hello');
    await page.getByRole('heading', { name: 'Hello' }).waitFor();
    await palette.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('logged no errors in the browser', () => {
    expect(errors).toEqual([]);
  });
});

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
